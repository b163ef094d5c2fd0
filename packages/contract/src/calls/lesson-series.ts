// 私教 and 小班 (issue 43, item 5): fixed weekly lessons (固定时段). A series books the same lesson
// (type, teacher, members and cards, weekday and time) every week for some weeks: the preview marks
// each date that cannot be booked and why, the commit books the dates chosen from it in one bulk
// change, undone like the others (操作日志, 撤销). Server: features/lessons/series.ts.
import { z } from 'zod';
import { zDate, zId, zTime } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { Msg } from '../messages.ts';
import { zBulkPreview, zDryRun } from './batch.ts';
import { LESSON_REFUSALS, LessonBookingMsg, zLessonMembers } from './lesson-booking.ts';

/** A series runs at most this many weeks (a year). */
export const LESSON_SERIES_MAX_WEEKS = 52;

export const LessonSeriesMsg = {
  weeks: `请填写1至${LESSON_SERIES_MAX_WEEKS}周`,
  chooseCard: '请选择会员卡',
  /** The teacher does not work then (their hours, a day or span off). */
  teacherAway: '老师该时间不上班或休息',
  notInSeries: (date: string) => `${date} 不在这个固定时段内`,
  noDates: '没有可预约的日期',
  /** A chosen date can no longer be booked: nothing is booked. */
  dateFailed: (date: string, reason: string) => `${date}：${reason}`,
} as const;

export const zLessonSeriesReq = z.object({
  courseId: zId(Msg.chooseCourse),
  teacherId: zId(Msg.chooseTeacher),
  /** The first lesson's date; the series repeats on its weekday. */
  startDate: zDate(Msg.chooseDate),
  time: zTime(Msg.chooseTime),
  weeks: z
    .number({ error: LessonSeriesMsg.weeks })
    .int({ error: LessonSeriesMsg.weeks })
    .min(1, { error: LessonSeriesMsg.weeks })
    .max(LESSON_SERIES_MAX_WEEKS, { error: LessonSeriesMsg.weeks }),
  /** A room of the type's; none: the first of its rooms free each week. */
  venueId: zId('请选择场地').nullish(),
  members: zLessonMembers,
  /** The commit: the dates to book (the preview's bookable ones); all or nothing. None: every date of the series. */
  dates: z.array(zDate('请选择日期')).max(LESSON_SERIES_MAX_WEEKS).optional(),
  dryRun: zDryRun(),
});

/** One date of the series: its start and, when it cannot be booked, why (null: bookable, or booked). */
export const zLessonSeriesDate = z.object({
  date: z.string(),
  time: z.string(),
  reason: z.string().nullable(),
});
export type LessonSeriesDate = z.infer<typeof zLessonSeriesDate>;

/** Books a fixed weekly lesson: previewed with `dryRun` (each date marked), then committed. */
export const bookLessonSeries = defineCall({
  path: `${STORE_API}/batch/add/lesson/series`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zLessonSeriesReq,
  res: z.object({
    /** Lessons booked (a dry run: those it would book). */
    count: z.number().int(),
    dates: z.array(zLessonSeriesDate),
    preview: zBulkPreview.optional(),
  }),
  idFields: ['courseId', 'teacherId', 'venueId'],
  summary: '固定时段私教：每周同一时间连续预约若干周（先预览每个日期能否预约及原因，再一次预约，可撤销）',
  example: {
    courseId: 1,
    teacherId: 1,
    startDate: '2099-01-06',
    time: '19:00',
    weeks: 4,
    members: [{ mid: 1, mcId: 1 }],
    dryRun: true,
  },
  errors: [
    ...fails.badRequest(
      LessonSeriesMsg.weeks,
      LessonBookingMsg.members('{N}'),
      LessonBookingMsg.sameMember,
      LessonSeriesMsg.notInSeries('{日期}'),
    ),
    ...fails.notFound('课程', '老师', '场地', '会员', '会员卡'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      LessonSeriesMsg.noDates,
      LessonSeriesMsg.dateFailed('{日期}', '{原因}'),
      LessonSeriesMsg.teacherAway,
      ...LESSON_REFUSALS,
      Msg.duplicateOp,
    ),
  ],
});

export const lessonSeriesCalls = [bookLessonSeries] as const;
