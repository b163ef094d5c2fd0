// 私教 and 小班 (issue 43): booking a lesson. A booked lesson is a session of its lesson type's course,
// created in the same transaction as its members' bookings (server: features/lessons/booking-*.ts).
import { z } from 'zod';
import { zDate, zId, zText, zTime } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { CARD_RULE_MSGS, Msg, MEMBER_RULE_MSGS } from '../messages.ts';
import { MEMBER_API } from './member-channel.ts';
import { PolicyMsg } from './policy.ts';

export const LessonBookingMsg = {
  notLesson: '该课程不是私教或小班课',
  notTeacher: '该老师不教这门课',
  members: (max: number | string) => `这门课每节1至${max}位会员`,
  sameMember: '同一位会员不能重复添加',
  notice: (minutes: number | string) => `请至少提前${minutes}分钟预约`,
  notOffered: '该时间不在可预约的时段内，请选择其他时间或填写原因',
  notItsRoom: '这门课不能在该场地上',
  noRoom: '该时间没有空闲的场地',
  started: '课程已开始，无法操作',
  notPending: '该课程无需确认或已确认',
  confirmHours: '确认时限应为1至72小时',
  cancelled: '该课程已取消，不能添加学员',
  memberBusy: (when: string) => `该会员在 ${when} 已有其他课程，时间冲突`,
} as const;

/** What a lesson booking's rules refuse: the lesson's own, the clash rule's, the cards' and the members'. */
export const LESSON_REFUSALS = [
  LessonBookingMsg.notTeacher,
  LessonBookingMsg.notice('{分钟}'),
  LessonBookingMsg.notOffered,
  LessonBookingMsg.notItsRoom,
  LessonBookingMsg.noRoom,
  Msg.teacherConflict('{时间}'),
  Msg.roomConflict('{场地}', '{时间}'),
  Msg.equipmentConflict('{器械}', '{时间}', '{N}'),
  ...CARD_RULE_MSGS,
  Msg.cardCommitted,
  ...MEMBER_RULE_MSGS,
  Msg.sessionFull,
];

export const zLessonMembers = z
  .array(z.object({ mid: zId(Msg.chooseMember), mcId: zId('请选择会员卡') }))
  .min(1, Msg.chooseMember)
  .max(6, LessonBookingMsg.members(6));

/** The desk books a lesson for its members (each with a card; 1对2 two cards or one shared card). */
export const bookLesson = defineCall({
  path: `${STORE_API}/add/lesson`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    courseId: zId('请选择课程'),
    teacherId: zId('请选择老师'),
    date: zDate('请选择日期'),
    time: zTime('请选择时间'),
    /** A room of the type's; none: the first of its rooms free then. */
    venueId: zId('请选择场地').nullish(),
    members: zLessonMembers,
    /** Booked outside the offered slots: why (recorded). */
    outsideReason: zText(200).nullish(),
  }),
  res: z.object({ id: z.number(), status: z.enum(['pending', 'confirmed']) }),
  idFields: ['courseId', 'teacherId', 'venueId'],
  summary: '私教/小班：前台为会员预约一节课（可在可约时段外预约并填写原因）',
  example: { courseId: 1, teacherId: 1, date: '2099-01-05', time: '10:00', members: [{ mid: 1, mcId: 1 }] },
  errors: [
    ...fails.badRequest(LessonBookingMsg.members('{N}'), LessonBookingMsg.sameMember),
    ...fails.notFound('课程', '老师', '场地', '会员', '会员卡'),
    ...fails.conflict(LessonBookingMsg.notLesson, ...LESSON_REFUSALS),
  ],
});

/** A member books a lesson for themself at a start time the finder offers. */
export const memberBookLesson = defineCall({
  path: `${MEMBER_API}/add/lesson`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    courseId: zId('请选择课程'),
    teacherId: zId('请选择老师'),
    date: zDate('请选择日期'),
    time: zTime('请选择时间'),
    mcId: zId('请选择会员卡'),
  }),
  res: z.object({ id: z.number(), status: z.enum(['pending', 'confirmed']) }),
  summary: '会员端：预约私教/小班课（选老师、时间和会员卡）',
  example: { courseId: 1, teacherId: 1, date: '2099-01-05', time: '10:00', mcId: 1 },
  errors: [
    ...fails.notFound('课程', '老师', '会员卡'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      PolicyMsg.suspended('{日期}'),
      PolicyMsg.tooManyOpen('{节数}'),
      ...LESSON_REFUSALS,
    ),
  ],
});

/**
 * The desk adds a member, with one of their cards, to a booked lesson that still has room (小班 up to
 * its most members, 1对2 its second): the booking's card rules and the clash rule hold; no notice.
 */
export const addLessonMember = defineCall({
  path: `${STORE_API}/add/lesson/member`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    /** The lesson (its session). */
    id: zId('请选择课程'),
    mid: zId(Msg.chooseMember),
    mcId: zId('请选择会员卡'),
  }),
  /** The member's booking (预约即扣费) or pending held for sign-in (签到后扣费). */
  res: z.object({ id: z.number(), kind: z.enum(['reservation', 'pending']) }),
  idFields: ['id', 'mid', 'mcId'],
  summary: '私教/小班：前台为已约的课添加一位学员（选会员和会员卡，人数不超过课程上限）',
  example: { id: 1, mid: 1, mcId: 1 },
  errors: [
    ...fails.notFound('课程', '会员', '会员卡'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      LessonBookingMsg.cancelled,
      LessonBookingMsg.memberBusy('{时间}'),
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.equipmentConflict('{器械}', '{时间}', '{N}'),
      ...CARD_RULE_MSGS,
      Msg.cardCommitted,
      ...MEMBER_RULE_MSGS,
      Msg.sessionFull,
    ),
  ],
});

/** A lesson booking's cancel, by the desk or the member: which booking, and whether it was refunded and the lesson released. */
const cancelShape = {
  req: z.object({
    id: zId(),
    /** A booking (default), or a pending held for sign-in in 签到后扣费 (its id). */
    kind: z.enum(['reservation', 'pending'], { error: '预约类型不正确' }).default('reservation'),
  }),
  res: z.object({ refunded: z.boolean(), released: z.boolean() }),
  example: { id: 1 },
  errors: [
    ...fails.notFound('预约'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      LessonBookingMsg.started,
      Msg.alreadyCancelled,
      Msg.pendingNotWaiting,
    ),
  ],
};

/**
 * Cancels one member's booking of a lesson: before the type's cutoff refunded (the lesson released
 * when nobody is left in it), after it consumed (迟到取消).
 */
export const cancelLesson = defineCall({
  path: `${STORE_API}/cancel/lesson`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  ...cancelShape,
  summary: '私教/小班：取消一位会员的预约（取消时限前退回，之后按迟到取消扣除）',
});

/** A member cancels their own lesson booking, by the same cutoff. */
export const memberCancelLesson = defineCall({
  path: `${MEMBER_API}/cancel/lesson`,
  kind: 'write',
  auth: 'member',
  ...cancelShape,
  summary: '会员端：取消私教/小班预约（取消时限前退回，之后按迟到取消扣除）',
});

/** The teacher (or the desk) confirms a lesson waiting for confirmation (待确认). */
export const confirmLesson = defineCall({
  path: `${STORE_API}/confirm/lesson`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({ id: zId() }),
  res: z.null(),
  summary: '私教/小班：老师确认预约',
  example: { id: 1 },
  errors: [...fails.notFound('课程'), ...fails.conflict(LessonBookingMsg.notPending)],
});

/** The desk moves a lesson to another time (the clash rule holds; its members are told). */
export const moveLesson = defineCall({
  path: `${STORE_API}/move/lesson`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId(), date: zDate('请选择日期'), time: zTime('请选择时间') }),
  res: z.null(),
  summary: '私教/小班：调整上课时间（会员会收到通知）',
  example: { id: 1, date: '2099-01-06', time: '10:00' },
  errors: [
    ...fails.notFound('课程'),
    ...fails.conflict(
      LessonBookingMsg.notLesson,
      LessonBookingMsg.started,
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.equipmentConflict('{器械}', '{时间}', '{N}'),
    ),
  ],
});

export const zLessonBookingSetting = z.object({
  /** 私教需老师确认: a booked lesson waits (待确认) until its teacher confirms. */
  teacherConfirms: z.union([z.literal(0), z.literal(1)]),
  /** Unconfirmed this many hours after booking: released, its members told. */
  confirmHours: z
    .number({ error: LessonBookingMsg.confirmHours })
    .int({ error: LessonBookingMsg.confirmHours })
    .min(1, { error: LessonBookingMsg.confirmHours })
    .max(72, { error: LessonBookingMsg.confirmHours }),
});
export type LessonBookingSetting = z.infer<typeof zLessonBookingSetting>;

export const queryLessonBookingSetting = defineCall({
  path: `${STORE_API}/query/lesson/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({}),
  res: zLessonBookingSetting,
  summary: '私教/小班：预约设置（是否需老师确认、确认时限）',
  example: {},
});

export const saveLessonBookingSetting = defineCall({
  path: `${STORE_API}/update/lesson/setting`,
  kind: 'write',
  auth: 'store',
  roles: ['manager'],
  req: zLessonBookingSetting,
  res: z.null(),
  summary: '私教/小班：保存预约设置',
  example: { teacherConfirms: 1, confirmHours: 12 },
  errors: fails.badRequest(LessonBookingMsg.confirmHours),
});

export const lessonBookingCalls = [
  bookLesson,
  addLessonMember,
  memberBookLesson,
  cancelLesson,
  memberCancelLesson,
  confirmLesson,
  moveLesson,
  queryLessonBookingSetting,
  saveLessonBookingSetting,
] as const;
