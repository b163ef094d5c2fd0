// Members: search, create, edit, detail, list, the cards usable for a course, and a member's bookings
// (server: features/reference/member).
import { z } from 'zod';
import { zDate, zId, zMobile, zName, zPaged } from '../../common.ts';
import { defineCall, fails, FullMobiles, STORE_API, Roles } from '../../define.ts';
import { Msg } from '../../messages.ts';
import { zMemberCardRow } from './card.ts';
import { RefMsg, zListPage } from './shared.ts';

export const zMemberRow = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string(),
  gender: z.number(),
  birthday: z.string().nullable(),
});

const zGender = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '性别取值不正确' });
const zMemberFields = {
  name: zName(RefMsg.memberName),
  mobile: zMobile(),
  gender: zGender.default(0),
  birthday: zDate()
    .nullish()
    .transform((v) => v ?? null),
};

export const memberSearch = defineCall({
  path: `${STORE_API}/query/member/search`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ param: z.string().trim().max(50).nullish() }),
  res: z.array(zMemberRow),
  summary: '按姓名或手机号片段搜索会员',
  example: { param: '138' },
});

export const memberCardsForCourse = defineCall({
  path: `${STORE_API}/query/member/cards/for/course`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mid: zId('请选择会员'), courseId: zId('请选择课程') }),
  res: z.array(
    zMemberCardRow.extend({
      usable: z.boolean(),
      reason: z.string().optional(),
      /** 多人共享: the holder's name of a card shared with the member; null for the member's own card. */
      holder: z.string().nullable(),
    }),
  ),
  idFields: ['mid', 'courseId'],
  summary: '会员可用于某课程的会员卡（每张带 usable 和不可用原因）',
  example: { mid: 1, courseId: 1 },
  errors: fails.notFound('会员', '课程'),
});

export const insertMember = defineCall({
  path: `${STORE_API}/insert/member`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object(zMemberFields),
  res: z.object({ id: z.number() }),
  summary: '新增会员',
  example: { name: '张三', mobile: '13800138000', gender: 1, birthday: '1990-05-01' },
  errors: [...fails.badRequest(RefMsg.birthdayFuture), ...fails.conflict(Msg.mobileTaken)],
});

export const updateMember = defineCall({
  path: `${STORE_API}/update/member`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择会员'), ...zMemberFields }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改会员资料',
  example: { id: 1, name: '张三', mobile: '13800138000', gender: 1, birthday: '1990-05-01' },
  errors: [...fails.badRequest(RefMsg.birthdayFuture), ...fails.notFound('会员'), ...fails.conflict(Msg.mobileTaken)],
});

export const memberInfo = defineCall({
  path: `${STORE_API}/query/member/info`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  fullMobiles: FullMobiles.desk,
  req: z.object({ id: zId('请选择会员') }),
  res: zMemberRow.extend({
    createdAt: z.string(),
    cards: z.array(zMemberCardRow),
    /** 多人共享: other members' cards this member books on (not refunded), with their holder. */
    sharedCards: z.array(
      z.object({ id: z.number(), cardName: z.string(), holderId: z.number(), holderName: z.string() }),
    ),
  }),
  idFields: ['id'],
  summary: '会员详情及其会员卡（含别人共享给TA的卡）',
  example: { id: 1 },
  errors: fails.notFound('会员'),
});

export const memberList = defineCall({
  path: `${STORE_API}/query/member/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zListPage(),
  res: zPaged(zMemberRow),
  summary: '会员列表（分页，可按姓名或手机号搜索）',
  example: { page: 1, pageSize: 10, param: '张' },
});

// ---------------------------------------------------------------- a member's bookings (member detail)
/** Largest page of the member-detail booking lists. */
export const MEMBER_BOOKING_PAGE_MAX = 50;
export const MemberBookingMsg = {
  page: '页码应为正整数',
  pageSize: `每页条数应在1到${MEMBER_BOOKING_PAGE_MAX}之间`,
  scope: '查询范围只能是 upcoming（待上课）或 past（已上课）',
} as const;

/** One booking of a member: a live reservation, or a pending item (sign-in mode) not yet signed in. */
export const zMemberBookingRow = z.object({
  kind: z.enum(['reservation', 'pending']),
  id: z.number(),
  timetableId: z.number(),
  courseName: z.string(),
  teacherName: z.string(),
  areaName: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  studentCount: z.number(),
  /** What the booking deducted (count or fen); 0 for pendings. */
  usedCount: z.number(),
  /** The card product's name; null for pendings. */
  cardName: z.string().nullable(),
  status: z.number(),
  statusText: z.enum(['已预约', '已签到', '待签到']),
  createTime: z.string(),
});
export type MemberBookingRow = z.infer<typeof zMemberBookingRow>;

/** A member's bookings: `upcoming` (session not yet ended, soonest first) or `past` (latest first). */
export const memberReservationList = defineCall({
  path: `${STORE_API}/query/member/reservation/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mid: zId('请选择会员'),
    page: z
      .number({ error: MemberBookingMsg.page })
      .int(MemberBookingMsg.page)
      .min(1, MemberBookingMsg.page)
      .max(100_000, MemberBookingMsg.page)
      .default(1),
    scope: z.enum(['upcoming', 'past'], { error: MemberBookingMsg.scope }).default('upcoming'),
    pageSize: z
      .number({ error: MemberBookingMsg.pageSize })
      .int(MemberBookingMsg.pageSize)
      .min(1, MemberBookingMsg.pageSize)
      .max(MEMBER_BOOKING_PAGE_MAX, MemberBookingMsg.pageSize)
      .default(10),
  }),
  res: zPaged(zMemberBookingRow),
  idFields: ['mid'],
  summary: '会员的预约：待上课或已上课（分页）',
  example: { mid: 1, scope: 'upcoming', page: 1, pageSize: 10 },
  errors: fails.notFound('会员'),
});

export const memberCalls = [
  memberSearch,
  memberCardsForCourse,
  insertMember,
  updateMember,
  memberInfo,
  memberList,
  memberReservationList,
] as const;
