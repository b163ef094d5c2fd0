import {
  amountText,
  BOOKED_PAGE_SIZE,
  HISTORY_PAGE_SIZE,
  OperateType,
  PendingStatus,
  ReservationStatus,
  type BookingRow,
  type HistoryRow,
  type PendingItem,
  type SessionExportRow,
  type SessionInfo,
  type BookingPolicy,
} from '@studio/contract';
import type { Db, Executor } from '../../db/index.ts';
import { localDateTime, minutesBetween } from '../../lib/time.ts';
import { bookingWindowReason, cancelKind } from '../policy/rules.ts';
import { loadPolicy } from '../policy/public.ts';
import { getDeductionMode, liveSession } from './session-repository.ts';

/** The history types that made a booking: booked by the member or the desk, or a pending signed in. */
const BOOKING_ACTS: number[] = [
  OperateType.USER_BOOKED,
  OperateType.ADMIN_BOOKED,
  OperateType.SIGNED_IN,
  OperateType.SELF_CHECKED_IN,
];

const LIVE = [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN];

function parseJson(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A material (book) with its chapters and their lessons. */
async function materialTree(db: Db, storeId: number, bookId: number) {
  const book = await db
    .selectFrom('material')
    .select(['id', 'name'])
    .where('id', '=', bookId)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!book) return null;
  const chapters = await db
    .selectFrom('material')
    .select(['id', 'name'])
    .where('storeId', '=', storeId)
    .where('parentId', '=', bookId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const lessons = chapters.length
    ? await db
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

/** The full session of spec section 3, plus the store's deduction mode for the drawer's text. */
export async function sessionInfo(db: Db, storeId: number, id: number, timezone: string): Promise<SessionInfo> {
  const s = await liveSession(db, storeId, id);
  const names = await db
    .selectFrom('course as c')
    .innerJoin('teacher as te', (j) => j.on('te.id', '=', s.teacherId))
    .leftJoin('area as a', (j) => j.on('a.id', '=', s.areaId))
    .select(['c.name as courseName', 'te.name as teacherName', 'a.name as areaName'])
    .where('c.id', '=', s.courseId)
    .executeTakeFirstOrThrow();
  const cards = await db
    .selectFrom('timetableCard as tc')
    .innerJoin('cardProduct as p', 'p.id', 'tc.cardId')
    .select(['p.id', 'p.cardName as name'])
    .where('tc.timetableId', '=', s.id)
    .orderBy('p.id')
    .execute();
  return {
    id: s.id,
    courseId: s.courseId,
    courseName: names.courseName,
    startTime: s.startTime,
    endTime: s.endTime,
    duration: minutesBetween(s.startTime, s.endTime),
    genderLimit: s.genderLimit,
    ageLimit: s.ageLimit,
    syear: s.syear,
    smonth: s.smonth,
    sday: s.sday,
    eyear: s.eyear,
    emonth: s.emonth,
    eday: s.eday,
    teacherId: s.teacherId,
    teacherName: names.teacherName,
    areaId: s.areaId,
    areaName: names.areaName ?? null,
    reservableCount: s.reservableCount,
    realCount: s.realCount,
    waitCount: s.waitCount,
    cards,
    isOnline: s.isOnline,
    meetingId: s.meetingId,
    meetingInfo: parseJson(s.meetingInfo),
    bookId: s.bookId,
    book: s.bookId === null ? null : await materialTree(db, storeId, s.bookId),
    color: s.color,
    deductionMode: await getDeductionMode(db, storeId),
    memberRule: memberRuleNow(await loadPolicy(db, storeId), s.startTime, localDateTime(timezone)),
    ended: s.endTime <= localDateTime(timezone),
  };
}

/** What the policy says to a member about this session at `now` (the desk's confirms show it). */
function memberRuleNow(policy: BookingPolicy, startTime: string, now: string) {
  return {
    booking: bookingWindowReason(policy, { startTime, now }),
    lateCancel: cancelKind(policy, { startTime, now }) !== 'free',
  };
}

const offset = (page: number, size: number) => (page - 1) * size;

/** Live bookings (booked and signed in) of a session, 10 a page, oldest first. */
export async function bookingList(
  db: Db,
  storeId: number,
  tid: number,
  page: number,
): Promise<{ list: BookingRow[]; total: number }> {
  await liveSession(db, storeId, tid);
  const base = db
    .selectFrom('reservation as r')
    .where('r.timetableId', '=', tid)
    .where('r.storeId', '=', storeId)
    .where('r.status', 'in', LIVE);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .leftJoin('staff as s', 's.id', 'r.operatorId')
    .select((eb) => [
      'r.id as reservationId',
      'r.memberId',
      'm.name as memberName',
      'm.mobile as memberMobile',
      'r.memberCardId',
      'p.cardName',
      'p.bigType',
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
        .limit(1)
        .as('operateType'),
    ])
    .orderBy('r.id')
    .limit(BOOKED_PAGE_SIZE)
    .offset(offset(page, BOOKED_PAGE_SIZE))
    .execute();
  return {
    total: Number(total.n),
    list: rows.map((r) => ({
      ...r,
      usedCount: Number(r.usedCount),
      operator: r.operator ?? null,
      operateType: r.operateType ?? OperateType.ADMIN_BOOKED,
    })),
  };
}

/** Pending items of a session: waiting and signed in (not cancelled), oldest first. */
export async function pendingList(db: Db, storeId: number, tid: number): Promise<PendingItem[]> {
  await liveSession(db, storeId, tid);
  const rows = await db
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
    .where('p.timetableId', '=', tid)
    .where('p.storeId', '=', storeId)
    .where('p.status', 'in', [PendingStatus.WAITING, PendingStatus.SIGNED_IN, PendingStatus.NO_SHOW])
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    pending: { id: r.id, status: r.status, createTime: r.createTime, operator: r.operator ?? null },
    member: { id: r.memberId, name: r.memberName, mobile: r.mobile },
    memberId: r.memberId,
    mcId: r.memberCardId ?? r.chosenCardId ?? null,
    studentCount: r.studentCount,
    remark: r.remark,
  }));
}

/** The booking history of a session (every book and cancel), newest first, 10 a page. */
export async function historyList(
  db: Db,
  storeId: number,
  tid: number,
  page: number,
): Promise<{ list: HistoryRow[]; total: number }> {
  await liveSession(db, storeId, tid);
  const base = db.selectFrom('history as h').where('h.timetableId', '=', tid).where('h.storeId', '=', storeId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('member as m', 'm.id', 'h.memberId')
    .leftJoin('memberCard as mc', 'mc.id', 'h.memberCardId')
    .leftJoin('cardProduct as p', 'p.id', 'mc.cardId')
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
  return {
    total: Number(total.n),
    list: rows.map((r) => ({
      ...r,
      cardName: r.cardName ?? null,
      usedCount: Number(r.usedCount),
      // No staff behind a member's own booking or cancel (the members' page): the member is the operator.
      operator: r.operator ?? (MEMBER_ACTS.includes(r.operateType) ? `${r.memberName}（会员本人）` : null),
    })),
  };
}

const MEMBER_ACTS: number[] = [
  OperateType.USER_BOOKED,
  OperateType.USER_CANCELLED,
  OperateType.LATE_CANCEL,
  OperateType.SELF_CHECKED_IN,
];

/**
 * Export rows (the nine columns of spec section 9) of live bookings on the store's live sessions
 * chosen by `where` (one session, or a date range), ordered by session time then booking.
 */
export async function exportRows(
  db: Executor,
  storeId: number,
  where: { timetableId: number } | { fromTime: string; beforeTime: string },
): Promise<SessionExportRow[]> {
  let q = db
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select([
      't.startTime',
      't.endTime',
      'te.name as teacher',
      'm.name as member',
      'p.cardName as card',
      'p.bigType',
      'r.usedCount',
      'm.mobile',
      'c.name as courseName',
      'r.studentCount',
      'r.remark',
    ])
    .where('r.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('r.status', 'in', LIVE);
  q =
    'timetableId' in where
      ? q.where('r.timetableId', '=', where.timetableId)
      : q.where('t.startTime', '>=', where.fromTime).where('t.startTime', '<', where.beforeTime);
  const rows = await q.orderBy('t.startTime').orderBy('t.id').orderBy('r.id').execute();
  return rows.map((r) => ({
    courseTime: `${r.startTime.slice(0, 16)}-${r.endTime.slice(11, 16)}`,
    teacher: r.teacher,
    member: r.member,
    card: r.card,
    usedCount: Number(r.usedCount),
    bigType: r.bigType,
    deduction: amountText(r.bigType, Number(r.usedCount)),
    mobile: r.mobile,
    courseName: r.courseName,
    studentCount: r.studentCount,
    remark: r.remark,
  }));
}

/** The export rows of one session's live bookings. */
export async function sessionExport(db: Db, storeId: number, id: number): Promise<SessionExportRow[]> {
  await liveSession(db, storeId, id);
  return exportRows(db, storeId, { timetableId: id });
}
