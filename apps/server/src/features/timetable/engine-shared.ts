import { DEDUCT_AT_SIGN_IN, MODULE_DEDUCTION_MODE, PendingStatus, ReservationStatus } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
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

/**
 * The (session id, member id) pairs among `sessionIds` x `memberIds` that hold a live booking or a
 * live pending: the duplicate rule's state (the partial unique indexes of migration 0200 catch a
 * concurrent duplicate).
 */
export async function heldPairs(
  ex: Executor,
  sessionIds: readonly number[],
  memberIds: readonly number[],
): Promise<[number, number][]> {
  if (!sessionIds.length || !memberIds.length) return [];
  const rows = await ex
    .selectFrom('reservation')
    .select(['timetableId', 'memberId'])
    .where('timetableId', 'in', [...new Set(sessionIds)])
    .where('memberId', 'in', [...new Set(memberIds)])
    .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .unionAll(
      ex
        .selectFrom('pending')
        .select(['timetableId', 'memberId'])
        .where('timetableId', 'in', [...new Set(sessionIds)])
        .where('memberId', 'in', [...new Set(memberIds)])
        .where('status', 'in', [PendingStatus.WAITING, PendingStatus.SIGNED_IN]),
    )
    .execute();
  return rows.map((r) => [r.timetableId, r.memberId]);
}

/** Gives back `n` seats (deleted sessions included: deleting a session frees its seats). */
export async function freeSeats(tx: Tx, timetableId: number, n: number): Promise<void> {
  await tx
    .updateTable('timetable')
    .set((eb) => ({ realCount: eb('realCount', '-', n) }))
    .where('id', '=', timetableId)
    .execute();
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
