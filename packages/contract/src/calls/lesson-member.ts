// 私教 and 小班 (issue 43) on the members' phone: the lesson types a member can book, the free start
// times of one for a teacher (or 任意老师) on a day, and the member's cards for such a lesson. Booking
// and cancelling are lesson-booking.ts's memberBookLesson and memberCancelLesson.
import { z } from 'zod';
import { zDate, zEmpty, zId } from '../common.ts';
import { defineCall, fails } from '../define.ts';
import { LessonBookingMsg, memberBookLesson } from './lesson-booking.ts';
import { zLessonType, zSlotDays } from './lessons.ts';
import { MEMBER_API, memberCardsForSession } from './member-channel.ts';

/** How many days ahead (today included) a member sees a lesson's free times. */
export const MEMBER_LESSON_DAYS = 14;

export const MemberLessonMsg = {
  days: `只能预约今天起${MEMBER_LESSON_DAYS}天内的课程`,
} as const;

/** A lesson type as members see it: the staff's view without its rooms, machines and switches. */
export const zMemberLessonType = zLessonType.omit({ areas: true, equipment: true, enabled: true, slotStep: true });
export type MemberLessonType = z.infer<typeof zMemberLessonType>;

export const memberLessonTypes = defineCall({
  path: `${MEMBER_API}/query/lesson/types`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.array(zMemberLessonType),
  summary: '会员端：可预约的私教/小班课程（授课老师及级别、价格）',
  example: {},
});

export const memberLessonSlots = defineCall({
  path: `${MEMBER_API}/query/lesson/slots`,
  kind: 'read',
  auth: 'member',
  req: z.object({
    courseId: zId('请选择课程'),
    /** Absent or null: any teacher who gives the type (任意老师). */
    teacherId: zId('请选择老师').nullish(),
    date: zDate('请选择日期'),
  }),
  /** The finder's day (lessonFreeSlots), each teacher's starts without the room. */
  res: z.array(
    zSlotDays.element.shape.teachers.element.extend({
      slots: z.array(z.object({ startTime: z.string(), endTime: z.string() })),
    }),
  ),
  summary: '会员端：私教/小班某天的可约时间（按老师；不选老师时为所有授课老师）',
  example: { courseId: 1, teacherId: 1, date: '2099-01-05' },
  errors: [
    ...fails.badRequest(MemberLessonMsg.days),
    ...fails.notFound('课程', '老师'),
    ...fails.conflict(LessonBookingMsg.notTeacher),
  ],
});

export const memberCardsForLesson = defineCall({
  path: `${MEMBER_API}/query/cards/for/lesson`,
  kind: 'read',
  auth: 'member',
  /** The lesson as booking it names it, without the card. */
  req: memberBookLesson.req.omit({ mcId: true }),
  res: memberCardsForSession.res,
  summary: '会员端：我的会员卡能否用于这节私教/小班课（不能用时说明原因）',
  example: { courseId: 1, teacherId: 1, date: '2099-01-05', time: '10:00' },
  errors: [...fails.notFound('课程', '老师'), ...fails.conflict(LessonBookingMsg.notTeacher)],
});

export const lessonMemberCalls = [memberLessonTypes, memberLessonSlots, memberCardsForLesson] as const;
