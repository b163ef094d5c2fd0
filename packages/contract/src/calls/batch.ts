// Batch scheduling, weekly template, drop-in students, copy, batch delete and batch export calls.
import { z } from 'zod';
import { zSessionExportRow } from './timetable.ts';
import { zDate, zEmpty, zFlag, zId, zOptId, zTime } from '../common.ts';
import {
  BATCH_DELETE_MAX_DAYS,
  COPY_MAX_DAYS,
  MAX_COUNT,
  MAX_FIX_ROWS,
  MAX_FIX_STUDENTS,
  MAX_LIST_IDS,
  MAX_RANGE_DAYS,
  WEEK_ARRANGE_MAX,
  WEEK_ARRANGE_MIN,
} from '../constants.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { Msg, WEEKDAY_NAMES } from '../messages.ts';

const DAY_MS = 86_400_000;
/** Most sessions one batch scheduling (or one drop-in request) may make. */
export const ARRANGE_TIMES_MAX = 500;

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function dayDiff(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** 0 = Sunday ... 6 = Saturday of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

const isDate = (s: unknown): s is string => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s);

/** A whole number with one message for missing, not a number, below `min` or above `max`. */
const zInt = (error: string, min: number, max: number, maxError?: string) =>
  z
    .number({ error })
    .int({ error })
    .min(min, { error })
    .max(max, maxError ? { error: maxError } : undefined);

const zWeekday = () => zInt(Msg.chooseWeekday, 0, 6);

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 2_147_483_647;

/** Ask for the preview instead of the change (nothing is written). */
export const zDryRun = () => z.boolean({ error: '预览参数应为 true 或 false' }).optional();

/** Student rows whose card is missing answer 请完成选择学生N的会员卡信息 for the first such row. */
function checkStudentCards(cards: readonly unknown[], ctx: z.RefinementCtx, path: string) {
  const i = cards.findIndex((c) => !isId(c));
  if (i >= 0) ctx.addIssue({ code: 'custom', path: [path, i], message: Msg.completeStudent(i + 1) });
}

/** An inclusive date range; the two ends come in the given order. */
export function checkRange(
  ctx: z.RefinementCtx,
  from: unknown,
  to: unknown,
  path: string,
  maxDays?: number,
  maxMsg?: string,
) {
  if (!isDate(from) || !isDate(to)) return;
  const days = dayDiff(from, to) + 1;
  if (days < 1) ctx.addIssue({ code: 'custom', path: [path], message: Msg.rangeOrder });
  else if (maxDays !== undefined && days > maxDays) ctx.addIssue({ code: 'custom', path: [path], message: maxMsg });
}

// ---- batch scheduling -------------------------------------------------------------------

export const zCourseTime = z.object({
  weekday: zWeekday(),
  /** `HH:mm`; empty or missing means the weekday is ticked without a time. */
  arrangeTime: z.string().nullish(),
});

export const zBatchArrangeCourseReq = z
  .object({
    cid: zId(Msg.chooseCourse),
    areaId: zOptId(),
    students: zInt(Msg.studentsNotZero, 1, MAX_COUNT),
    tid: zId(Msg.chooseTeacher),
    startDate: zDate(Msg.chooseStartDate),
    courseTimes: z.array(zCourseTime, { error: Msg.chooseWeekdays }).min(1, { error: Msg.chooseWeekdays }).max(14),
    arrangeTimes: zInt(Msg.arrangeTimes, 1, ARRANGE_TIMES_MAX, Msg.arrangeTimesMax),
    mcIds: z
      .array(z.unknown())
      .max(MAX_LIST_IDS)
      .default([])
      .superRefine((ids, ctx) => checkStudentCards(ids, ctx, 'mcIds'))
      .transform((ids) => ids as number[]),
    /** Absent: the store's 新课程默认在线教室 (module 1). */
    isOnline: zFlag().optional(),
    dryRun: zDryRun(),
  })
  .superRefine((v, ctx) => {
    for (const t of v.courseTimes ?? []) {
      if (!t.arrangeTime) {
        ctx.addIssue({ code: 'custom', path: ['courseTimes'], message: Msg.weekdayTime(WEEKDAY_NAMES[t.weekday]) });
        return;
      }
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(t.arrangeTime)) {
        ctx.addIssue({ code: 'custom', path: ['courseTimes'], message: '时间格式应为 HH:mm' });
        return;
      }
    }
    if (Array.isArray(v.mcIds) && typeof v.students === 'number' && v.mcIds.length > v.students) {
      ctx.addIssue({ code: 'custom', path: ['mcIds'], message: Msg.studentsCap });
    }
  });
/**
 * What a bulk change would do, computed by running it in a transaction that is rolled back
 * (`dryRun: true` on the same call): the same code as the act, so the preview cannot drift from it.
 */
/** Most sessions a bulk preview lists one by one; the others are counted (`moreSessions`). */
export const PREVIEW_SESSIONS_MAX = 50;

/** A session a bulk change would create, delete or book into, as its preview lists it. */
export const zPreviewSession = z.object({
  /** `YYYY-MM-DD` (store time). */
  date: z.string(),
  /** `HH:mm`. */
  startTime: z.string(),
  endTime: z.string(),
  courseName: z.string(),
  teacherName: z.string(),
  /** The room or venue, or null. */
  areaName: z.string().nullable(),
});
export type PreviewSession = z.infer<typeof zPreviewSession>;

export const zBulkPreview = z.object({
  /** Bookings it would make (with a card, or pendings) and cancel. */
  booked: z.number().int(),
  cancelled: z.number().int(),
  /** Members whose bookings it would make or cancel. */
  members: z.number().int(),
  /** What it would deduct and refund, per card kind (bigType 1 count, 2 fen). */
  charged: z.array(z.object({ bigType: z.number().int(), amount: z.number() })),
  refunded: z.array(z.object({ bigType: z.number().int(), amount: z.number() })),
  /** Members refunded. */
  refundedMembers: z.number().int(),
  /** Refused: the message the act would answer (e.g. a teacher or room clash), and the clashing dates. */
  refusal: z.string().nullable(),
  clashes: z.array(z.string()),
  /**
   * The sessions it would create (batch scheduling, template run, copy) or delete (batch delete), or,
   * when it makes or removes none, those it books into (drop-in): by time, at most
   * PREVIEW_SESSIONS_MAX; `moreSessions` counts the others.
   */
  sessions: z.array(zPreviewSession),
  moreSessions: z.number().int(),
});
export type BulkPreview = z.infer<typeof zBulkPreview>;

/** `count`: sessions created or deleted, or bookings made; `preview` on a dry run. */
export const zCountAnswer = z.object({ count: z.number().int(), preview: zBulkPreview.optional() });

export const batchArrangeCourse = defineCall({
  path: `${STORE_API}/batch/arrange/course`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zBatchArrangeCourseReq,
  res: zCountAnswer.extend({ ids: z.array(z.number().int()) }),
  idFields: ['cid', 'areaId', 'tid', 'mcIds'],
  summary: '批量排课：按每周规律排若干节课，可带固定学员',
  example: {
    cid: 1,
    tid: 1,
    areaId: 1,
    students: 20,
    startDate: '2026-03-02',
    courseTimes: [
      { weekday: 1, arrangeTime: '09:00' },
      { weekday: 3, arrangeTime: '19:00' },
    ],
    arrangeTimes: 8,
    mcIds: [1],
    isOnline: 0,
  },
  errors: [
    ...fails.badRequest(
      Msg.weekdayTime('{星期}'),
      '时间格式应为 HH:mm',
      Msg.studentsCap,
      Msg.completeStudent(1).replace('1', '{n}'),
    ),
    ...fails.notFound('课程', '老师', '场地', '会员卡'),
    ...fails.conflict(
      Msg.sameMemberTwice('{会员}'),
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.arrangeFailed('{时间}', '{会员}', '{原因}'),
      Msg.memberReason('{会员}', Msg.cardBalance),
    ),
  ],
});

// ---- weekly template (the /course/fix_booking_timetable editor) -------------------------

export const zFixStudentReq = z.object({
  /** Checked (with the row's number in the message) by the list below. */
  mcId: z.unknown().optional(),
  studentCount: zInt(Msg.studentCountMin1, 1, MAX_COUNT),
});

const fixRowFields = {
  weekday: zWeekday(),
  time: zTime(Msg.chooseTime),
  courseId: zId(Msg.chooseCourse),
  teacherId: zId(Msg.chooseTeacher),
  areaId: zOptId(),
  reservableCount: zInt(Msg.countNotNegative, 0, MAX_COUNT),
  bookId: zOptId(),
  students: z
    .array(zFixStudentReq)
    .max(MAX_FIX_STUDENTS, { error: Msg.fixStudentsMax(MAX_FIX_STUDENTS) })
    .default([])
    .superRefine((list, ctx) =>
      checkStudentCards(
        list.map((x) => x.mcId),
        ctx,
        'students',
      ),
    )
    .transform((list) => list as { mcId: number; studentCount: number }[]),
};

function checkFixStudents(
  v: { reservableCount?: number; students?: { studentCount?: number }[] },
  ctx: z.RefinementCtx,
) {
  const seats = (v.students ?? []).reduce((s, x) => s + (x.studentCount ?? 0), 0);
  if (typeof v.reservableCount === 'number' && seats > v.reservableCount) {
    ctx.addIssue({ code: 'custom', path: ['students'], message: Msg.studentsCap });
  }
}

export const zFixTimetableReq = z.object(fixRowFields).superRefine(checkFixStudents);
export const zFixTimetableUpdateReq = z.object({ id: zId(), ...fixRowFields }).superRefine(checkFixStudents);

export const zFixStudent = z.object({
  id: z.number().int(),
  mcId: z.number().int(),
  memberId: z.number().int(),
  memberName: z.string(),
  cardName: z.string(),
  studentCount: z.number().int(),
});
export const zFixTimetableRow = z.object({
  id: z.number().int(),
  weekday: z.number().int(),
  time: z.string(),
  courseId: z.number().int(),
  courseName: z.string(),
  teacherId: z.number().int(),
  teacherName: z.string(),
  areaId: z.number().int().nullable(),
  areaName: z.string().nullable(),
  reservableCount: z.number().int(),
  bookId: z.number().int().nullable(),
  students: z.array(zFixStudent),
});
export type FixTimetableRow = z.infer<typeof zFixTimetableRow>;

const fixRowExample = {
  weekday: 1,
  time: '09:00',
  courseId: 1,
  teacherId: 1,
  areaId: 1,
  reservableCount: 20,
  bookId: null,
  students: [{ mcId: 1, studentCount: 1 }],
};
const fixRowErrors = [
  ...fails.badRequest(Msg.studentsCap, Msg.completeStudent(1).replace('1', '{n}')),
  ...fails.notFound('课程', '老师', '场地', '教材', '会员卡'),
  ...fails.conflict(Msg.sameMemberTwice('{会员}'), Msg.fixStudentUnusable(1, '{会员}', '{原因}').replace('1', '{n}')),
];

export const queryFixTimetableList = defineCall({
  path: `${STORE_API}/query/fix/timetable/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: z.array(zFixTimetableRow),
  summary: '周课表（固定预约）的全部行及其固定学员',
  example: {},
});
export const insertFixTimetable = defineCall({
  path: `${STORE_API}/insert/fix/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zFixTimetableReq,
  res: z.object({ id: z.number().int() }),
  idFields: ['courseId', 'teacherId', 'areaId', 'bookId', 'students.mcId'],
  summary: '新增周课表的一行',
  example: fixRowExample,
  errors: [...fixRowErrors, ...fails.badRequest(Msg.fixRowsMax(MAX_FIX_ROWS))],
});
export const updateFixTimetable = defineCall({
  path: `${STORE_API}/update/fix/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zFixTimetableUpdateReq,
  res: z.null(),
  idFields: ['id', 'courseId', 'teacherId', 'areaId', 'bookId', 'students.mcId'],
  summary: '修改周课表的一行',
  example: { id: 1, ...fixRowExample, students: [] },
  errors: [...fixRowErrors, ...fails.notFound('周课表')],
});
export const deleteFixTimetable = defineCall({
  path: `${STORE_API}/delete/fix/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除周课表的一行',
  example: { id: 1 },
  errors: fails.notFound('周课表'),
});

/** Messages of building the weekly template from a week of the timetable (从课表生成). */
export const TemplateMsg = {
  chooseWeek: '请选择要生成周课表的一周',
  weekEmpty: '所选的一周没有课程，无法生成周课表，请选择有课程的一周',
} as const;

/** One row 从课表生成 would make: a class of the week as a weekly template row (no fixed students). */
export const zWeekTemplateRow = z.object({
  /** JavaScript weekday (0 = Sunday). */
  weekday: z.number().int(),
  /** `HH:mm`. */
  time: z.string(),
  courseId: z.number().int(),
  courseName: z.string(),
  teacherId: z.number().int(),
  teacherName: z.string(),
  areaId: z.number().int().nullable(),
  areaName: z.string().nullable(),
  reservableCount: z.number().int(),
  bookId: z.number().int().nullable(),
});
export type WeekTemplateRow = z.infer<typeof zWeekTemplateRow>;

export const zFixTimetableFromWeekReq = z.object({
  /** The Monday of the week whose classes become the template rows. */
  fromDate: zDate(TemplateMsg.chooseWeek).refine((d) => weekdayOf(d) === 1, { error: TemplateMsg.chooseWeek }),
  /** replace: the current rows (and their fixed students) go; add: the week's rows join them (a row already there is not added twice). */
  mode: z.enum(['replace', 'add'], { error: '生成方式只能是 replace（替换）或 add（添加）' }).default('replace'),
  dryRun: zDryRun(),
});
export const insertFixTimetableFromWeek = defineCall({
  path: `${STORE_API}/insert/fix/timetable/from/week`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zFixTimetableFromWeekReq,
  res: z.object({
    /** Rows made (a dry run: rows it would make in this mode). */
    count: z.number().int(),
    /** The rows made (or, on a dry run, that it would make), Monday first then by time. */
    rows: z.array(zWeekTemplateRow),
    /** The template's rows before, and their fixed students (what replace removes). */
    existing: z.number().int(),
    existingStudents: z.number().int(),
    /** Rows of the week the template already has (add skips them). */
    duplicates: z.number().int(),
  }),
  summary: '从课表生成周课表：把一周的课作为周课表的行（替换或添加到现有行；可先预览）',
  example: { fromDate: '2026-03-02', mode: 'replace', dryRun: true },
  errors: [
    ...fails.badRequest(TemplateMsg.chooseWeek, TemplateMsg.weekEmpty, Msg.fixRowsMax(MAX_FIX_ROWS)),
    ...fails.notFound('课程', '老师', '场地', '教材'),
  ],
});

export const zBatchArrangeWeekReq = z.object({
  fromDate: zDate(Msg.weekStartMonday).refine((d) => weekdayOf(d) === 1, { error: Msg.weekStartMonday }),
  arrangeWeeks: zInt(Msg.weeksMin1, WEEK_ARRANGE_MIN, WEEK_ARRANGE_MAX, Msg.weeksMax200),
  dryRun: zDryRun(),
});
export const batchArrangeWeekCourse = defineCall({
  path: `${STORE_API}/batch/arrange/week/course`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zBatchArrangeWeekReq,
  res: zCountAnswer,
  summary: '按周课表排课若干周（含固定学员预约）',
  example: { fromDate: '2026-03-02', arrangeWeeks: 4 },
  errors: [
    // The template caps, checked again at the run (rows stored before the caps).
    ...fails.badRequest(Msg.templateEmpty, Msg.fixRowsMax(MAX_FIX_ROWS), Msg.fixStudentsMax(MAX_FIX_STUDENTS)),
    ...fails.notFound('课程', '老师', '场地', '教材', '会员卡'),
    ...fails.conflict(
      Msg.duplicateOp,
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.weekArrangeFailed(1, '{日期}', '{会员}', '{原因}').replace('1', '{n}'),
      Msg.memberReason('{会员}', Msg.cardBalance),
    ),
  ],
});

// ---- drop-in fixed students ---------------------------------------------------------------

export const zTeacherBrief = z.object({ id: z.number().int(), name: z.string() });
const zTids = () =>
  z
    .array(zId(Msg.chooseTeachers), { error: Msg.chooseTeachers })
    .min(1, { error: Msg.chooseTeachers })
    .max(MAX_LIST_IDS);

export const queryHasArrangeCourseTeachers = defineCall({
  path: `${STORE_API}/query/has/arrange/course/teachers`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ cid: zId(Msg.chooseCourse), startDate: zDate(Msg.chooseStartDate) }),
  res: z.array(zTeacherBrief),
  idFields: ['cid'],
  summary: '安插学员：开课日期起有该课程的老师',
  example: { cid: 1, startDate: '2026-03-02' },
  errors: fails.notFound('课程'),
});
export const queryHasArrangeCourseCount = defineCall({
  path: `${STORE_API}/query/has/arrange/course/count`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ cid: zId(Msg.chooseCourse), startDate: zDate(Msg.chooseStartDate), tids: zTids() }),
  res: z.number().int(),
  idFields: ['cid', 'tids'],
  summary: '安插学员：开课日期起这些老师的该课程节数',
  example: { cid: 1, startDate: '2026-03-02', tids: [1] },
  errors: fails.notFound('课程', '老师'),
});
export const zBatchAddMemberReservationReq = z.object({
  mcId: zId(Msg.fillAll),
  cid: zId(Msg.chooseCourse),
  tids: zTids(),
  startDate: zDate(Msg.chooseStartDate),
  times: zInt(Msg.timesNotZero, 1, ARRANGE_TIMES_MAX, Msg.timesMax),
  dryRun: zDryRun(),
});
export const batchAddMemberReservation = defineCall({
  path: `${STORE_API}/batch/add/member/reservation`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zBatchAddMemberReservationReq,
  res: zCountAnswer,
  idFields: ['mcId', 'cid', 'tids'],
  summary: '安插固定上课学员：把一张会员卡约进之后的若干节课',
  example: { mcId: 1, cid: 1, tids: [1], startDate: '2026-03-02', times: 4 },
  errors: [
    ...fails.notFound('课程', '老师', '会员卡'),
    ...fails.conflict(Msg.fewerSessions(0).replace('0', '{n}'), Msg.arrangeFailed('{时间}', '{会员}', '{原因}')),
  ],
});

// ---- copy, batch delete, batch export -------------------------------------------------------

export const zCopyTimetableReq = z
  .object({
    formerFromDate: zDate(Msg.chooseDates),
    formerToDate: zDate(Msg.chooseDates),
    afterFromDate: zDate(Msg.chooseDates),
    afterToDate: zDate(Msg.chooseDates),
    isCopyPending: zFlag().default(0),
    areaId: zOptId(),
    dryRun: zDryRun(),
  })
  .superRefine((v, ctx) => {
    checkRange(ctx, v.formerFromDate, v.formerToDate, 'formerToDate', COPY_MAX_DAYS, Msg.copyMax7);
    checkRange(ctx, v.afterFromDate, v.afterToDate, 'afterToDate', COPY_MAX_DAYS, Msg.copyMax7);
    const all = [v.formerFromDate, v.formerToDate, v.afterFromDate, v.afterToDate];
    if (all.every(isDate) && dayDiff(v.formerFromDate, v.formerToDate) !== dayDiff(v.afterFromDate, v.afterToDate)) {
      ctx.addIssue({ code: 'custom', path: ['afterToDate'], message: Msg.copyDaysDiffer });
    }
  });
export const copyTimetable = defineCall({
  path: `${STORE_API}/copy/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zCopyTimetableReq,
  res: zCountAnswer,
  idFields: ['areaId'],
  summary: '复制课程：把一段日期的课复制到另一段（最多7天，可带待签到预约）',
  example: {
    formerFromDate: '2026-03-02',
    formerToDate: '2026-03-08',
    afterFromDate: '2026-03-09',
    afterToDate: '2026-03-15',
    isCopyPending: 0,
    areaId: null,
  },
  errors: [
    ...fails.badRequest(Msg.rangeOrder, Msg.copyMax7, Msg.copyDaysDiffer),
    ...fails.notFound('场地', '课程', '老师', '教材'),
    ...fails.conflict(
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.arrangeFailed('{时间}', '{会员}', '{原因}'),
    ),
  ],
});

export const zBatchCancelReq = z
  .object({ fromDate: zDate(Msg.chooseDates), toDate: zDate(Msg.chooseDates), areaId: zOptId(), dryRun: zDryRun() })
  .superRefine((v, ctx) =>
    checkRange(ctx, v.fromDate, v.toDate, 'toDate', BATCH_DELETE_MAX_DAYS, Msg.batchDeleteRangeMax),
  );
export const batchCancelTimetable = defineCall({
  path: `${STORE_API}/batch/cancel/timetable`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zBatchCancelReq,
  res: zCountAnswer,
  idFields: ['areaId'],
  summary: `批量删除日期范围内的课程（取消预约并退回；最多${BATCH_DELETE_MAX_DAYS}天）`,
  example: { fromDate: '2026-03-02', toDate: '2026-03-08', areaId: null },
  errors: [...fails.badRequest(Msg.rangeOrder, Msg.batchDeleteRangeMax), ...fails.notFound('场地')],
});

/** One booking of the range export: the same row as a session's export (the spec's nine columns). */
export const zBatchExportRow = zSessionExportRow;
export type BatchExportRow = z.infer<typeof zBatchExportRow>;

export const zBatchExportReq = z
  .object({ fromDate: zDate(Msg.submitChooseDates), toDate: zDate(Msg.submitChooseDates) })
  .superRefine((v, ctx) => checkRange(ctx, v.fromDate, v.toDate, 'toDate', MAX_RANGE_DAYS, Msg.exportRangeMax));
export const batchExportReservation = defineCall({
  path: `${STORE_API}/batch/export/reservation`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zBatchExportReq,
  res: z.array(zBatchExportRow),
  summary: '导出日期范围内的全部预约（最多62天）',
  example: { fromDate: '2026-03-01', toDate: '2026-03-31' },
  errors: fails.badRequest(Msg.rangeOrder, Msg.exportRangeMax),
});

export const batchCalls = [
  batchArrangeCourse,
  queryFixTimetableList,
  insertFixTimetable,
  updateFixTimetable,
  deleteFixTimetable,
  insertFixTimetableFromWeek,
  batchArrangeWeekCourse,
  queryHasArrangeCourseTeachers,
  queryHasArrangeCourseCount,
  batchAddMemberReservation,
  copyTimetable,
  batchCancelTimetable,
  batchExportReservation,
] as const;
