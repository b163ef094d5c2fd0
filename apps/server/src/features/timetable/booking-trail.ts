import { Msg, OperateType } from '@studio/contract';
import { insertRows } from '../../db/bulk-insert.ts';
import type { Tx } from '../../db/index.ts';
import type { NewRow, Row } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import { isUniqueViolation } from './engine-shared.ts';

/**
 * The booking trail's repository: the reservation and pending rows, the history of each change
 * and the card ledger, written for a set of bookings at once (a single booking is a set of one).
 * Every path that books, cancels or signs in writes its trail here.
 */

/** One line of the trail: a history row and, when it moves a card's balance, its ledger row. */
export type TrailEntry = Pick<
  Row<'history'>,
  | 'timetableId'
  | 'memberId'
  | 'memberCardId'
  | 'reservationId'
  | 'pendingId'
  | 'studentCount'
  | 'usedCount'
  | 'operateType'
  | 'operatorId'
  | 'remark'
> & {
  /** When it happened: the history row's create time (and the ledger row's). */
  now: string;
  /** A staff action outside the members' policy, recorded (越过预约规则：...). */
  override?: string | null;
};

// A late cancel that keeps the deduction (迟到取消) moves nothing: history only; waivers and
// no-show charges write their own ledger entries (features/no-show).
const OWN_LEDGER: readonly number[] = [OperateType.LATE_CANCEL, OperateType.WAIVED, OperateType.NO_SHOW];
const CANCELS: readonly number[] = [OperateType.ADMIN_CANCELLED, OperateType.USER_CANCELLED];

/** Writes the history rows of `entries` and the ledger rows of those that move a card's balance. */
export async function writeTrail(tx: Tx, storeId: number, entries: readonly TrailEntry[]): Promise<void> {
  if (!entries.length) return;
  // The override column only when one entry has one: a bulk run's tens of thousands of rows bind less.
  const withOverride = entries.some((t) => t.override);
  const history: NewRow<'history'>[] = [];
  const ledger: NewRow<'cardLedger'>[] = [];
  for (const t of entries) {
    const row: NewRow<'history'> = {
      storeId,
      timetableId: t.timetableId,
      memberId: t.memberId,
      memberCardId: t.memberCardId,
      reservationId: t.reservationId,
      pendingId: t.pendingId,
      studentCount: t.studentCount,
      usedCount: t.usedCount,
      operateType: t.operateType,
      operatorId: t.operatorId,
      remark: t.remark,
      createTime: t.now,
    };
    if (withOverride) row.override = t.override ?? null;
    history.push(row);
    if (t.memberCardId === null || t.reservationId === null || OWN_LEDGER.includes(t.operateType)) continue;
    const cancel = CANCELS.includes(t.operateType);
    ledger.push({
      storeId,
      memberCardId: t.memberCardId,
      kind: cancel ? 'refund' : 'deduct',
      amount: cancel ? -t.usedCount : t.usedCount,
      reservationId: t.reservationId,
      timetableId: t.timetableId,
      operatorId: t.operatorId,
      remark: null,
      createdAt: t.now,
    });
  }
  await insertRows(tx, 'history', history);
  await insertRows(tx, 'cardLedger', ledger);
}

const pairKey = (timetableId: number, memberId: number) => `${timetableId}:${memberId}`;

/**
 * Inserts live bookings (reservations) or pendings and answers their ids in the order given. A
 * member holds one live booking and one live pending per session (partial unique indexes), so a
 * concurrent duplicate is refused here: 409 该会员已预约该课程.
 */
export async function insertBookingRows<T extends 'reservation' | 'pending'>(
  tx: Tx,
  table: T,
  rows: readonly (NewRow<T> & { timetableId: number; memberId: number })[],
): Promise<number[]> {
  const idOf = new Map<string, number>();
  try {
    const made = await insertRows(tx, table as 'reservation', rows as NewRow<'reservation'>[], [
      'id',
      'timetableId',
      'memberId',
    ]);
    for (const r of made) idOf.set(pairKey(Number(r.timetableId), Number(r.memberId)), Number(r.id));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.alreadyBooked);
    throw e;
  }
  return rows.map((r) => idOf.get(pairKey(r.timetableId, r.memberId))!);
}

/**
 * Charges cards (ascending id: the engine's lock order for cards), each its total in one guarded
 * UPDATE (not frozen, the balance covers it). Answers the first card that could not pay, or null.
 */
export async function chargeCards(tx: Tx, amounts: ReadonlyMap<number, number>): Promise<number | null> {
  for (const [cardId, amount] of [...amounts].sort(([a], [b]) => a - b)) {
    if (amount <= 0) continue;
    const res = await tx
      .updateTable('memberCard')
      .set((eb) => ({ usedCount: eb('usedCount', '+', amount) }))
      .where('id', '=', cardId)
      .where('frozen', '=', 0)
      .where((eb) => eb(eb('usedCount', '+', amount), '<=', eb.ref('totalCount')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return cardId;
  }
  return null;
}

/**
 * Takes seats of live sessions (ascending id: the engine's lock order), each its count in one
 * guarded UPDATE. Answers the first session without that many free seats, or null.
 */
export async function takeSeatsOf(tx: Tx, storeId: number, seats: ReadonlyMap<number, number>): Promise<number | null> {
  for (const [timetableId, n] of [...seats].sort(([a], [b]) => a - b)) {
    const res = await tx
      .updateTable('timetable')
      .set((eb) => ({ realCount: eb('realCount', '+', n) }))
      .where('id', '=', timetableId)
      .where('storeId', '=', storeId)
      .where('deleted', '=', 0)
      .where((eb) => eb(eb('realCount', '+', n), '<=', eb.ref('reservableCount')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return timetableId;
  }
  return null;
}
