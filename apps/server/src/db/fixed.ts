import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import { onPostgres } from './dialect.ts';
import type { Executor } from './index.ts';
import { auditStrict } from './strict.ts';

/**
 * Statements of a fixed shape, built and compiled by Kysely once, then run with new values.
 *
 * Kysely builds a tree of frozen objects for every query and prints it to SQL each time: on a
 * booking's dozen statements that is about a fifth of the request's CPU (bench/booking.ts). A
 * statement written with `fixed` is built once per dialect and shape, from stand-ins for its values;
 * each run puts the values in place of the stand-ins and sends the SQL it already has.
 *
 * What "shape" means: the builder gets `p`, whose members are stand-ins of the values given. An
 * array member is an array of stand-ins of the same length, and a member left undefined stays
 * undefined, so `where('id', 'in', p.ids)` and `$if(p.x !== undefined, ...)` are fine: the lengths
 * and the undefined members choose the compiled statement. The builder must not look at a value
 * otherwise (no `p.n > 0 ? ... : ...`): a stand-in is not the value. Under the suites
 * (AUDIT_STRICT=1) every run also builds the statement from the real values through Kysely, as
 * before, and throws if the SQL or the values differ, so a builder that looks at values fails
 * there; the audit guard sees every write as well.
 */

/** Where a value goes: a member of `p`, or the `index`th element of an array member. */
class StandIn {
  constructor(
    readonly key: string,
    readonly index: number = -1,
  ) {}
}

/** Longer lists are not worth a statement of their own: they are built as usual. */
const MAX_LIST = 16;

type Params = Record<string, unknown>;

function shapeOf(p: Params): string | null {
  let shape = '';
  for (const key in p) {
    const v = p[key];
    if (v === undefined) shape += `${key}:u,`;
    else if (Array.isArray(v)) {
      if (v.length > MAX_LIST) return null;
      shape += `${key}:${v.length},`;
    }
  }
  return shape;
}

function standIns(p: Params): Params {
  const out: Params = {};
  for (const key in p) {
    const v = p[key];
    out[key] = v === undefined ? undefined : Array.isArray(v) ? v.map((_, i) => new StandIn(key, i)) : new StandIn(key);
  }
  return out;
}

function bind(parameters: readonly unknown[], p: Params): unknown[] {
  return parameters.map((v) => {
    if (!(v instanceof StandIn)) return v;
    const value = v.index < 0 ? p[v.key] : (p[v.key] as unknown[])[v.index];
    // A value left out of an insert is NULL here (Kysely would leave the column out).
    return value === undefined ? null : value;
  });
}

export interface Fixed<P, O> {
  /** The rows it answers. */
  all(ex: Executor, p: P): Promise<O[]>;
  /** The first row it answers, if any. */
  first(ex: Executor, p: P): Promise<O | undefined>;
  /** How many rows it changed (an UPDATE, INSERT or DELETE). */
  run(ex: Executor, p: P): Promise<number>;
}

/** A statement of a fixed shape (see above); `build` writes it with Kysely as usual. */
export function fixed<P extends Params, O>(build: (ex: Executor, p: P) => Compilable<O> | RawBuilder<O>): Fixed<P, O> {
  const compiled = new Map<string, CompiledQuery<O>>();
  const built = (ex: Executor, p: P): CompiledQuery<O> => {
    const q = build(ex, p);
    return 'isRawBuilder' in q ? q.compile(ex) : q.compile();
  };

  function compile(ex: Executor, p: P): CompiledQuery<O> {
    const shape = shapeOf(p);
    if (shape === null) return built(ex, p);
    const key = (onPostgres(ex) ? 'pg|' : 'lite|') + shape;
    let q = compiled.get(key);
    if (!q) {
      q = built(ex, standIns(p) as P);
      compiled.set(key, q);
    }
    const bound = { ...q, parameters: bind(q.parameters, p) };
    if (auditStrict) {
      const fresh = built(ex, p);
      if (fresh.sql !== bound.sql || JSON.stringify(fresh.parameters) !== JSON.stringify(bound.parameters)) {
        throw new Error(`a fixed statement's shape depends on its values:\n${fresh.sql}\n${bound.sql}`);
      }
    }
    return bound;
  }

  const execute = (ex: Executor, p: P) => ex.executeQuery<O>(compile(ex, p));
  return {
    all: async (ex, p) => (await execute(ex, p)).rows,
    first: async (ex, p) => (await execute(ex, p)).rows[0],
    run: async (ex, p) => Number((await execute(ex, p)).numAffectedRows ?? 0),
  };
}
