// The waitlist of a full session (候补): the desk's calls (server: features/waitlist). Members join
// and leave through the members' channel with the same rules.
import { z } from 'zod';
import { zId } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { CARD_RULE_MSGS, MEMBER_RULE_MSGS, Msg } from '../messages.ts';
import { zStudentCount } from './timetable.ts';

export const WaitMsg = {
  off: '本店未开启候补，请在预约设置中开启',
  notFull: '课程还有空位，请直接预约',
  already: '该会员已在候补队列中',
  booked: '该会员已预约该课程',
  closed: '已过候补截止时间，不能再候补',
  started: '课程已开始，不能候补',
  notWaiting: '该候补已结束',
  cardMember: '该会员卡不属于此会员',
} as const;

/** One waiting member, in queue order. */
export const zWaitRow = z.object({
  id: z.number(),
  /** 1 = next to be promoted. */
  position: z.number(),
  member: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
  card: z.object({ id: z.number(), cardName: z.string(), bigType: z.number() }),
  studentCount: z.number(),
  /** Why the last promotion passed them over (they stay in the queue), else null. */
  skipReason: z.string().nullable(),
  /** Added by the desk (staff name), or null when the member queued themself. */
  operator: z.string().nullable(),
  createTime: z.string(),
});
export type WaitRow = z.infer<typeof zWaitRow>;

export const queryWaitlist = defineCall({
  path: `${STORE_API}/query/waitlist/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'tid', via: 'session' },
  req: z.object({ tid: zId() }),
  res: z.object({
    list: z.array(zWaitRow),
    /** Whether promotion still happens for this session (waitlist on, before the cutoff). */
    open: z.boolean(),
  }),
  idFields: ['tid'],
  summary: '一节课的候补队列（按顺序）',
  example: { tid: 1 },
  errors: fails.notFound('课程'),
});

export const addWaitlist = defineCall({
  path: `${STORE_API}/add/waitlist`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mid: zId('请选择会员'),
    mcId: zId('请选择会员卡'),
    tid: zId(),
    studentCount: zStudentCount().default(1),
  }),
  res: z.object({ id: z.number(), position: z.number() }),
  idFields: ['mid', 'mcId', 'tid'],
  summary: '把会员加入一节已满课程的候补队列',
  example: { mid: 1, mcId: 1, tid: 1, studentCount: 1 },
  errors: [
    ...fails.badRequest(Msg.oneStudentInSignInMode),
    ...fails.notFound('课程', '会员', '会员卡'),
    ...fails.conflict(
      WaitMsg.off,
      WaitMsg.notFull,
      WaitMsg.already,
      WaitMsg.booked,
      WaitMsg.closed,
      WaitMsg.started,
      WaitMsg.cardMember,
      // The booking's own rules (the same rule set): the card, the member, the class.
      ...CARD_RULE_MSGS,
      Msg.cardCommitted,
      ...MEMBER_RULE_MSGS,
    ),
  ],
});

export const cancelWaitlist = defineCall({
  path: `${STORE_API}/cancel/waitlist`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '把会员移出候补队列',
  example: { id: 1 },
  errors: [...fails.notFound('候补'), ...fails.conflict(WaitMsg.notWaiting)],
});

/** A member's wait, for the member drawer and detail: waiting (with position) or how it ended. */
export const zMemberWaitRow = z.object({
  id: z.number(),
  /** WaitStatus: 1 waiting, 2 promoted, 3 left, 4 ended without a seat. */
  status: z.number(),
  /** Place in the queue while waiting, else null. */
  position: z.number().nullable(),
  session: z.object({ id: z.number(), courseName: z.string(), startTime: z.string() }),
  cardName: z.string(),
  studentCount: z.number(),
  skipReason: z.string().nullable(),
  createTime: z.string(),
  endTime: z.string().nullable(),
});
export type MemberWaitRow = z.infer<typeof zMemberWaitRow>;

export const queryMemberWaitlist = defineCall({
  path: `${STORE_API}/query/member/waitlist`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mid: zId('请选择会员') }),
  res: z.array(zMemberWaitRow),
  idFields: ['mid'],
  summary: '会员的候补：候补中的课程（含顺序）和最近结束的候补',
  example: { mid: 1 },
  errors: fails.notFound('会员'),
});

export const waitlistCalls = [queryWaitlist, addWaitlist, cancelWaitlist, queryMemberWaitlist] as const;
