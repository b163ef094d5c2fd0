// 私教 and 小班 (issue 43) on the members' phone: the lesson types a member can book, the free start
// times of one for a teacher (or 任意老师) on a day, and the member's cards for such a lesson. Booking
// and cancelling are lesson-booking.ts's memberBookLesson and memberCancelLesson; joining a 小班
// already booked (its free places) is memberOpenLessons and memberJoinLesson below.
import { z } from 'zod';
import { zDate, zEmpty, zId } from '../common.ts';
import { defineCall, fails } from '../define.ts';
import { CARD_RULE_MSGS, Msg, MEMBER_RULE_MSGS } from '../messages.ts';
import { LessonBookingMsg, memberBookLesson } from './lesson-booking.ts';
import { PolicyMsg } from './policy.ts';
import { zLessonType, zSlotDays } from './lessons.ts';
import { MEMBER_API, memberCardsForSession } from './member-channel.ts';

/** How many days ahead (today included) a member sees a lesson's free times. */
export const MEMBER_LESSON_DAYS = 14;

export const MemberLessonMsg = {
  days: `只能预约今天起${MEMBER_LESSON_DAYS}天内的课程`,
  /** A member joins only a 小班 (a 1对1 or 1对2 is booked for its own members). */
  notSmallGroup: '只能加入小班课',
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

/** A 小班 already booked that a member may join: when, with whom, how many of its most are taken. */
export const zOpenLesson = z.object({
  id: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  teacherId: z.number(),
  teacherName: z.string(),
  /** 已约: its members (bookings and held seats). */
  booked: z.number().int(),
  maxMembers: z.number().int(),
  /** 待老师确认: the lesson still waits for its teacher (a member joining waits with it). */
  pending: z.boolean(),
});
export type OpenLesson = z.infer<typeof zOpenLesson>;

export const memberOpenLessons = defineCall({
  path: `${MEMBER_API}/query/lesson/open`,
  kind: 'read',
  auth: 'member',
  req: memberLessonSlots.req,
  res: z.array(zOpenLesson),
  summary: '会员端：某天已开的小班课中还有名额、可以加入的（时间、老师、已约人数）',
  example: { courseId: 1, teacherId: 1, date: '2099-01-05' },
  errors: memberLessonSlots.errors,
});

/**
 * A member joins a 小班 already booked that still has room, with one of their cards: the desk's
 * 添加学员 path (the lesson grown by one, the card rules, the member's other classes), held to the
 * type's notice and the store's booking rules as their own booking is.
 */
export const memberJoinLesson = defineCall({
  path: `${MEMBER_API}/join/lesson`,
  kind: 'write',
  auth: 'member',
  req: z.object({ id: zId('请选择课程'), mcId: zId('请选择会员卡') }),
  /** The booking (预约即扣费) or held seat (签到后扣费), and the lesson's state (待确认: it waits for its teacher). */
  res: z.object({
    id: z.number(),
    kind: z.enum(['reservation', 'pending']),
    status: z.enum(['pending', 'confirmed']),
  }),
  summary: '会员端：加入一节已开的小班课（选会员卡；人数不超过课程上限）',
  example: { id: 1, mcId: 1 },
  errors: [
    ...fails.notFound('课程', '会员卡'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      MemberLessonMsg.notSmallGroup,
      LessonBookingMsg.cancelled,
      LessonBookingMsg.notice('{分钟}'),
      LessonBookingMsg.memberBusy('{时间}'),
      Msg.equipmentConflict('{器械}', '{时间}', '{N}'),
      PolicyMsg.suspended('{日期}'),
      PolicyMsg.tooManyOpen('{节数}'),
      ...CARD_RULE_MSGS,
      Msg.cardCommitted,
      ...MEMBER_RULE_MSGS,
      Msg.sessionFull,
    ),
  ],
});

export const lessonMemberCalls = [
  memberLessonTypes,
  memberLessonSlots,
  memberCardsForLesson,
  memberOpenLessons,
  memberJoinLesson,
] as const;
