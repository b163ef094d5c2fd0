// The store's booking policy (预约规则): booking window, free-cancel time, late cancels, waitlist,
// no-shows (server: features/policy). Members are held to it; staff are not (their overrides are
// recorded).
import { z } from 'zod';
import { zId } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';

export const PolicyMsg = {
  minutes: '请填写不小于0的整数分钟',
  days: '请填写不小于0的整数天数',
  count: '请填写不小于0的整数次数',
  lateCancel: '请选择开课前取消截止后的处理方式',
  noShow: '请选择未签到的处理方式',
  waitlist: '请选择是否开启候补',
  bookings: '请填写不小于0的整数节数',
  /** A member booking (or queueing) before the window opens. */
  notOpenYet: (days: number | string) => `该课程开课前${days}天开放预约，请稍后再来`,
  /** A member booking (or queueing) after the window closed. */
  closed: (minutes: number | string) => `开课前${minutes}分钟停止预约`,
  /** A member cancelling (a booking or a pending) after the free-cancel time when late cancels are refused. */
  lateCancelRefused: (minutes: number | string) => `开课前${minutes}分钟内不能取消预约，请联系前台`,
  /** What a member's cancel now costs, told before they confirm (`amount` in words: 1 次, 30.00 元). */
  cancelFree: (amount: string) => `现在取消，退回 ${amount}`,
  cancelFreePending: '现在取消不扣费',
  // Whole hours in 小时 (24小时), else 分钟 (90分钟). Each message stands alone: the web's copy of the contract takes it by its source.
  cancelLate: (minutes: number, amount: string) =>
    `已过免费取消时间（开课前${minutes > 0 && minutes % 60 === 0 ? `${minutes / 60}小时` : `${minutes}分钟`}），取消后不退回 ${amount}`,
  cancelLatePending: (minutes: number) =>
    `已过免费取消时间（开课前${minutes > 0 && minutes % 60 === 0 ? `${minutes / 60}小时` : `${minutes}分钟`}），取消将按一次上课从会员卡扣费`,
  suspended: (until: string) => `因多次预约未到，${until}前不能在线预约，请联系前台`,
  /** A member booking with a period card (charges nothing per class) that holds `maxOpenBookings` open bookings. */
  tooManyOpen: (max: number | string) => `这张会员卡最多同时预约${max}节未上的课，请上完课或取消预约后再约`,
} as const;

const zMinutes = (max = 7 * 24 * 60) =>
  z
    .number({ error: PolicyMsg.minutes })
    .int({ error: PolicyMsg.minutes })
    .min(0, { error: PolicyMsg.minutes })
    .max(max, { error: `最多${max}分钟` });
const zDays = (max = 365) =>
  z
    .number({ error: PolicyMsg.days })
    .int({ error: PolicyMsg.days })
    .min(0, { error: PolicyMsg.days })
    .max(max, { error: `最多${max}天` });

export const zBookingPolicy = z.object({
  /** Booking opens this many days before the start; 0 = no limit. */
  openDaysBefore: zDays(),
  /** Members' booking closes this many minutes before the start; 0 = until the start. */
  closeMinutesBefore: zMinutes(),
  /** Members may cancel free of charge until this many minutes before the start. */
  cancelMinutesBefore: zMinutes(),
  /** After the free-cancel time: refuse the cancel, or allow it keeping the deduction. */
  lateCancel: z.enum(['refuse', 'forfeit'], { error: PolicyMsg.lateCancel }),
  waitlist: z.union([z.literal(0), z.literal(1)], { error: PolicyMsg.waitlist }),
  /** No promotion from the waitlist closer than this to the start. */
  waitlistCutoffMinutes: zMinutes(),
  /** A pending not signed in by the end (mode 1): nothing, or charged as a no-show. */
  noShow: z.enum(['none', 'forfeit'], { error: PolicyMsg.noShow }),
  /** After this many no-shows in 30 days a member cannot book online ... */
  noShowLimit: z
    .number({ error: PolicyMsg.count })
    .int({ error: PolicyMsg.count })
    .min(0, { error: PolicyMsg.count })
    .max(100),
  /** ... for this many days; 0 = off. */
  noShowSuspendDays: zDays(),
  /**
   * A period card (its product charges nothing per class, 期限卡) holds at most this many open
   * bookings (booked or waiting for sign-in, of classes not ended) made by members; 0 = no limit.
   * Staff may book past it (recorded in history as 越过预约规则).
   */
  maxOpenBookings: z
    .number({ error: PolicyMsg.bookings })
    .int({ error: PolicyMsg.bookings })
    .min(0, { error: PolicyMsg.bookings })
    .max(100, { error: '最多100节' }),
});
export type BookingPolicy = z.infer<typeof zBookingPolicy>;

/** What a store that never opens the page gets: nothing limited but a period card's open bookings (10). */
export const DEFAULT_POLICY: BookingPolicy = {
  openDaysBefore: 0,
  closeMinutesBefore: 0,
  cancelMinutesBefore: 0,
  lateCancel: 'refuse',
  waitlist: 0,
  waitlistCutoffMinutes: 0,
  noShow: 'none',
  noShowLimit: 0,
  noShowSuspendDays: 0,
  maxOpenBookings: 10,
};

export const queryBookingPolicy = defineCall({
  path: `${STORE_API}/query/booking/policy`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({}).loose(),
  res: zBookingPolicy,
  summary: '预约规则：开放预约、截止预约、免费取消、迟到取消、候补、爽约、期限卡最多同时预约',
  example: {},
});

export const updateBookingPolicy = defineCall({
  path: `${STORE_API}/update/booking/policy`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zBookingPolicy.partial(),
  res: z.null(),
  summary: '修改预约规则（只改传入的字段）',
  example: { openDaysBefore: 7, cancelMinutesBefore: 120, lateCancel: 'forfeit', maxOpenBookings: 10 },
});

/** Messages of no-shows, waivers and suspensions. */
export const NoShowMsg = {
  notNoShow: '该预约不是爽约记录',
  nothingToWaive: '该爽约没有扣费，无需免除',
  alreadyWaived: '该爽约扣费已经免除过了',
  reason: '请填写免除原因',
  notSuspended: '该会员没有被暂停在线预约',
  notLateCancel: '该预约不是迟到取消记录',
  lateNothingToWaive: '该迟到取消没有扣费，无需免除',
  lateAlreadyWaived: '该迟到取消的扣费已经免除过了',
  /** History of a no-show charged to the member's first usable card: the pending named none. */
  chargedFirstCard: (card: string) => `爽约扣费（预约时未选会员卡，从${card}扣除）`,
} as const;

export const waiveNoShow = defineCall({
  path: `${STORE_API}/waive/no/show`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    pendingId: zId(),
    reason: z.string({ error: NoShowMsg.reason }).trim().min(1, NoShowMsg.reason).max(200),
  }),
  res: z.null(),
  idFields: ['pendingId'],
  summary: '免除一次爽约扣费（退回会员卡，记入流水）',
  example: { pendingId: 1, reason: '会员临时生病，已提前电话告知' },
  errors: [
    ...fails.badRequest(NoShowMsg.reason),
    ...fails.notFound('预约'),
    ...fails.conflict(NoShowMsg.notNoShow, NoShowMsg.nothingToWaive, NoShowMsg.alreadyWaived),
  ],
});

export const waiveLateCancel = defineCall({
  path: `${STORE_API}/waive/late/cancel`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    reservationId: zId(),
    reason: z.string({ error: NoShowMsg.reason }).trim().min(1, NoShowMsg.reason).max(200),
  }),
  res: z.null(),
  idFields: ['reservationId'],
  summary: '免除一次迟到取消的扣费（退回会员卡，记入流水）',
  example: { reservationId: 1, reason: '会员因交通管制迟到取消，店长同意' },
  errors: [
    ...fails.badRequest(NoShowMsg.reason),
    ...fails.notFound('预约'),
    ...fails.conflict(NoShowMsg.notLateCancel, NoShowMsg.lateNothingToWaive, NoShowMsg.lateAlreadyWaived),
  ],
});

/** A member's late cancel that kept its deduction (迟到取消), and its waiver. */
export const zLateCancelRow = z.object({
  reservationId: z.number(),
  session: z.object({ id: z.number(), courseName: z.string(), startTime: z.string() }),
  cancelTime: z.string().nullable(),
  /** Kept: a count or fen of `bigType`'s unit. */
  fee: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  waivedTime: z.string().nullable(),
  waiveReason: z.string().nullable(),
});
export type LateCancelRow = z.infer<typeof zLateCancelRow>;

export const zNoShowRow = z.object({
  /** The pending not signed in (签到后扣费), or null. */
  pendingId: z.number().nullable(),
  /**
   * 预约即扣费: the booking not marked 到店 by the end of a class whose attendance was taken (its
   * charge was the booking's: fee 0; marking it 到店 afterwards clears it), or null.
   */
  reservationId: z.number().nullable(),
  session: z.object({ id: z.number(), courseName: z.string(), startTime: z.string() }),
  /** Charged: a count or fen of `bigType`'s unit; 0 when nothing could be charged. */
  fee: z.number(),
  cardName: z.string().nullable(),
  bigType: z.number().nullable(),
  waivedTime: z.string().nullable(),
  waiveReason: z.string().nullable(),
});
export type NoShowRow = z.infer<typeof zNoShowRow>;

export const memberPolicyStatus = defineCall({
  path: `${STORE_API}/query/member/policy/status`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mid: zId('请选择会员') }),
  res: z.object({
    /** Until when the member cannot book online (store-local), or null. */
    suspendedUntil: z.string().nullable(),
    /** When staff last lifted a suspension, or null. */
    liftedAt: z.string().nullable(),
    /** No-shows of the last 90 days, newest first. */
    noShows: z.array(zNoShowRow),
    /** Late cancels that kept the deduction, of the last 90 days, newest first. */
    lateCancels: z.array(zLateCancelRow),
  }),
  idFields: ['mid'],
  summary: '会员的爽约、迟到取消记录和在线预约暂停状态',
  example: { mid: 1 },
  errors: fails.notFound('会员'),
});

export const liftMemberSuspension = defineCall({
  path: `${STORE_API}/lift/member/suspension`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mid: zId('请选择会员') }),
  res: z.null(),
  idFields: ['mid'],
  summary: '解除会员的在线预约暂停（之前的爽约不再计入）',
  example: { mid: 1 },
  errors: [...fails.notFound('会员'), ...fails.conflict(NoShowMsg.notSuspended)],
});

export const policyCalls = [
  queryBookingPolicy,
  updateBookingPolicy,
  waiveNoShow,
  waiveLateCancel,
  memberPolicyStatus,
  liftMemberSuspension,
];
