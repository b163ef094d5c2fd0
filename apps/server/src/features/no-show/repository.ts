import { PendingStatus } from '@studio/contract';
import { fixed, mapRead, sendRead, together, type ReadValue } from '../../db/fixed.ts';
import type { Executor, Tx } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { addDays } from '../../lib/time.ts';
import { policyRead } from '../policy/public.ts';
import { missedSql } from '../timetable/public.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct, leftJoinCardProduct } from '../../db/joins.ts';

/**
 * The no-shows' repository: the pendings the job marks as no-shows and their charge, the waivers of
 * a no-show's or a late cancel's charge, a member's no-shows and late cancels, and the lift of a
 * member's suspension. The charge and refund themselves go through the engine (timetable/public.ts).
 */

/**
 * A store's pendings still waiting when their live session ended at `now`, in id order, at most
 * 500 (the job's batch).
 */
export function dueNoShows(ex: Executor, storeId: number, now: string) {
  return ex
    .selectFrom('pending as p')
    .innerJoin('timetable as t', 't.id', 'p.timetableId')
    .select(['p.id', 'p.memberId', 'p.memberCardId', 'p.studentCount', 'p.timetableId as sessionId', 't.startTime'])
    .where('p.storeId', '=', storeId)
    .where('p.status', '=', PendingStatus.WAITING)
    .where('t.deleted', '=', 0)
    .where('t.endTime', '<=', now)
    .orderBy('p.id')
    .limit(500)
    .execute();
}

/** Marks a waiting pending as a no-show, charged nothing yet (guarded); false when it no longer waits. */
export async function markNoShow(tx: Tx, pendingId: number): Promise<boolean> {
  const res = await tx
    .updateTable('pending')
    .set({ status: PendingStatus.NO_SHOW, noShowFee: 0 })
    .where('id', '=', pendingId)
    .where('status', '=', PendingStatus.WAITING)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records what a no-show's card paid. */
export async function setNoShowCharge(tx: Tx, pendingId: number, fee: number, cardId: number): Promise<void> {
  await tx.updateTable('pending').set({ noShowFee: fee, noShowCardId: cardId }).where('id', '=', pendingId).execute();
}

/** Marks a no-show's charge waived with a reason (guarded: once); false when it already was. */
export async function markPendingWaived(tx: Tx, id: number, now: string, reason: string): Promise<boolean> {
  const res = await tx
    .updateTable('pending')
    .set({ waivedTime: now, waiveReason: reason })
    .where('id', '=', id)
    .where('waivedTime', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a late cancel's kept deduction waived with a reason (guarded: once); false when it already was. */
export async function markReservationWaived(tx: Tx, id: number, now: string, reason: string): Promise<boolean> {
  const res = await tx
    .updateTable('reservation')
    .set({ waivedTime: now, waiveReason: reason })
    .where('id', '=', id)
    .where('waivedTime', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A member's late cancels that kept the deduction, of sessions starting at `since` or later (newest first). */
export function lateCancelRows(ex: Executor, storeId: number, memberId: number, since: string) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct('cp'))
    .select([
      'r.id',
      't.id as sessionId',
      't.startTime',
      'r.cancelTime',
      'r.usedCount',
      'cp.cardName',
      'cp.bigType',
      'r.waivedTime',
      'r.waiveReason',
    ])
    .where('r.storeId', '=', storeId)
    .where('r.memberId', '=', memberId)
    .where('r.forfeited', '=', 1)
    .where('t.startTime', '>=', since)
    .orderBy('t.startTime', 'desc')
    .execute();
}

const noShowRowsOf = fixed((ex, p: { storeId: number; memberId: number; since: string }) =>
  ex
    .selectFrom('pending as p')
    .innerJoin('timetable as t', 't.id', 'p.timetableId')
    .$call(withCourseName)
    .leftJoin('memberCard as mc', 'mc.id', 'p.noShowCardId')
    .$call(leftJoinCardProduct('cp'))
    .select([
      'p.id',
      't.id as sessionId',
      't.startTime',
      'p.noShowFee',
      'cp.cardName',
      'cp.bigType',
      'p.waivedTime',
      'p.waiveReason',
    ])
    .where('p.storeId', '=', p.storeId)
    .where('p.memberId', '=', p.memberId)
    .where('p.status', '=', PendingStatus.NO_SHOW)
    .where('t.startTime', '>=', p.since)
    .orderBy('t.startTime', 'desc'),
);

/** A member's no-shows of sessions starting at `since` or later (newest first), with the card charged. */
function noShowRows(ex: Executor, storeId: number, memberId: number, since: string) {
  return noShowRowsOf.plan(ex, { storeId, memberId, since });
}

const missedRowsOf = fixed((ex, p: { storeId: number; memberId: number; since: string; now: string }) =>
  ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct('cp'))
    .select(['r.id', 't.id as sessionId', 't.startTime', 'cp.cardName', 'cp.bigType'])
    .where('r.storeId', '=', p.storeId)
    .where('r.memberId', '=', p.memberId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', p.since)
    .where(missedSql('r', 't', p.now))
    .orderBy('t.startTime', 'desc'),
);

/**
 * A member's no-shows of 预约即扣费 (bookings not marked 到店 by the end of a class whose attendance
 * was taken, at `now`) of sessions starting at `since` or later, newest first, with the card that paid.
 */
function missedBookingRows(ex: Executor, storeId: number, memberId: number, since: string, now: string) {
  return missedRowsOf.plan(ex, { storeId, memberId, since, now });
}

const suspensionLift = fixed((ex, p: { storeId: number; memberId: number }) =>
  ex.selectFrom('member').select('suspensionLiftedAt').where('id', '=', p.memberId).where('storeId', '=', p.storeId),
);

/** When staff last lifted a member's suspension (the member row), or undefined for no such member. */
function suspensionLiftOf(ex: Executor, storeId: number, memberId: number) {
  return mapRead(suspensionLift.plan(ex, { storeId, memberId }), (rows) => rows[0]);
}

/** The start of the member drawer's window: midnight 90 days before `now`'s date. */
export const since90Days = (now: string) => `${addDays(now.slice(0, 10), -90)} 00:00:00`;

/**
 * A member's no-shows of the last 90 days (newest first) with their charge and waiver: pendings not
 * signed in (签到后扣费, processed by the job) and bookings not marked 到店 in a class whose attendance
 * was taken (预约即扣费: read as they stand, so marking 到店 afterwards clears one; nothing charged,
 * the booking paid).
 */
function noShowsRead(db: Executor, storeId: number, memberId: number, now: string) {
  const since = since90Days(now);
  const rows = together({
    pendings: noShowRows(db, storeId, memberId, since),
    bookings: missedBookingRows(db, storeId, memberId, since, now),
  });
  return mapRead(rows, ({ pendings, bookings }) => noShowList(pendings, bookings));
}

/** The no-shows of `noShowsRead` from its rows: one list, newest first. */
function noShowList(
  pendings: ReadValue<ReturnType<typeof noShowRows>>,
  bookings: ReadValue<ReturnType<typeof missedBookingRows>>,
) {
  const session = (r: { sessionId: number; courseName: string; startTime: string }) => ({
    id: r.sessionId,
    courseName: r.courseName,
    startTime: r.startTime,
  });
  return [
    ...pendings.map((r) => ({
      pendingId: r.id as number | null,
      reservationId: null as number | null,
      session: session(r),
      fee: Number(r.noShowFee ?? 0),
      cardName: r.cardName ?? null,
      bigType: r.bigType ?? null,
      waivedTime: r.waivedTime,
      waiveReason: r.waiveReason,
    })),
    ...bookings.map((r) => ({
      pendingId: null,
      reservationId: r.id,
      session: session(r),
      fee: 0,
      cardName: r.cardName,
      bigType: r.bigType,
      waivedTime: null,
      waiveReason: null,
    })),
  ].sort((a, b) => b.session.startTime.localeCompare(a.session.startTime));
}

/**
 * What a member's suspension is decided from (`suspensionFrom`): when staff last lifted one, the
 * store's policy and the member's no-shows of the last 90 days, as one read to send with others (a
 * member's booking reads it with the session and card). 404 会员不存在 for a member not of the store
 * (the member row read here is the check).
 */
export function suspensionFactsRead(db: Executor, storeId: number, memberId: number, now: string) {
  const reads = together({
    member: suspensionLiftOf(db, storeId, memberId),
    policy: policyRead(db, storeId),
    list: noShowsRead(db, storeId, memberId, now),
  });
  return mapRead(reads, ({ member, policy, list }) => {
    if (!member) throw notFound('会员');
    return { lifted: member.suspensionLiftedAt, policy, list };
  });
}

export type SuspensionFacts = ReadValue<ReturnType<typeof suspensionFactsRead>>;

/** `suspensionFactsRead`, sent now. */
export function suspensionFacts(db: Executor, storeId: number, memberId: number, now: string) {
  return sendRead(db, suspensionFactsRead(db, storeId, memberId, now));
}
