import { CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import { onPostgres } from './dialect.ts';
import { marked, READ_MARK, WITH_NEXT } from './pg-pipeline.ts';
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
 *
 * Reads that belong together say so: a repository offers a read as a `Read` (`plan`: the compiled
 * statement and what its rows become), and `readTogether(ex, { a, b, ... })` sends them. On
 * PostgreSQL several plain reads (SELECT, no row lock) go as one statement, each read a subquery
 * whose rows come back as JSON (`readsTogether`): one round trip instead of one each. On SQLite
 * they run one after the other (there is no round trip to save). Nothing else is merged: a plain
 * `await` sends its statement alone, and moving it changes nothing but the order. Under the suites
 * every read sent together is also run on its own and must answer rows of the same columns with
 * values of the same kinds (db/fixed.test.ts compares the values where nothing else writes).
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
  /** Its rows as a read to send with others (`readTogether`). */
  plan(ex: Executor, p: P): Read<O[]>;
  /**
   * A write whose answer nobody waits for: on PostgreSQL, in a transaction, it goes out with the
   * transaction's next statement or its COMMIT (pg-pipeline.ts), and a failure fails that one;
   * elsewhere it runs now.
   */
  sendWithNext(ex: Executor, p: P): Promise<void>;
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
    plan: (ex, p) => planned(compile(ex, p)),
    sendWithNext: async (ex, p) => {
      const q = compile(ex, p);
      await ex.executeQuery(onPostgres(ex) ? marked(WITH_NEXT, q) : q);
    },
  };
}

/**
 * A read not sent yet: its statements (plain reads), and what their rows, in the same order,
 * become. Made by `Fixed.plan` and `plannedRead`, shaped by `mapRead`, combined by `together`, sent
 * by `readTogether` / `sendRead`.
 */
export interface Read<T> {
  readonly queries: readonly CompiledQuery[];
  readonly take: (rows: readonly (readonly unknown[])[]) => T;
}

/** The value a read answers. */
export type ReadValue<R> = R extends Read<infer T> ? T : never;

function planned<O>(q: CompiledQuery<O>): Read<O[]> {
  if (!PLAIN_READ.test(q.sql) || ROW_LOCK.test(q.sql)) {
    throw new Error(`only a plain read can be sent with others:\n${q.sql}`);
  }
  return { queries: [q], take: (rows) => rows[0] as O[] };
}

/** A Kysely SELECT (no row lock) as a read to send with others (a statement not written with `fixed`). */
export function plannedRead<O>(q: Compilable<O>): Read<O[]> {
  return planned(q.compile());
}

/** What a read's value becomes: `f` runs when its rows are in (a refusal it throws comes then). */
export function mapRead<A, B>(r: Read<A>, f: (a: A) => B): Read<B> {
  return { queries: r.queries, take: (rows) => f(r.take(rows)) };
}

/**
 * A read whose refusal waits for its caller: its value is a function answering what the read
 * answers, or throwing the refusal its value threw when its rows came (a 404). Sent with other
 * reads, it lets the caller refuse first on what they answer (a desk booking in 签到后扣费 mode is
 * refused before 404 课程不存在).
 */
export function deferRefusal<T>(r: Read<T>): Read<() => T> {
  return {
    queries: r.queries,
    take: (rows) => {
      try {
        const value = r.take(rows);
        return () => value;
      } catch (e) {
        return () => {
          throw e;
        };
      }
    },
  };
}

/** A read that answers nothing and sends nothing (a list of no ids, a read that is not needed). */
export function noRead<T>(value: T): Read<T> {
  return { queries: [], take: () => value };
}

/**
 * Several reads as one: its value has each read's value under its name. The values are made in
 * the order the names are given, so where two of them would refuse (404 课程不存在, 404
 * 会员卡不存在), the first named is the refusal.
 */
export function together<T extends Record<string, Read<unknown>>>(reads: T): Read<{ [K in keyof T]: ReadValue<T[K]> }> {
  const entries = Object.entries(reads);
  return {
    queries: entries.flatMap(([, r]) => r.queries),
    take: (rows) => {
      const out: Record<string, unknown> = {};
      let at = 0;
      for (const [name, r] of entries) {
        out[name] = r.take(rows.slice(at, at + r.queries.length));
        at += r.queries.length;
      }
      return out as { [K in keyof T]: ReadValue<T[K]> };
    },
  };
}

/** Sends a read: its statements in one round trip on PostgreSQL, one after the other on SQLite. */
export async function sendRead<T>(ex: Executor, r: Read<T>): Promise<T> {
  if (onPostgres(ex)) {
    if (r.queries.length > 1) return r.take(await sendTogether(ex, r.queries));
    if (r.queries.length === 1) {
      const [q] = r.queries;
      return r.take([(await ex.executeQuery(marked(READ_MARK, q))).rows as unknown[]]);
    }
  }
  const rows: unknown[][] = [];
  for (const q of r.queries) rows.push((await ex.executeQuery(q)).rows as unknown[]);
  return r.take(rows);
}

/** Sends reads that belong together (see the top of this file) and answers each one's value by its name. */
export function readTogether<T extends Record<string, Read<unknown>>>(
  ex: Executor,
  reads: T,
): Promise<{ [K in keyof T]: ReadValue<T[K]> }> {
  return sendRead(ex, together(reads));
}

/** A statement that only reads (WITH may write, so it is left alone), and one that locks rows. */
const PLAIN_READ = /^\s*select\b/i;
const ROW_LOCK = /\bfor\s+(no\s+key\s+)?(update|share|key\s+share)\b/i;

/** PostgreSQL: the rows of several plain reads, sent as one statement (`readsTogether`). */
async function sendTogether(ex: Executor, qs: readonly CompiledQuery[]): Promise<unknown[][]> {
  const [row] = (await ex.executeQuery<Record<string, unknown[]>>(marked(READ_MARK, readsTogether(qs)))).rows;
  const answers = qs.map((_, i) => row[`r${i}`]);
  if (auditStrict) {
    // The rows may differ by now (other transactions commit between statements); their columns
    // and the kinds of their values may not.
    for (const [i, q] of qs.entries()) {
      const alone = (await ex.executeQuery(q)).rows;
      if (!sameKinds(alone, answers[i])) {
        throw new Error(
          `a read sent with others answered other columns or kinds of values:\n${q.sql}\n${JSON.stringify(alone)}\n${JSON.stringify(answers[i])}`,
        );
      }
    }
  }
  return answers;
}

/** Each column of some rows with the kinds of its values (null apart, which any column may hold). */
function kindsOf(rows: readonly unknown[]): Map<string, Set<string>> {
  const kinds = new Map<string, Set<string>>();
  for (const row of rows as Record<string, unknown>[]) {
    for (const [k, v] of Object.entries(row)) {
      if (!kinds.has(k)) kinds.set(k, new Set());
      if (v !== null) kinds.get(k)!.add(Array.isArray(v) ? 'array' : typeof v);
    }
  }
  return kinds;
}

/** Rows of the same columns, each column's values of the same kinds where both sides have some. */
function sameKinds(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (!a.length || !b.length) return true;
  const [ka, kb] = [kindsOf(a), kindsOf(b)];
  if (ka.size !== kb.size) return false;
  for (const [k, va] of ka) {
    const vb = kb.get(k);
    if (!vb) return false;
    if (va.size && vb.size && [...va].sort().join() !== [...vb].sort().join()) return false;
  }
  return true;
}

const statementsTogether = new Map<string, string>();

/**
 * PostgreSQL: one statement answering several reads, one column each (`r0`, `r1`, ...) holding the
 * read's rows as a JSON array of objects, in the read's order. The parameters of each read are
 * renumbered after those of the reads before it. The rows' columns are put in camelCase by the
 * database's plugin as any row's are (db/snake-case.ts); values come back as JSON gives them:
 * integers and bigints as numbers (as the pg type parsers make them, db/index.ts), text as strings,
 * booleans as booleans (no column type here differs: no dates or binary data in a plain read).
 */
function readsTogether(qs: readonly CompiledQuery[]): CompiledQuery {
  const key = qs.map((q) => q.sql).join('\u0000');
  let text = statementsTogether.get(key);
  if (text === undefined) {
    let offset = 0;
    const columns = qs.map((q, i) => {
      const at = offset;
      offset += q.parameters.length;
      const renumbered = q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`);
      return `(select coalesce(json_agg(r_), '[]'::json) from (${renumbered}) as r_) as "r${i}"`;
    });
    text = `select ${columns.join(', ')}`;
    if (statementsTogether.size >= 1000) statementsTogether.clear();
    statementsTogether.set(key, text);
  }
  return CompiledQuery.raw(
    text,
    qs.flatMap((q) => q.parameters),
  );
}
