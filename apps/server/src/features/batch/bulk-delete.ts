import { OperateType, PendingStatus, ReservationStatus } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { lockCards, lockSessions } from '../../db/locks.ts';
import { chunks } from '../../db/chunks.ts';
import { groupBy } from './group.ts';
import { recordForUndo } from '../../lib/audit.ts';
import { writeTrail } from '../timetable/public.ts';

/** Ids per statement (`chunks` by bound values): a thousand, well under either database's limit. */
const idChunks = <T>(ids: readonly T[]) => chunks(ids, 30);

/** `UPDATE table SET column = column - amount` for many ids, one statement per distinct amount. */
async function subtract(
  tx: Tx,
  table: 'timetable' | 'memberCard',
  column: 'realCount' | 'usedCount',
  amounts: Map<number, number>,
): Promise<void> {
  const byAmount = groupBy(
    [...amounts].filter(([, n]) => n > 0),
    ([, n]) => n,
  );
  for (const [amount, rows] of byAmount) {
    for (const ids of idChunks(rows.map(([id]) => id))) {
      await tx
        .updateTable(table)
        .set((eb) => ({ [column]: eb(eb.ref(column), '-', amount) }))
        .where('id', 'in', ids)
        .execute();
    }
  }
}

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
  timetableIds: readonly number[],
  operatorId: number | null,
): Promise<number> {
  if (!timetableIds.length) return 0;
  const now = localDateTime(store.timezone);
  const deleted: number[] = [];
  // Lock order: every session (ascending id), their bookings, then every card refunded (ascending).
  await lockSessions(tx, timetableIds);
  const refundsByCard = new Map<number, number>();
  for (const ids of idChunks(timetableIds)) {
    const rows = await tx
      .updateTable('timetable')
      .set({ deleted: 1 })
      .where('storeId', '=', store.id)
      .where('deleted', '=', 0)
      .where('id', 'in', ids)
      .returning('id')
      .execute();
    deleted.push(...rows.map((r) => r.id));
  }
  for (const ids of idChunks(deleted)) {
    // What an undo of a batch delete restores: each booking's status before it was cancelled.
    const before = await tx
      .selectFrom('reservation')
      .select(['id', 'status', 'pendingId'])
      .where('timetableId', 'in', ids)
      .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
      .execute();
    const linked = before.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId]));
    const pendingsBefore = await tx
      .selectFrom('pending')
      .select(['id', 'status'])
      .where((eb) =>
        eb.or([
          eb.and([eb('timetableId', 'in', ids), eb('status', '=', PendingStatus.WAITING)]),
          ...(linked.length ? [eb('id', 'in', linked)] : []),
        ]),
      )
      .execute();
    recordForUndo(tx, {
      deletedSessions: ids,
      reservations: before.map((r) => ({ id: r.id, status: r.status })),
      pendings: pendingsBefore,
    });
    const reservations = await tx
      .updateTable('reservation')
      .set({ status: ReservationStatus.CANCELLED, cancelTime: now })
      .where('timetableId', 'in', ids)
      .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
      .returningAll()
      .execute();
    const fromPending = reservations.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId]));
    for (const part of idChunks(fromPending)) {
      await tx
        .updateTable('pending')
        .set({ status: PendingStatus.CANCELLED, cancelTime: now })
        .where('id', 'in', part)
        .execute();
    }
    const waiting = await tx
      .updateTable('pending')
      .set({ status: PendingStatus.CANCELLED, cancelTime: now })
      .where('timetableId', 'in', ids)
      .where('status', '=', PendingStatus.WAITING)
      .returningAll()
      .execute();
    await subtract(
      tx,
      'timetable',
      'realCount',
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
  }
  await lockCards(tx, refundsByCard.keys());
  await subtract(tx, 'memberCard', 'usedCount', refundsByCard);
  return deleted.length;
}
