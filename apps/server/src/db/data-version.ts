import { sql } from 'kysely';
import type { Executor } from './index.ts';
import { onPostgres } from './dialect.ts';
import { fixed, mapRead, sendRead, type Read } from './fixed.ts';

const sqliteVersion = fixed((ex, p: { storeId: number }) =>
  ex.selectFrom('storeVersion').select('version').where('storeId', '=', p.storeId),
);
const pgVersion = fixed(
  (_ex, p: { storeId: number; from: string; to: string }) => sql<{ v: string }>`
    select concat_ws(':',
      (select version from store_version where store_id = ${p.storeId}),
      count(*), sum(hashint8extended(version, 0)::numeric)) as v
    from timetable where store_id = ${p.storeId} and start_time >= ${p.from} and start_time < ${p.to}`,
);

/** `dataVersion` as a read to send with others (db/fixed.ts `readTogether`). */
export function dataVersionRead(db: Executor, storeId: number, from: string, to: string): Read<string> {
  if (!onPostgres(db)) return mapRead(sqliteVersion.plan(db, { storeId }), ([row]) => String(row?.version ?? 0));
  return mapRead(pgVersion.plan(db, { storeId, from, to }), ([row]) => row?.v ?? '');
}

/**
 * The calendar's data version of a store's sessions starting in [from, to): a value that changes
 * whenever something the calendar shows there may have changed, read from the database so that
 * every app instance sees every instance's writes. It never takes a lock and no writer waits for it.
 *
 * - `store_version` (migration 0200): bumped by triggers on writes to teachers, areas, courses and
 *   materials (names the calendar shows), and on SQLite on every write to a session as well (one
 *   writer at a time there, so the row costs nothing).
 * - PostgreSQL, sessions (migration 0202): each session row carries `version`, a value from a
 *   sequence set on insert and on every update, so every state of every row has a value never used
 *   before. The fingerprint is the count and the sum of a 64-bit hash of those values over the
 *   range, read over an index: any committed change adds a value never seen or removes one, in
 *   whatever order transactions commit (a max() would miss a late commit of an earlier value).
 */
export function dataVersion(db: Executor, storeId: number, from: string, to: string): Promise<string> {
  return sendRead(db, dataVersionRead(db, storeId, from, to));
}
