import { PendingStatus, ReservationStatus, type LeaveStatus } from '@studio/contract';
import type { Executor, Tx } from '../../../db/index.ts';
import type { NewRow, RowUpdate } from '../../../db/schema.ts';
import { notFound } from '../../../lib/errors.ts';
import { withCourseName } from '../../reference/public.ts';
import { joinCardProduct } from '../../../db/joins.ts';

/**
 * The card life's repository: a card as its leave rules read it, its leaves (`card_leave`), the
 * bookings a leave would cancel, and the card's leave columns (days taken, the periods the booking
 * rules read, the expiry). The rules and transactions are in the services.
 */

/** A member card of the store with what leave needs of it and of its product; 404 会员卡不存在. */
export async function requireLeaveCard(ex: Executor, storeId: number, id: number) {
  const c = await ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select([
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'm.name as memberName',
      'p.cardName',
      'mc.refundedAt',
      'mc.frozen',
      'mc.expireTime',
      'mc.activateTime',
      'mc.createdAt',
      'mc.validDays',
      'mc.leaveDays',
      'mc.leavePeriods',
      'p.cardType',
      'p.activation',
      'p.activateWithinDays',
      'p.leaveAllowed',
      'p.leaveTimes',
      'p.leaveDaysMax',
      'p.leaveDaysTotal',
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', '=', id)
    .executeTakeFirst();
  if (!c) throw notFound('会员卡');
  return { ...c, leaveDays: Number(c.leaveDays) };
}
export type LeaveCard = Awaited<ReturnType<typeof requireLeaveCard>>;

/** Every leave of a card, oldest first. */
export function leavesOfCard(ex: Executor, storeId: number, memberCardId: number) {
  return ex
    .selectFrom('cardLeave')
    .selectAll()
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .orderBy('id')
    .execute();
}

/** A leave of the store, or 404 请假记录不存在. */
export async function requireLeave(ex: Executor, storeId: number, id: number) {
  const l = await ex
    .selectFrom('cardLeave')
    .selectAll()
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!l) throw notFound('请假记录');
  return l;
}

/** Adds a leave; answers its id. */
export async function insertLeave(tx: Tx, row: NewRow<'cardLeave'>): Promise<number> {
  return (await tx.insertInto('cardLeave').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Changes a leave while it is still in `status` (guarded: a second decision finds it changed); false otherwise. */
export async function changeLeave(
  tx: Tx,
  id: number,
  status: LeaveStatus,
  fields: RowUpdate<'cardLeave'>,
): Promise<boolean> {
  const res = await tx
    .updateTable('cardLeave')
    .set(fields)
    .where('id', '=', id)
    .where('status', '=', status)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Sets a card's leave columns: days taken, the approved periods (JSON), the expiry they give. */
export async function setCardLeave(
  tx: Tx,
  storeId: number,
  id: number,
  fields: { leaveDays: number; leavePeriods: string; expireTime: string | null },
): Promise<void> {
  await tx.updateTable('memberCard').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/**
 * The card's bookings of classes starting from `from` to `to` (store-local times), not ended by
 * `now`: its live bookings not yet signed in, and its pendings waiting for sign-in, by start.
 */
export async function bookingsOfCardBetween(
  ex: Executor,
  storeId: number,
  memberCardId: number,
  range: { from: string; to: string; now: string },
) {
  const reservations = ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .select((eb) => [
      eb.val('reservation').as('kind'),
      'r.id',
      't.id as sessionId',
      't.startTime',
      'r.usedCount as refund',
    ])
    .where('r.storeId', '=', storeId)
    .where('r.memberCardId', '=', memberCardId)
    .where('r.status', '=', ReservationStatus.BOOKED)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', range.from)
    .where('t.startTime', '<=', range.to)
    .where('t.endTime', '>', range.now);
  const pendings = ex
    .selectFrom('pending as p')
    .innerJoin('timetable as t', 't.id', 'p.timetableId')
    .$call(withCourseName)
    .select((eb) => [eb.val('pending').as('kind'), 'p.id', 't.id as sessionId', 't.startTime', eb.val(0).as('refund')])
    .where('p.storeId', '=', storeId)
    .where('p.memberCardId', '=', memberCardId)
    .where('p.status', '=', PendingStatus.WAITING)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', range.from)
    .where('t.startTime', '<=', range.to)
    .where('t.endTime', '>', range.now);
  const [a, b] = await Promise.all([reservations.execute(), pendings.execute()]);
  return [...a, ...b]
    .map((r) => ({
      kind: r.kind as 'reservation' | 'pending',
      id: r.id,
      sessionId: r.sessionId,
      courseName: r.courseName,
      startTime: r.startTime,
      refund: Number(r.refund),
    }))
    .sort((x, y) => (x.startTime < y.startTime ? -1 : x.startTime > y.startTime ? 1 : x.id - y.id));
}

/** A page of the store's leaves (a card's, or in one status), newest first, with names. */
export async function leavePage(
  ex: Executor,
  storeId: number,
  o: { memberCardId?: number; status?: LeaveStatus; page: number; size: number },
) {
  const q = ex
    .selectFrom('cardLeave as l')
    .where('l.storeId', '=', storeId)
    .$if(o.memberCardId !== undefined, (w) => w.where('l.memberCardId', '=', o.memberCardId!))
    .$if(o.status !== undefined, (w) => w.where('l.status', '=', o.status!));
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const list = await q
    .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
    .$call(joinCardProduct())
    .innerJoin('member as m', 'm.id', 'l.memberId')
    .leftJoin('staff as s', 's.id', 'l.staffId')
    .leftJoin('staff as d', 'd.id', 'l.decidedBy')
    .select([
      'l.id',
      'l.memberCardId as mcId',
      'l.memberId',
      'm.name as memberName',
      'p.cardName',
      'l.fromDate',
      'l.toDate',
      'l.days',
      'l.reason',
      'l.status',
      'l.requestedBy',
      's.name as staff',
      'l.endedDate',
      'l.createdAt',
      'l.decidedAt',
      'd.name as decidedBy',
      'l.decideRemark',
    ])
    .orderBy('l.id', 'desc')
    .limit(o.size)
    .offset((o.page - 1) * o.size)
    .execute();
  return { list, total: Number(total.n) };
}

/**
 * The live sessions of the store from `from` to `to` (store-local times), not ended by `now`, that the
 * card product books: every session a booking with its card could be on its way into.
 */
export async function sessionsOfProductBetween(
  ex: Executor,
  storeId: number,
  productId: number,
  range: { from: string; to: string; now: string },
): Promise<number[]> {
  const rows = await ex
    .selectFrom('timetable as t')
    .innerJoin('timetableCard as tc', 'tc.timetableId', 't.id')
    .select('t.id')
    .where('t.storeId', '=', storeId)
    .where('tc.cardId', '=', productId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', range.from)
    .where('t.startTime', '<=', range.to)
    .where('t.endTime', '>', range.now)
    .orderBy('t.id')
    .execute();
  return rows.map((r) => r.id);
}
