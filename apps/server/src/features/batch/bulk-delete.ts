import { OperateType } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { lockCards, lockSessions } from '../../db/locks.ts';
import { recordForUndo } from '../../lib/audit.ts';
import { event, type Events } from '../../lib/events.ts';
import { creditCards, freeSeatsOf, sessionsDeletedInBulk, writeTrail } from '../timetable/public.ts';
import { idChunks } from '../../db/chunks.ts';
import {
  cancelLiveBookingsOf,
  cancelPendingsById,
  cancelWaitingPendingsOf,
  liveBookingsOf,
  markSessionsDeleted,
  pendingStatusesOf,
} from './repository.ts';

const sumBy = <T>(rows: readonly T[], key: (r: T) => number, value: (r: T) => number) => {
  const m = new Map<number, number>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + value(r));
  return m;
};

/**
 * Deletes many live sessions of the store in the caller's transaction, in bulk, writing what the
 * engine's `deleteSession` writes for each: the session soft-deleted, every live reservation
 * cancelled (guarded on its status, so each is refunded exactly once) with its pending closed,
 * every waiting pending cancelled, seats freed, each card refunded what its reservations deducted,
 * and history (type 4) and ledger 'refund' rows. Sessions already deleted are left alone.
 * Returns how many sessions it deleted.
 */
export async function deleteSessions(
  tx: Tx,
  store: StoreScope,
  sessionIds: readonly number[],
  operatorId: number | null,
  events: Events,
): Promise<number> {
  if (!sessionIds.length) return 0;
  const now = localDateTime(store.timezone);
  const deleted: number[] = [];
  // Lock order: every session (ascending id), their bookings, then every card refunded (ascending).
  await lockSessions(tx, sessionIds);
  const refundsByCard = new Map<number, number>();
  for (const ids of idChunks(sessionIds)) {
    deleted.push(...(await markSessionsDeleted(tx, store.id, ids)));
  }
  for (const ids of idChunks(deleted)) {
    // What an undo of a batch delete restores: each booking's status before it was cancelled.
    const before = await liveBookingsOf(tx, ids);
    const linked = before.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId]));
    const pendingsBefore = await pendingStatusesOf(tx, ids, linked);
    recordForUndo(tx, {
      deletedSessions: ids,
      reservations: before.map((r) => ({ id: r.id, status: r.status })),
      pendings: pendingsBefore,
    });
    const reservations = await cancelLiveBookingsOf(tx, ids, now);
    const fromPending = reservations.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId]));
    await cancelPendingsById(tx, fromPending, now);
    const waiting = await cancelWaitingPendingsOf(tx, ids, now);
    await freeSeatsOf(
      tx,
      sumBy(
        [...reservations, ...waiting],
        (r) => r.timetableId,
        (r) => r.studentCount,
      ),
    );
    for (const [card, amount] of sumBy(
      reservations,
      (r) => r.memberCardId,
      (r) => Number(r.usedCount),
    )) {
      refundsByCard.set(card, (refundsByCard.get(card) ?? 0) + amount);
    }
    // The engine's trail writer: a history row each, and a refund in the ledger for each booking.
    const trail = (r: { timetableId: number; memberId: number; studentCount: number; remark: string | null }) => ({
      timetableId: r.timetableId,
      memberId: r.memberId,
      studentCount: r.studentCount,
      remark: r.remark,
      operateType: OperateType.ADMIN_CANCELLED,
      operatorId,
      now,
    });
    await writeTrail(tx, store.id, [
      ...reservations.map((r) => ({
        ...trail(r),
        memberCardId: r.memberCardId,
        reservationId: r.id,
        pendingId: r.pendingId,
        usedCount: Number(r.usedCount),
      })),
      ...waiting.map((p) => ({ ...trail(p), memberCardId: null, reservationId: null, pendingId: p.id, usedCount: 0 })),
    ]);
    // Listeners act in the delete's transaction: leads' trial classes (体验课) of these sessions are
    // cancelled, their seats freed (not restored by an undo).
    await events.emit(tx, event(sessionsDeletedInBulk, { storeId: store.id, sessionIds: ids, now }));
  }
  await lockCards(tx, refundsByCard.keys());
  await creditCards(tx, refundsByCard);
  return deleted.length;
}
