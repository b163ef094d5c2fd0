// The desk's 今日 screen: one day's classes with their rosters (server: features/today).
import { z } from 'zod';
import { zDate } from '../common.ts';
import { defineCall, STORE_API, Roles } from '../define.ts';
import { zLessonMark } from './lessons.ts';

/** One person (or party) on a class's roster: a booking, or a pending waiting for sign-in (mode 1). */
export const zRosterEntry = z.object({
  kind: z.enum(['booking', 'pending']),
  /** Reservation id (booking) or pending id. */
  id: z.number(),
  memberId: z.number(),
  memberName: z.string(),
  mobile: z.string(),
  /** The card that paid (booking); null for a pending (chosen at sign-in). */
  mcId: z.number().nullable(),
  cardName: z.string().nullable(),
  studentCount: z.number(),
  /**
   * booked; attended (预约即扣费: the booking marked 到店, by the desk, the teacher or the member's
   * scan); signed (a pending signed in); waiting (a pending not signed in yet).
   */
  state: z.enum(['booked', 'attended', 'signed', 'waiting']),
  remark: z.string().nullable(),
});
export type RosterEntry = z.infer<typeof zRosterEntry>;

export const zTodaySession = z.object({
  id: z.number(),
  courseId: z.number(),
  courseName: z.string(),
  color: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  teacherName: z.string(),
  areaName: z.string().nullable(),
  reservableCount: z.number(),
  realCount: z.number(),
  isOnline: z.number(),
  /** now: started and not ended; ended; upcoming. */
  phase: z.enum(['upcoming', 'now', 'ended']),
  /** A lesson (私教/小班): its kind and 待确认; null for a group class. */
  lesson: zLessonMark,
  roster: z.array(zRosterEntry),
});
export type TodaySession = z.infer<typeof zTodaySession>;

export const queryToday = defineCall({
  path: `${STORE_API}/query/today`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ date: zDate().nullish() }),
  res: z.object({
    date: z.string(),
    now: z.string(),
    /** Store module 6: 0 deducts at booking, 1 at sign-in. */
    deductionMode: z.number(),
    /** The store's texts of today reached its daily cap (短信服务): members get no login code by text. */
    smsCapReached: z.boolean(),
    /** 店长: online orders paid but not fulfilled (异常订单) waiting for their 原路退款; 0 for others. */
    exceptionOrders: z.number(),
    sessions: z.array(zTodaySession),
  }),
  summary: '今日：当天（默认今天）每节课的人数和名单（预约、待签到、已签到）',
  example: { date: '2026-11-24' },
});

export const todayCalls = [queryToday];
