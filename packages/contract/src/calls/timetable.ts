// Schedule and booking engine calls (spec section 7; design/api-paths.md).
import { z } from 'zod';
import { zDate, zId, zLimitFields, zOptId, zPage, zPaged, zText, zTime } from '../common.ts';
import { ATTENDANCE_EDIT_DAYS, MAX_COUNT } from '../constants.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { CARD_RULE_MSGS, MEMBER_RULE_MSGS, Msg } from '../messages.ts';
import { zLessonMark } from './lessons.ts';
import { TeacherPayMsg } from './teacher-pay.ts';

/** Messages of the booking engine that neither the spec nor Msg words. */
export const TimetableMsg = {
  endBeforeStart: '下课时间必须晚于上课时间',
  rangeTooLong: '查询的日期范围最多62天',
  rangeOrder: '开始日期不能晚于结束日期',
  useSignInBooking: '当前门店为签到后扣费模式，请添加待签到预约',
  usePlainBooking: '当前门店为预约即扣费模式，请直接使用会员卡预约',
  /** Cancelling a booking of a session that has ended: only with confirmEnded. */
  endedCancel: (end: string, refund: string) => `该课程已于${end}结束，取消将退回${refund}，请确认后再取消`,
  /** Deleting a session that has ended with live bookings: only with confirmEnded. */
  endedDelete: (end: string, bookings: number | string, refund: string) =>
    `该课程已于${end}结束，删除将取消${bookings}个预约${refund ? `并退回${refund}` : ''}，请确认后再删除`,
  /** A member cancelling online after the class started. */
  startedNoCancel: '课程已开始，不能在线取消，请联系前台',
} as const;

const zRemark = () =>
  zText()
    .nullish()
    .transform((v) => (v ? v : null));
export const zStudentCount = () => z.number({ error: Msg.fillAll }).int(Msg.fillAll).min(1, Msg.fillAll).max(MAX_COUNT);

export const insertTimetable = defineCall({
  path: `${STORE_API}/insert/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    courseId: zId(Msg.fillAll),
    teacherId: zId(Msg.chooseTeacher),
    reservableCount: z
      .number({ error: Msg.fillAll })
      .int(Msg.fillAll)
      .min(0, Msg.countNotNegative)
      .max(MAX_COUNT)
      .nullish(),
    date: zDate(Msg.chooseDate),
    time: zTime(Msg.chooseTime),
    storeId: z.number().int().nullish(),
    isOnline: z.union([z.literal(0), z.literal(1)]).nullish(),
    areaId: zOptId(),
    bookId: zOptId(),
  }),
  res: z.null(),
  idFields: ['courseId', 'teacherId', 'areaId', 'bookId'],
  summary: '新增一节课',
  example: {
    courseId: 1,
    teacherId: 1,
    date: '2026-03-02',
    time: '09:00',
    reservableCount: 20,
    areaId: 1,
    bookId: null,
    isOnline: 0,
  },
  errors: [
    ...fails.badRequest(TimetableMsg.endBeforeStart),
    ...fails.notFound('课程', '老师', '场地', '教材'),
    ...fails.conflict(Msg.teacherConflict('{时间}'), Msg.roomConflict('{场地}', '{时间}')),
  ],
});

export const updateTimetable = defineCall({
  path: `${STORE_API}/update/timetable/reservable/count`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    id: zId(Msg.submitFailed),
    teacherId: zId(Msg.chooseTeacher),
    date: zDate(Msg.chooseDate),
    time: zTime(Msg.chooseTime),
    count: z.number({ error: Msg.countNotNegative }).int(Msg.submitFailed).min(0, Msg.countNotNegative).max(MAX_COUNT),
    areaId: zOptId(),
    bookId: zOptId(),
  }),
  res: z.null(),
  idFields: ['id', 'teacherId', 'areaId', 'bookId'],
  summary: '修改课时：老师、时间、人数、场地、教材',
  example: { id: 1, teacherId: 1, date: '2026-03-02', time: '10:00', count: 20, areaId: 1, bookId: null },
  errors: [
    ...fails.notFound('课程', '老师', '场地', '教材'),
    ...fails.conflict(Msg.teacherConflict('{时间}'), Msg.roomConflict('{场地}', '{时间}'), Msg.capacityBelowBooked),
    // 课时费: a closed month's classes keep their teacher and time (features/teacher-pay).
    ...fails.conflict(TeacherPayMsg.sessionInClosedMonth('{月份}')),
  ],
});

export const cancelTimetable = defineCall({
  path: `${STORE_API}/cancel/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    id: zId(),
    /** The session has ended and still has bookings: the staff confirmed deleting (and refunding) anyway. */
    confirmEnded: z.boolean().optional(),
  }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除一节课（取消全部预约并退回已扣次数；已结束的课程须确认）',
  example: { id: 1 },
  errors: [
    ...fails.notFound('课程'),
    // Whether anything deducted is refunded (bookings of money or count cards) or not (pendings only).
    ...fails.conflict(
      TimetableMsg.endedDelete('{结束时间}', '{n}', '{退回}'),
      TimetableMsg.endedDelete('{结束时间}', '{n}', ''),
    ),
  ],
});

export const zCalendarItem = z.object({
  id: z.number(),
  fromTime: z.string(),
  toTime: z.string(),
  courseName: z.string(),
  teacherId: z.number(),
  teacherName: z.string(),
  areaName: z.string().nullable(),
  color: z.string(),
  isOnline: z.number(),
  realCount: z.number(),
  reservableCount: z.number(),
  /** Members on the waitlist (候补 N). */
  waitCount: z.number(),
  book: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** A lesson (私教/小班): its kind, 待确认, and its members' names; null for a group class. */
  lesson: zLessonMark
    .unwrap()
    .extend({ members: z.array(z.string()) })
    .nullable(),
});
export type CalendarItem = z.infer<typeof zCalendarItem>;
export const zCalendarDay = z.object({ date: z.string(), list: z.array(zCalendarItem) });
export type CalendarDay = z.infer<typeof zCalendarDay>;

export const queryTimetableByDate = defineCall({
  path: `${STORE_API}/query/timetable/by/date`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({
    fromDate: zDate(Msg.chooseDates),
    toDate: zDate(Msg.chooseDates),
    areaId: zOptId(),
    teacherId: zOptId(),
  }),
  res: z.array(zCalendarDay),
  idFields: ['areaId', 'teacherId'],
  summary: '课程表：日期范围内每天的课程（可按场地、老师筛选）',
  example: { fromDate: '2026-03-02', toDate: '2026-03-08', areaId: null, teacherId: null },
  errors: [...fails.badRequest(TimetableMsg.rangeOrder, TimetableMsg.rangeTooLong), ...fails.notFound('场地', '老师')],
});

const zNamed = z.object({ id: z.number(), name: z.string() });
export const zMaterialTree = zNamed.extend({
  children: z.array(zNamed.extend({ children: z.array(zNamed) })),
});

export const zSessionInfo = z.object({
  id: z.number(),
  courseId: z.number(),
  courseName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  duration: z.number(),
  ...zLimitFields.shape,
  teacherId: z.number(),
  teacherName: z.string(),
  areaId: z.number().nullable(),
  areaName: z.string().nullable(),
  reservableCount: z.number(),
  realCount: z.number(),
  /** Members on the waitlist. */
  waitCount: z.number(),
  cards: z.array(zNamed),
  isOnline: z.number(),
  meetingId: z.string().nullable(),
  meetingInfo: z.record(z.string(), z.unknown()).nullable(),
  bookId: z.number().nullable(),
  book: zMaterialTree.nullable(),
  color: z.string(),
  /** The course is marked 少儿课程: its receipt has a line for a parent's signature (家长签字). */
  forChildren: z.boolean(),
  /** Store module 6 status: 0 deducts at booking, 1 at sign-in. */
  deductionMode: z.number(),
  /**
   * What the store's policy says to a member right now, for the desk's confirms: why a member could
   * not book (the window), and whether a member's cancel would be late. Staff go ahead regardless; the
   * override is recorded in history.
   */
  memberRule: z.object({ booking: z.string().nullable(), lateCancel: z.boolean() }),
  /** The session has ended (store time): no booking or room creation; cancel and delete need a confirm. */
  ended: z.boolean(),
  /**
   * A lesson (私教/小班): its kind, 待确认, its type's cancel cutoff (minutes before the start: later
   * cancels are consumed), its type's most members and why the desk booked it outside the offered
   * slots; null for a group class.
   */
  lesson: zLessonMark
    .unwrap()
    .extend({
      cancelCutoffMinutes: z.number(),
      maxMembers: z.number(),
      outsideReason: z.string().nullable(),
    })
    .nullable(),
});
export type SessionInfo = z.infer<typeof zSessionInfo>;

export const queryTimetableInfo = defineCall({
  path: `${STORE_API}/query/timetable/info`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({ id: zId() }),
  res: zSessionInfo,
  idFields: ['id'],
  summary: '一节课的详情',
  example: { id: 1 },
  errors: fails.notFound('课程'),
});

export const addMemberReservation = defineCall({
  path: `${STORE_API}/add/member/reservation`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mcId: zId(Msg.fillAll),
    tid: zId(Msg.fillAll),
    /** Optional: when given, the card must belong to this member. */
    mid: zId(Msg.chooseMember).nullish(),
    studentCount: zStudentCount().default(1),
    remark: zRemark(),
  }),
  res: z.null(),
  idFields: ['mcId', 'tid', 'mid'],
  summary: '用会员卡预约（预约即扣费模式）',
  example: { tid: 1, mcId: 1, studentCount: 1, remark: '前台代约' },
  errors: [
    ...fails.badRequest(Msg.submitFailed),
    ...fails.notFound('课程', '会员卡', '会员'),
    ...fails.conflict(
      TimetableMsg.useSignInBooking,
      ...CARD_RULE_MSGS,
      Msg.cardCommitted,
      ...MEMBER_RULE_MSGS,
      Msg.sessionFull,
    ),
  ],
});

export const zBookingRow = z.object({
  reservationId: z.number(),
  memberId: z.number(),
  memberName: z.string(),
  memberMobile: z.string(),
  memberCardId: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  studentCount: z.number(),
  usedCount: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
  operator: z.string().nullable(),
  operateType: z.number(),
  status: z.number(),
  /**
   * Deduction mode 0: when the booking was marked attended (已到店: by the desk, the teacher or the
   * member's scan of the store's code), else null.
   */
  attendedTime: z.string().nullable(),
  /**
   * The card as it stands now, after this booking (the receipt prints it): what is left (a count, or
   * fen for money cards), what a class takes (0: a period card, whose balance never shrinks), and
   * its expiry (`YYYY-MM-DD HH:mm:ss`, null: never expires).
   */
  cardLeft: z.number(),
  cardPerCount: z.number(),
  cardExpireTime: z.string().nullable(),
});
export type BookingRow = z.infer<typeof zBookingRow>;

export const queryReservationList = defineCall({
  path: `${STORE_API}/query/timetable/reservation/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'tid', via: 'session' },
  req: z.object({ tid: zId(), page: zPage() }),
  res: zPaged(zBookingRow),
  idFields: ['tid'],
  summary: '一节课的预约列表（每页10条）',
  example: { tid: 1, page: 1 },
  errors: fails.notFound('课程'),
});

export const cancelReservationCall = defineCall({
  path: `${STORE_API}/cancel/reservation`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    id: zId(),
    /** The session has ended: the staff confirmed cancelling (and refunding) anyway. */
    confirmEnded: z.boolean().optional(),
  }),
  res: z.null(),
  idFields: ['id'],
  summary: '取消预约（退回已扣次数；已结束的课程须确认）',
  example: { id: 1 },
  errors: [
    ...fails.notFound('预约'),
    ...fails.conflict(Msg.alreadyCancelled, TimetableMsg.endedCancel('{结束时间}', '{退回}')),
  ],
});

export const zPendingItem = z.object({
  pending: z.object({ id: z.number(), status: z.number(), createTime: z.string(), operator: z.string().nullable() }),
  member: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
  memberId: z.number(),
  /** The card it was signed in with, or while waiting the card chosen when it was made (else null). */
  mcId: z.number().nullable(),
  studentCount: z.number(),
  remark: z.string().nullable(),
});
export type PendingItem = z.infer<typeof zPendingItem>;

export const queryPendingList = defineCall({
  path: `${STORE_API}/query/timetable/pending/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'tid', via: 'session' },
  req: z.object({ tid: zId() }),
  res: z.array(zPendingItem),
  idFields: ['tid'],
  summary: '一节课的待签到预约',
  example: { tid: 1 },
  errors: fails.notFound('课程'),
});

export const addGroupPending = defineCall({
  path: `${STORE_API}/add/member/group/pending`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mid: zId(Msg.chooseMember),
    tid: zId(Msg.fillAll),
    /** The card to charge at sign-in (kept on the pending, prefilled at sign-in). */
    mcId: zOptId(),
    studentCount: zStudentCount().default(1),
    remark: zRemark(),
  }),
  res: z.null(),
  idFields: ['mid', 'tid', 'mcId'],
  summary: '添加待签到预约（签到后扣费模式）：会员须有可用于该课程的会员卡，选定的卡在签到时扣费',
  example: { tid: 1, mid: 1, mcId: 1, studentCount: 1, remark: null },
  errors: [
    ...fails.badRequest(Msg.oneStudentInSignInMode),
    ...fails.notFound('课程', '会员'),
    ...fails.notFound('会员卡'),
    ...fails.conflict(
      TimetableMsg.usePlainBooking,
      ...MEMBER_RULE_MSGS,
      Msg.sessionFull,
      Msg.cardHelp,
      ...CARD_RULE_MSGS,
      Msg.cardCommitted,
    ),
  ],
});

export const cancelPendingCall = defineCall({
  path: `${STORE_API}/cancel/pending`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ pendingId: zId() }),
  res: z.null(),
  idFields: ['pendingId'],
  summary: '取消待签到预约（不扣费）',
  example: { pendingId: 1 },
  errors: [...fails.notFound('预约'), ...fails.conflict(Msg.pendingNotWaiting)],
});

export const signInPendingCall = defineCall({
  path: `${STORE_API}/sign/in/pending`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'pendingId', via: 'pending' },
  req: z.object({ pendingId: zId(), mcId: zId(Msg.fillAll), remark: zRemark() }),
  res: z.null(),
  idFields: ['pendingId', 'mcId'],
  summary: '签到待签到预约并用会员卡扣费',
  example: { pendingId: 1, mcId: 1, remark: null },
  errors: [...fails.notFound('预约', '会员卡'), ...fails.conflict(Msg.pendingNotWaiting, ...CARD_RULE_MSGS)],
});

/** Refusals of marking who came (到店 / 撤销到店). */
export const AttendanceMsg = {
  attended: '请选择到店或撤销到店',
  cancelled: '该预约已取消，不能记到店',
  /** A class ended more than ATTENDANCE_EDIT_DAYS days ago, for a role other than the manager. */
  tooOld: (days: number | string) => `课程结束已超过${days}天，到店记录只能由店长修改`,
  /** Undoing the attendance of a pending signed in (签到后扣费): the sign-in charged the card. */
  signedIn: '该预约已签到扣费，不能撤销到店；如需撤销请取消预约',
} as const;

export const markAttendanceCall = defineCall({
  path: `${STORE_API}/mark/attendance`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'reservationId', via: 'reservation' },
  req: z.object({
    reservationId: zId(),
    /** 1: the member came (到店); 0: undo it (撤销到店). */
    attended: z.union([z.literal(1), z.literal(0)], { error: AttendanceMsg.attended }),
  }),
  res: z.null(),
  idFields: ['reservationId'],
  summary: `记到店或撤销到店（预约即扣费：不扣费，预约时已扣）；已记的再记不变。课程结束超过${ATTENDANCE_EDIT_DAYS}天只有店长可改；已签到的预约本就算到店`,
  example: { reservationId: 1, attended: 1 },
  errors: [
    ...fails.notFound('预约'),
    ...fails.conflict(AttendanceMsg.cancelled, AttendanceMsg.tooOld(ATTENDANCE_EDIT_DAYS), AttendanceMsg.signedIn),
  ],
});

export const zHistoryRow = z.object({
  id: z.number(),
  memberName: z.string(),
  memberMobile: z.string(),
  cardName: z.string().nullable(),
  studentCount: z.number(),
  usedCount: z.number(),
  operateType: z.number(),
  operator: z.string().nullable(),
  createTime: z.string(),
  remark: z.string().nullable(),
  /** A staff action outside the members' booking policy, e.g. 越过预约规则：开课前30分钟停止预约. */
  override: z.string().nullable(),
});
export type HistoryRow = z.infer<typeof zHistoryRow>;

export const queryTimetableHistory = defineCall({
  path: `${STORE_API}/query/timetable/history`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'tid', via: 'session' },
  req: z.object({ tid: zId(), page: zPage() }),
  res: zPaged(zHistoryRow),
  idFields: ['tid'],
  summary: '一节课的预约历史（每页10条）',
  example: { tid: 1, page: 1 },
  errors: fails.notFound('课程'),
});

export const zSessionExportRow = z.object({
  courseTime: z.string(),
  teacher: z.string(),
  member: z.string(),
  card: z.string(),
  /** What was deducted: a count, or fen for money cards (`bigType`). */
  usedCount: z.number(),
  bigType: z.number(),
  /** The same as people read it: `1 次`, `50.00 元`. */
  deduction: z.string(),
  /** The deduction as a number in its unit (`unit`): classes, or yuan (the export's 扣除 column, summable). */
  amount: z.number(),
  /** 次 (count cards) or 元 (money cards): the export's 单位 column. */
  unit: z.string(),
  mobile: z.string(),
  courseName: z.string(),
  /** The session's room or venue, or null (the export's 场地 column). */
  area: z.string().nullable(),
  studentCount: z.number(),
  remark: z.string().nullable(),
  /** 已预约, 已到店, 已签到, 迟到取消 or 爽约 (the export's 状态 column). */
  state: z.string(),
});
export type SessionExportRow = z.infer<typeof zSessionExportRow>;

export const exportTimetableReservation = defineCall({
  path: `${STORE_API}/export/timetable/reservation`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId() }),
  res: z.array(zSessionExportRow),
  idFields: ['id'],
  summary: '导出一节课的预约',
  example: { id: 1 },
  errors: fails.notFound('课程'),
});

export const timetableCalls = [
  insertTimetable,
  updateTimetable,
  cancelTimetable,
  queryTimetableByDate,
  queryTimetableInfo,
  addMemberReservation,
  queryReservationList,
  cancelReservationCall,
  // Before the sign-in mode's calls (a suite walking the list keeps the mode the last one needed).
  markAttendanceCall,
  queryPendingList,
  addGroupPending,
  cancelPendingCall,
  signInPendingCall,
  queryTimetableHistory,
  exportTimetableReservation,
] as const;
