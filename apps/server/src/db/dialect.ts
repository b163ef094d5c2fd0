import { PostgresAdapter, sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from './index.ts';

/**
 * What differs between the two databases, in one place: which one a handle talks to, the error
 * codes each answers for a refused constraint, savepoints, and LIKE with literal wildcards.
 * Everything else the server writes runs the same on both.
 */

/** Whether queries on this executor run on PostgreSQL. */
/**
 * The one object a database handle and all its transactions share (its dialect's adapter, made once
 * per handle): what a per-database cache keys on, whether it is handed the handle or a transaction.
 */
export function databaseOf(ex: Executor): object {
  return ex.getExecutor().adapter;
}

export function onPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function dbCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** A unique constraint (or primary key) refused the write, on either database. */
export const isUniqueViolation = (e: unknown): boolean =>
  ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(dbCode(e));

/** A foreign key refused the write, on either database. */
export const isForeignKeyViolation = (e: unknown): boolean =>
  ['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY'].includes(dbCode(e));

/** `column LIKE '%text%'` with the wildcards in `text` taken literally (both databases). */
export const contains = (column: string, text: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(column)} like ${`%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`} escape '!'`;

let savepoints = 0;

/** Runs `fn` in a savepoint of `tx`: an error undoes exactly its writes and is passed on. */
export async function inSavepoint<T>(tx: Executor, fn: () => Promise<T>): Promise<T> {
  const name = sql.raw(`sp_${++savepoints}`);
  await sql`savepoint ${name}`.execute(tx);
  try {
    const r = await fn();
    await sql`release savepoint ${name}`.execute(tx);
    return r;
  } catch (e) {
    await sql`rollback to savepoint ${name}`.execute(tx);
    await sql`release savepoint ${name}`.execute(tx);
    throw e;
  }
}
