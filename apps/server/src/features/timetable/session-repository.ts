import { DEDUCT_AT_SIGN_IN, MODULE_DEDUCTION_MODE } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { onPostgres } from '../../db/locks.ts';
import { notFound } from '../../lib/errors.ts';
import { getModuleStatus } from '../reference/public.ts';

/** Store module 6: 0 deducts at booking, 1 only at on-site sign-in. */
export async function getDeductionMode(tx: Executor, storeId: number): Promise<0 | 1> {
  return (await getModuleStatus(tx, storeId, MODULE_DEDUCTION_MODE)) === DEDUCT_AT_SIGN_IN ? 1 : 0;
}

/**
 * A live (not deleted) session of the store, or 404 课程不存在. With `lock`, its row is locked for the
 * transaction on PostgreSQL (the first lock of the engine's order) in the same statement.
 */
export async function liveSession(tx: Executor, storeId: number, id: number, o: { lock?: boolean } = {}) {
  const q = tx
    .selectFrom('timetable')
    .selectAll()
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0);
  const s = await (o.lock && onPostgres(tx) ? q.forNoKeyUpdate() : q).executeTakeFirst();
  if (!s) throw notFound('课程');
  return s;
}

/** The session's start and end (deleted sessions too). */
export function sessionTimes(ex: Executor, id: number) {
  return ex.selectFrom('timetable').select(['startTime', 'endTime']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The card products allowed to book each of some sessions. */
export async function allowedCardsOf(ex: Executor, sessionIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await ex
    .selectFrom('timetableCard')
    .select(['timetableId', 'cardId'])
    .where('timetableId', 'in', [...new Set(sessionIds)])
    .execute();
  for (const r of rows) out.get(r.timetableId)?.push(r.cardId);
  return out;
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
