import {
  amountText,
  BIG_TYPE_COUNT,
  OperateType,
  PendingStatus,
  ReservationStatus,
  type BookingPolicy,
  type BookingRow,
  type HistoryRow,
  type PendingItem,
  type SessionExportRow,
  type SessionInfo,
} from '@studio/contract';
import type { Db, Executor } from '../../db/index.ts';
import { localDateTime, minutesBetween } from '../../lib/time.ts';
import { bookingWindowReason, cancelKind } from '../policy/rules.ts';
import { bookingRules } from '../policy/public.ts';
import {
  bookingPage,
  exportBookings,
  exportPendings,
  historyPage,
  materialTree,
  pendingRows,
  sessionCardNames,
  sessionNames,
  type ExportScope,
} from './list-repository.ts';
import { liveSession } from './session-repository.ts';
import { lessonMark } from './calendar.ts';

/**
 * A session's drawer and lists as the desk reads them: each checks the session is live (404
 * 课程不存在) and answers the rows of `list-repository.ts` in the contract's shape.
 */

function parseJson(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The full session of spec section 3, plus the store's deduction mode for the drawer's text. */
export async function sessionInfo(db: Db, storeId: number, id: number, timezone: string): Promise<SessionInfo> {
  const s = await liveSession(db, storeId, id);
  const names = await sessionNames(db, s);
  const cards = await sessionCardNames(db, s.id);
  const rules = await bookingRules(db, storeId);
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
    forChildren: Number(names.forChildren) === 1,
    deductionMode: rules.deductionMode,
    memberRule: memberRuleNow(rules.policy, s.startTime, localDateTime(timezone)),
    ended: s.endTime <= localDateTime(timezone),
    lesson:
      names.kind === 'group'
        ? null
        : {
            ...lessonMark({ kind: names.kind, appointmentStatus: s.appointmentStatus })!,
            cancelCutoffMinutes: names.cancelCutoffMinutes,
            maxMembers: names.maxMembers,
            outsideReason: s.outsideReason,
          },
  };
}

/** What the policy says to a member about this session at `now` (the desk's confirms show it). */
function memberRuleNow(policy: BookingPolicy, startTime: string, now: string) {
  return {
    booking: bookingWindowReason(policy, { startTime, now }),
    lateCancel: cancelKind(policy, { startTime, now }) !== 'free',
  };
}

/** Live bookings (booked and signed in) of a session, 10 a page, oldest first. */
export async function bookingList(
  db: Db,
  storeId: number,
  sessionId: number,
  page: number,
): Promise<{ list: BookingRow[]; total: number }> {
  await liveSession(db, storeId, sessionId);
  const { total, rows } = await bookingPage(db, storeId, sessionId, page);
  return {
    total,
    list: rows.map((r) => ({
      ...r,
      usedCount: Number(r.usedCount),
      cardLeft: Number(r.cardLeft),
      cardPerCount: Number(r.cardPerCount),
      operator: r.operator ?? null,
      operateType: r.operateType ?? OperateType.ADMIN_BOOKED,
    })),
  };
}

/** Pending items of a session: waiting and signed in (not cancelled), oldest first. */
export async function pendingList(db: Db, storeId: number, sessionId: number): Promise<PendingItem[]> {
  await liveSession(db, storeId, sessionId);
  const rows = await pendingRows(db, storeId, sessionId);
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
  sessionId: number,
  page: number,
): Promise<{ list: HistoryRow[]; total: number }> {
  await liveSession(db, storeId, sessionId);
  const { total, rows } = await historyPage(db, storeId, sessionId, page);
  return {
    total,
    list: rows.map((r) => ({
      ...r,
      cardName: r.cardName ?? null,
      usedCount: Number(r.usedCount),
      // No staff behind a member's own booking or cancel (the members' page): the member is the operator.
      operator: r.operator ?? actorOf(r),
    })),
  };
}

/** Who acted when no staff did: the member themself (the members' page), or the system (a promotion from the queue). */
function actorOf(r: { operateType: number; memberName: string }): string | null {
  if (r.operateType === OperateType.PROMOTED) return '系统';
  return MEMBER_ACTS.includes(r.operateType) ? `${r.memberName}（会员本人）` : null;
}

const MEMBER_ACTS: number[] = [
  OperateType.USER_BOOKED,
  OperateType.USER_CANCELLED,
  OperateType.LATE_CANCEL,
  OperateType.SELF_CHECKED_IN,
  // 到店 without staff behind it: the member's own scan of the store's code.
  OperateType.ATTENDED,
];

/** What became of a booking, as the export's 状态 column says it. */
function exportState(r: { status: number; attendedTime: string | null; missed: number | string }): string {
  if (r.status === ReservationStatus.CANCELLED) return '迟到取消';
  if (r.status === ReservationStatus.SIGNED_IN) return '已签到';
  if (r.attendedTime !== null) return '已到店';
  return Number(r.missed) === 1 ? '爽约' : '已预约';
}

/**
 * Export rows (the nine columns of spec section 9, and 单位, 场地, 状态) of the store's live sessions
 * chosen by `where` (one session, or a date range), ordered by session time: the live bookings
 * (已预约, 已到店, 已签到, or 爽约 for a booking not marked 到店 in a class whose attendance was
 * taken, at `now`), the late cancels that kept their deduction (迟到取消), the pendings waiting for
 * sign-in (已预约, nothing deducted yet) and those not signed in (爽约, with what the no-show
 * charged). A waived charge exports as nothing deducted. `amount` is the deduction as a number in
 * `unit` (次 or 元), so that a spreadsheet can add it up.
 */
export async function exportRows(
  db: Executor,
  storeId: number,
  where: ExportScope,
  now: string,
): Promise<SessionExportRow[]> {
  const [bookings, pendings] = await Promise.all([
    exportBookings(db, storeId, where, now),
    exportPendings(db, storeId, where),
  ]);
  type Source = (typeof bookings)[number] | (typeof pendings)[number];
  const row = (r: Source, card: string, bigType: number, used: number, state: string): SessionExportRow => ({
    courseTime: `${r.startTime.slice(0, 16)}-${r.endTime.slice(11, 16)}`,
    teacher: r.teacher,
    member: r.member,
    card,
    usedCount: used,
    bigType,
    deduction: amountText(bigType, used),
    amount: bigType === BIG_TYPE_COUNT ? used : used / 100,
    unit: bigType === BIG_TYPE_COUNT ? '次' : '元',
    mobile: r.mobile,
    courseName: r.courseName,
    area: r.area ?? null,
    studentCount: r.studentCount,
    remark: r.remark,
    state,
  });
  const pendingRow = (r: (typeof pendings)[number]) =>
    r.status === PendingStatus.NO_SHOW
      ? row(r, r.card ?? '', r.bigType ?? BIG_TYPE_COUNT, r.waivedTime ? 0 : Number(r.noShowFee ?? 0), '爽约')
      : row(r, r.chosenCard ?? '', r.chosenBigType ?? BIG_TYPE_COUNT, 0, '已预约');
  // By session time, then session; in a session the bookings (by id) before the pendings (by id).
  const all = [
    ...bookings.map((r) => ({
      r,
      order: 0,
      row: row(r, r.card, r.bigType, r.waivedTime ? 0 : Number(r.usedCount), exportState(r)),
    })),
    ...pendings.map((r) => ({ r, order: 1, row: pendingRow(r) })),
  ];
  return all
    .sort(
      (a, b) =>
        a.r.startTime.localeCompare(b.r.startTime) ||
        a.r.sessionId - b.r.sessionId ||
        a.order - b.order ||
        a.r.id - b.r.id,
    )
    .map((x) => x.row);
}

/** The export rows of one session. */
export async function sessionExport(
  db: Db,
  storeId: number,
  id: number,
  timezone: string,
): Promise<SessionExportRow[]> {
  await liveSession(db, storeId, id);
  return exportRows(db, storeId, { sessionId: id }, localDateTime(timezone));
}
