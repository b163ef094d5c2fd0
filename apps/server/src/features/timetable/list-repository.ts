import {
  BOOKED_PAGE_SIZE,
  BOOKED_TYPES,
  HISTORY_PAGE_SIZE,
  LIVE_RESERVATION,
  OperateType,
  PendingStatus,
  ReservationStatus,
} from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { Row } from '../../db/schema.ts';
import { addDays } from '../../lib/time.ts';
import { missedSql } from './attendance-repository.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct, leftJoinCardProduct } from '../../db/joins.ts';

/**
 * What the schedule shows, read: the calendar's sessions, a session's names, cards and material,
 * its booked, pending and history lists, and the export rows of live bookings.
 */

/** The history types that made a booking: booked by the member or the desk, promoted from the queue, or a pending signed in. */
const BOOKING_ACTS: number[] = [...BOOKED_TYPES, OperateType.SIGNED_IN, OperateType.SELF_CHECKED_IN];

const offset = (page: number, size: number) => (page - 1) * size;

/** What the calendar shows: a date range, and optionally one teacher and some venues. */
export interface CalendarFilter {
  fromDate: string;
  toDate: string;
  teacherId: number | null;
  venueIds: number[] | null;
}

/** The live sessions of the store starting in [fromDate, toDate] with their names, by time. */
export function calendarSessions(ex: Executor, storeId: number, f: CalendarFilter) {
  let query = ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .leftJoin('material as m', 'm.id', 't.bookId')
    .select([
      't.id',
      't.startTime',
      't.endTime',
      't.teacherId',
      'te.name as teacherName',
      'a.name as areaName',
      't.color',
      't.isOnline',
      't.realCount',
      't.reservableCount',
      't.waitCount',
      't.bookId',
      'm.name as bookName',
      'c.kind',
      't.appointmentStatus',
    ])
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', `${f.fromDate} 00:00:00`)
    .where('t.startTime', '<', `${addDays(f.toDate, 1)} 00:00:00`);
  if (f.teacherId !== null) query = query.where('t.teacherId', '=', f.teacherId);
  if (f.venueIds !== null) query = query.where('t.areaId', 'in', f.venueIds);
  return query.orderBy('t.startTime').orderBy('t.id').execute();
}

/** A material (book) of the store with its chapters and their lessons, or null. */
export async function materialTree(ex: Executor, storeId: number, materialId: number) {
  const book = await ex
    .selectFrom('material')
    .select(['id', 'name'])
    .where('id', '=', materialId)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!book) return null;
  const chapters = await ex
    .selectFrom('material')
    .select(['id', 'name'])
    .where('storeId', '=', storeId)
    .where('parentId', '=', materialId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const lessons = chapters.length
    ? await ex
        .selectFrom('material')
        .select(['id', 'name', 'parentId'])
        .where('storeId', '=', storeId)
        .where(
          'parentId',
          'in',
          chapters.map((c) => c.id),
        )
        .orderBy('sort')
        .orderBy('id')
        .execute()
    : [];
  return {
    ...book,
    children: chapters.map((c) => ({
      ...c,
      children: lessons.filter((l) => l.parentId === c.id).map((l) => ({ id: l.id, name: l.name })),
    })),
  };
}

/** The names of a session's course, teacher and venue, and whether the course is 少儿 (for_children). */
export function sessionNames(ex: Executor, s: Pick<Row<'timetable'>, 'courseId' | 'teacherId' | 'areaId'>) {
  return ex
    .selectFrom('course as c')
    .innerJoin('teacher as te', (j) => j.on('te.id', '=', s.teacherId))
    .leftJoin('area as a', (j) => j.on('a.id', '=', s.areaId))
    .select([
      'c.name as courseName',
      'te.name as teacherName',
      'a.name as areaName',
      'c.forChildren',
      'c.kind',
      'c.cancelCutoffMinutes',
      'c.maxMembers',
    ])
    .where('c.id', '=', s.courseId)
    .executeTakeFirstOrThrow();
}

/** The card products (id, name) allowed to book a session, by id. */
export function sessionCardNames(ex: Executor, sessionId: number) {
  return ex
    .selectFrom('timetableCard as tc')
    .innerJoin('cardProduct as p', 'p.id', 'tc.cardId')
    .select(['p.id', 'p.cardName as name'])
    .where('tc.timetableId', '=', sessionId)
    .orderBy('p.id')
    .execute();
}

/**
 * A page of a session's live bookings (booked and signed in), oldest first, with how many there
 * are: member, card, operator and the history type that made each booking.
 */
export async function bookingPage(ex: Executor, storeId: number, sessionId: number, page: number) {
  const base = ex
    .selectFrom('reservation as r')
    .where('r.timetableId', '=', sessionId)
    .where('r.storeId', '=', storeId)
    .where('r.status', 'in', LIVE_RESERVATION);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .leftJoin('staff as s', 's.id', 'r.operatorId')
    .select((eb) => [
      'r.id as reservationId',
      'r.memberId',
      'm.name as memberName',
      'm.mobile as memberMobile',
      'r.memberCardId',
      'p.cardName',
      'p.bigType',
      // The card now (after this booking), for the receipt.
      sql<number>`mc.total_count - mc.used_count`.as('cardLeft'),
      'p.perCount as cardPerCount',
      'mc.expireTime as cardExpireTime',
      'r.studentCount',
      'r.usedCount',
      'r.remark',
      'r.createTime',
      's.name as operator',
      'r.status',
      'r.attendedTime',
      eb
        .selectFrom('history as h')
        .select('h.operateType')
        .whereRef('h.reservationId', '=', 'r.id')
        .where('h.operateType', 'in', BOOKING_ACTS)
        .orderBy('h.id')
        .limit(1)
        .as('operateType'),
    ])
    .orderBy('r.id')
    .limit(BOOKED_PAGE_SIZE)
    .offset(offset(page, BOOKED_PAGE_SIZE))
    .execute();
  return { total: Number(total.n), rows };
}

/** A session's pendings waiting, signed in or not shown, oldest first, with member and operator. */
export function pendingRows(ex: Executor, storeId: number, sessionId: number) {
  return ex
    .selectFrom('pending as p')
    .innerJoin('member as m', 'm.id', 'p.memberId')
    .leftJoin('staff as s', 's.id', 'p.operatorId')
    .leftJoin('reservation as r', 'r.id', 'p.reservationId')
    .select([
      'p.id',
      'p.status',
      'p.createTime',
      's.name as operator',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
      'r.memberCardId',
      'p.memberCardId as chosenCardId',
      'p.studentCount',
      'p.remark',
    ])
    .where('p.timetableId', '=', sessionId)
    .where('p.storeId', '=', storeId)
    .where('p.status', 'in', [PendingStatus.WAITING, PendingStatus.SIGNED_IN, PendingStatus.NO_SHOW])
    .orderBy('p.id')
    .execute();
}

/** A page of a session's history (every book and cancel), newest first, with how many rows there are. */
export async function historyPage(ex: Executor, storeId: number, sessionId: number, page: number) {
  const base = ex.selectFrom('history as h').where('h.timetableId', '=', sessionId).where('h.storeId', '=', storeId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('member as m', 'm.id', 'h.memberId')
    .leftJoin('memberCard as mc', 'mc.id', 'h.memberCardId')
    .$call(leftJoinCardProduct())
    .leftJoin('staff as s', 's.id', 'h.operatorId')
    .select([
      'h.id',
      'm.name as memberName',
      'm.mobile as memberMobile',
      'p.cardName',
      'h.studentCount',
      'h.usedCount',
      'h.operateType',
      's.name as operator',
      'h.createTime',
      'h.remark',
      'h.override',
    ])
    .orderBy('h.id', 'desc')
    .limit(HISTORY_PAGE_SIZE)
    .offset(offset(page, HISTORY_PAGE_SIZE))
    .execute();
  return { total: Number(total.n), rows };
}

/** Which live sessions an export covers: one session, or those starting in [fromTime, beforeTime). */
export type ExportScope = { sessionId: number } | { fromTime: string; beforeTime: string };

/** The export's sessions (alias `t`): one session, or those starting in a range. One condition for bookings and pendings. */
const sessionsOf = (w: ExportScope) =>
  'sessionId' in w
    ? sql<boolean>`${sql.ref('t.id')} = ${w.sessionId}`
    : sql<boolean>`${sql.ref('t.startTime')} >= ${w.fromTime} and ${sql.ref('t.startTime')} < ${w.beforeTime}`;

/**
 * The bookings on the store's live sessions of `where` that the export lists, with session, teacher,
 * member, card and course, ordered by session time then booking: live ones (booked, marked 到店,
 * signed in; `missed`: a no-show of 预约即扣费 at `now`) and late cancels that kept the deduction.
 */
export function exportBookings(ex: Executor, storeId: number, where: ExportScope, now: string) {
  const q = ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .leftJoin('area as a', 'a.id', 't.areaId')
    .select([
      'r.id',
      't.id as sessionId',
      't.startTime',
      't.endTime',
      'a.name as area',
      'te.name as teacher',
      'm.name as member',
      'p.cardName as card',
      'p.bigType',
      'r.usedCount',
      'm.mobile',
      'r.studentCount',
      'r.remark',
      'r.status',
      'r.attendedTime',
      'r.waivedTime',
      sql<number>`case when ${missedSql('r', 't', now)} then 1 else 0 end`.as('missed'),
    ])
    .where('r.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where((eb) =>
      eb.or([
        eb('r.status', 'in', LIVE_RESERVATION),
        eb.and([eb('r.status', '=', ReservationStatus.CANCELLED), eb('r.forfeited', '=', 1)]),
      ]),
    );
  return q.where(sessionsOf(where)).orderBy('t.startTime').orderBy('t.id').orderBy('r.id').execute();
}

/**
 * The pendings of 签到后扣费 the export lists on the store's live sessions of `where`, ordered like
 * the bookings: those waiting for sign-in (booked, nothing charged yet; with the card chosen at
 * booking, if any) and the no-shows (not signed in by their class's end; with the card charged, if
 * any, and what it paid). A pending signed in is listed as its booking.
 */
export function exportPendings(ex: Executor, storeId: number, where: ExportScope) {
  const q = ex
    .selectFrom('pending as pd')
    .innerJoin('timetable as t', 't.id', 'pd.timetableId')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .innerJoin('member as m', 'm.id', 'pd.memberId')
    .leftJoin('memberCard as mc', 'mc.id', 'pd.noShowCardId')
    .$call(leftJoinCardProduct())
    .leftJoin('memberCard as chosen', 'chosen.id', 'pd.memberCardId')
    .leftJoin('cardProduct as cp', 'cp.id', 'chosen.cardId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .select([
      'pd.id',
      'pd.status',
      't.id as sessionId',
      't.startTime',
      't.endTime',
      'a.name as area',
      'te.name as teacher',
      'm.name as member',
      'p.cardName as card',
      'p.bigType',
      'cp.cardName as chosenCard',
      'cp.bigType as chosenBigType',
      'pd.noShowFee',
      'pd.waivedTime',
      'm.mobile',
      'pd.studentCount',
      'pd.remark',
    ])
    .where('pd.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('pd.status', 'in', [PendingStatus.WAITING, PendingStatus.NO_SHOW]);
  return q.where(sessionsOf(where)).orderBy('t.startTime').orderBy('t.id').orderBy('pd.id').execute();
}

/**
 * The rosters of the given sessions: live bookings (booked, marked 到店 or signed in) and pendings
 * still waiting (a signed-in pending appears as its booking), in no particular order.
 */
export function rostersOf(ex: Executor, storeId: number, sessionIds: number[]) {
  const bookings = ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .where('r.storeId', '=', storeId)
    .where('r.timetableId', 'in', sessionIds)
    .where('r.status', 'in', LIVE_RESERVATION)
    .select([
      sql<'booking' | 'pending'>`'booking'`.as('kind'),
      'r.id',
      'r.timetableId as sessionId',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
      (eb) => eb.ref('r.memberCardId').$castTo<number | null>().as('memberCardId'),
      (eb) => eb.ref('p.cardName').$castTo<string | null>().as('cardName'),
      'r.studentCount',
      'r.status',
      'r.attendedTime',
      'r.remark',
      'r.createTime',
    ]);
  const pendings = ex
    .selectFrom('pending as pd')
    .innerJoin('member as m', 'm.id', 'pd.memberId')
    .where('pd.storeId', '=', storeId)
    .where('pd.timetableId', 'in', sessionIds)
    .where('pd.status', '=', PendingStatus.WAITING)
    .select([
      sql<'booking' | 'pending'>`'pending'`.as('kind'),
      'pd.id',
      'pd.timetableId as sessionId',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
      sql<number | null>`null`.as('memberCardId'),
      sql<string | null>`null`.as('cardName'),
      'pd.studentCount',
      sql<number>`0`.as('status'),
      sql<string | null>`null`.as('attendedTime'),
      'pd.remark',
      'pd.createTime',
    ]);
  return bookings.unionAll(pendings).execute();
}
