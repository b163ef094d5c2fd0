// A card's life (issue 29, items 1 to 3): leave (请假), activation (开卡) and the refund quote
// (server: features/card-life). The product's fields are in reference/card.ts.
import { z } from 'zod';
import { zDate, zId, zPage, zPaged } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { Msg } from '../messages.ts';
import { MEMBER_API } from './member-channel.ts';
import { CardMsg } from './reference/card.ts';

/** A leave's status: 待审批, 已批准 (it holds its days), 已拒绝, 已提前结束, 已撤销. */
export const LEAVE_STATUSES = ['pending', 'approved', 'refused', 'ended', 'cancelled'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];
export const LEAVE_STATUS_NAMES: Record<LeaveStatus, string> = {
  pending: '待审批',
  approved: '已批准',
  refused: '已拒绝',
  ended: '已提前结束',
  cancelled: '已撤销',
};
/** How a member's leave request the rules allow is decided: at once, or by the desk. */
export const LEAVE_APPROVALS = ['auto', 'desk'] as const;
export type LeaveApproval = (typeof LEAVE_APPROVALS)[number];
/** Days after the sale within which an unopened card is refunded in full (store setting default). */
export const COOLING_OFF_DAYS_DEFAULT = 7;
/** How a refund quote was worked out. */
export const REFUND_RULES = { cooling_off: '冷静期全额退款', product_rule: '按卡种退卡规则' } as const;
export type RefundRule = keyof typeof REFUND_RULES;
/**
 * The one rounding rule of refund quotes (issue 42, item 5), in the staff's words: the unused share
 * and the refund fee are each worked out in whole fen, the fraction of a fen dropped.
 */
export const REFUND_ROUNDING = '金额按分计算，不足 1 分的部分舍去';

/** Messages of leave, activation and refunds. */
export const CardLifeMsg = {
  reason: '请填写请假原因',
  fromDate: '请选择请假开始日期',
  toDate: '请选择请假结束日期',
  endDate: '请选择请假的最后一天',
  dateOrder: '请假结束日期不能早于开始日期',
  pastStart: '请假开始日期不能早于今天',
  notAllowed: '该卡种不允许请假',
  noExpiry: '永久有效的卡无需请假',
  notActivated: '该卡还未开卡，不能请假',
  expired: '该卡已过期，不能请假',
  frozen: '该卡已冻结，不能请假',
  afterExpiry: '请假开始日期已超过该卡的有效期',
  overlap: '这段时间与该卡的另一次请假重叠',
  times: (n: number | string) => `该卡最多请假${n}次，已用完`,
  daysMax: (n: number | string) => `每次请假最多${n}天`,
  daysTotal: (n: number | string, left: number | string) => `该卡累计最多请假${n}天，还可请假${left}天`,
  bookingsInLeave: (n: number | string) => `请假期间有${n}节已预约的课程，确认后将取消并退回`,
  notPending: '该请假申请已处理过了',
  notActive: '只能结束已批准的请假',
  endRange: '结束日期应在请假期间内（最早为昨天），结束后的下一天起可以预约',
  refuseRemark: '请填写拒绝原因',
  coolingDays: '冷静期天数应在0到60之间',
  onePending: '已有一个待审批的请假申请',
} as const;

/** A date range of leave, both days included. */
const zLeaveRange = {
  fromDate: zDate(CardLifeMsg.fromDate),
  toDate: zDate(CardLifeMsg.toDate),
};
const zReason = z.string({ error: CardLifeMsg.reason }).trim().min(1, CardLifeMsg.reason).max(200);

export const zCardLeaveRow = z.object({
  id: z.number(),
  mcId: z.number(),
  memberId: z.number(),
  memberName: z.string(),
  cardName: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  /** Days of leave it holds now (ended early: up to its last day; refused, cancelled, pending: 0 taken). */
  days: z.number(),
  reason: z.string(),
  status: z.enum(LEAVE_STATUSES),
  requestedBy: z.enum(['member', 'staff']),
  /** Who recorded it at the desk (a member's own request: null). */
  staff: z.string().nullable(),
  /** Ended early: the last day of leave. */
  endedDate: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decideRemark: z.string().nullable(),
});
export type CardLeaveRow = z.infer<typeof zCardLeaveRow>;

/** A class the leave would cancel (a live booking or a pending of the card inside the leave). */
export const zLeaveBooking = z.object({
  kind: z.enum(['reservation', 'pending']),
  id: z.number(),
  tid: z.number(),
  courseName: z.string(),
  startTime: z.string(),
  /** What its cancel gives back to the card (count or fen; a pending: 0). */
  refund: z.number(),
});

const LEAVE_REFUSALS = [
  CardLifeMsg.dateOrder,
  CardLifeMsg.pastStart,
  CardLifeMsg.notAllowed,
  CardLifeMsg.noExpiry,
  CardLifeMsg.notActivated,
  CardLifeMsg.expired,
  CardLifeMsg.frozen,
  CardLifeMsg.afterExpiry,
  CardLifeMsg.overlap,
  CardLifeMsg.times('{次数}'),
  CardLifeMsg.daysMax('{天数}'),
  CardLifeMsg.daysTotal('{天数}', '{剩余}'),
  CardMsg.refunded,
];
const BOOKINGS_IN_LEAVE = CardLifeMsg.bookingsInLeave('{数量}');

export const cardLeavePreview = defineCall({
  path: `${STORE_API}/query/card/leave/preview`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡'), ...zLeaveRange }),
  res: z.object({
    days: z.number(),
    /** The card's expiry once the leave is approved. */
    expireTime: z.string().nullable(),
    /** Why the leave would be refused, or null. */
    refusal: z.string().nullable(),
    bookings: z.array(zLeaveBooking),
  }),
  idFields: ['mcId'],
  summary: '请假预览：天数、新的到期日、会被取消的预约、是否符合卡种的请假规则',
  example: { mcId: 1, fromDate: '2026-12-01', toDate: '2026-12-07' },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(Msg.cardHelp)],
});

export const addCardLeave = defineCall({
  path: `${STORE_API}/add/card/leave`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mcId: zId('请选择会员卡'),
    ...zLeaveRange,
    reason: zReason,
    /** The desk confirmed cancelling (with refund) the card's bookings inside the leave. */
    cancelBookings: z.boolean().optional(),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['mcId'],
  summary: '前台登记请假：请假期间该卡不能预约，有效期顺延请假天数（期间已有的预约确认后取消并退回）',
  example: { mcId: 1, fromDate: '2026-12-01', toDate: '2026-12-07', reason: '出差' },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(...LEAVE_REFUSALS, BOOKINGS_IN_LEAVE)],
});

export const endCardLeave = defineCall({
  path: `${STORE_API}/end/card/leave`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择请假记录'), date: zDate(CardLifeMsg.endDate) }),
  res: z.null(),
  idFields: ['id'],
  summary: '提前结束请假（date：请假的最后一天），未用的天数从有效期中扣回；开始前结束即撤销',
  example: { id: 1, date: '2026-12-03' },
  errors: [...fails.notFound('请假记录'), ...fails.conflict(CardLifeMsg.notActive, CardLifeMsg.endRange)],
});

export const approveCardLeave = defineCall({
  path: `${STORE_API}/approve/card/leave`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择请假记录'), cancelBookings: z.boolean().optional() }),
  res: z.null(),
  idFields: ['id'],
  summary: '批准会员的请假申请（期间已有的预约确认后取消并退回）',
  example: { id: 1, cancelBookings: true },
  errors: [
    ...fails.notFound('请假记录'),
    ...fails.conflict(CardLifeMsg.notPending, ...LEAVE_REFUSALS, BOOKINGS_IN_LEAVE),
  ],
});

export const refuseCardLeave = defineCall({
  path: `${STORE_API}/refuse/card/leave`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    id: zId('请选择请假记录'),
    remark: z.string({ error: CardLifeMsg.refuseRemark }).trim().min(1, CardLifeMsg.refuseRemark).max(200),
  }),
  res: z.null(),
  idFields: ['id'],
  summary: '拒绝会员的请假申请',
  example: { id: 1, remark: '请假天数已用完' },
  errors: [...fails.notFound('请假记录'), ...fails.conflict(CardLifeMsg.notPending)],
});

export const cardLeaveList = defineCall({
  path: `${STORE_API}/query/card/leave/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId().optional(), status: z.enum(LEAVE_STATUSES).optional(), page: zPage() }),
  res: zPaged(zCardLeaveRow),
  idFields: ['mcId'],
  summary: '请假记录（某张卡的，或某状态的，如待审批）',
  example: { status: 'pending', page: 1 },
  errors: fails.notFound('会员卡'),
});

export const zCardLifeSetting = z.object({
  coolingOffDays: z
    .number({ error: CardLifeMsg.coolingDays })
    .int(CardLifeMsg.coolingDays)
    .min(0, CardLifeMsg.coolingDays)
    .max(60, CardLifeMsg.coolingDays),
  leaveApproval: z.enum(LEAVE_APPROVALS),
});
export type CardLifeSetting = z.infer<typeof zCardLifeSetting>;

export const queryCardLifeSetting = defineCall({
  path: `${STORE_API}/query/card/life/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({}),
  res: zCardLifeSetting,
  summary: '退卡冷静期天数与会员请假的审批方式',
  example: {},
});

export const updateCardLifeSetting = defineCall({
  path: `${STORE_API}/update/card/life/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zCardLifeSetting,
  res: z.null(),
  summary: '设置退卡冷静期天数与会员请假的审批方式（自动批准 / 前台审批）',
  example: { coolingOffDays: 7, leaveApproval: 'auto' },
});

export const cardRefundQuote = defineCall({
  path: `${STORE_API}/query/card/refund/quote`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: z.object({
    /** Fen the member gets back: the most a whole-card refund may pay. */
    amount: z.number(),
    rule: z.enum(Object.keys(REFUND_RULES) as [RefundRule, ...RefundRule[]]),
    /** How it was worked out, in staff words. */
    detail: z.string(),
    /** Fen paid for the card (sale and top-ups, less what was paid back; a transfer's fee is not counted). */
    paid: z.number(),
    /** Whether the acting staff member may make this refund (past the cooling-off days: managers only). */
    allowed: z.boolean(),
    /**
     * The online order the card was bought with, else null: its refund goes back the same way
     * (原路退回 through 线上订单's refund, `refundPayOrder`), not as money paid at the desk.
     */
    onlineOrder: z.object({ orderNo: z.string(), provider: z.enum(['wechat', 'alipay']) }).nullable(),
    /** Within the cooling-off days of the sale, whether or not the card was opened (never say 已过冷静期 then). */
    coolingOff: z.boolean(),
    /** Bookings and pendings of classes not ended: cancel them before the card can be refunded. */
    toCome: z.number(),
    /**
     * The card's contract (电子合同) the refund follows: its version, when it was signed (null: 待签约),
     * and its refund terms as sold (cooling-off days, the refund clause); null for a card without one.
     */
    contract: z
      .object({
        version: z.number(),
        signedAt: z.string().nullable(),
        coolingOffDays: z.string(),
        refund: z.string(),
      })
      .nullable()
      .default(null),
    /**
     * Where each part of `amount` goes back (issue 42, item 3): an online order through its own
     * provider (a card order or a top-up), or the desk (`orderNo` null); the parts add up to `amount`.
     */
    parts: z.array(
      z.object({
        orderNo: z.string().nullable(),
        provider: z.enum(['wechat', 'alipay']).nullable(),
        kind: z.enum(['card', 'topup', 'desk']),
        amount: z.number(),
      }),
    ),
  }),
  idFields: ['mcId'],
  summary: '退卡报价：冷静期内未使用的卡全额退款，之后按卡种规则（未使用比例减手续费），由服务器计算',
  example: { mcId: 1 },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(CardMsg.refunded)],
});

// ---- the members' side

export const memberRequestCardLeave = defineCall({
  path: `${MEMBER_API}/request/card/leave`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    mcId: zId('请选择会员卡'),
    ...zLeaveRange,
    reason: zReason,
    /** The member confirmed that their bookings inside the leave are cancelled (and refunded). */
    cancelBookings: z.boolean().optional(),
  }),
  res: z.object({ id: z.number(), status: z.enum(['approved', 'pending']) }),
  summary: '会员端：申请请假（符合规则时按门店设置自动批准或等待前台审批）',
  example: { mcId: 1, fromDate: '2026-12-01', toDate: '2026-12-07', reason: '出差' },
  errors: [
    ...fails.notFound('会员卡'),
    ...fails.conflict(...LEAVE_REFUSALS, BOOKINGS_IN_LEAVE, CardLifeMsg.onePending),
  ],
});

export const memberCardLeaves = defineCall({
  path: `${MEMBER_API}/query/card/leave/list`,
  kind: 'read',
  auth: 'member',
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: z.object({
    /** The card's leave rules and what is used of them (null: no limit). */
    rules: z.object({
      allowed: z.boolean(),
      times: z.number().nullable(),
      daysMax: z.number().nullable(),
      daysTotal: z.number().nullable(),
      usedTimes: z.number(),
      usedDays: z.number(),
    }),
    list: z.array(
      zCardLeaveRow.pick({
        id: true,
        fromDate: true,
        toDate: true,
        days: true,
        reason: true,
        status: true,
        endedDate: true,
        createdAt: true,
        decideRemark: true,
      }),
    ),
  }),
  summary: '会员端：某张卡的请假规则与请假记录',
  example: { mcId: 1 },
  errors: fails.notFound('会员卡'),
});

export const cardLifeCalls = [
  cardLeavePreview,
  addCardLeave,
  endCardLeave,
  approveCardLeave,
  refuseCardLeave,
  cardLeaveList,
  queryCardLifeSetting,
  updateCardLifeSetting,
  cardRefundQuote,
  memberRequestCardLeave,
  memberCardLeaves,
] as const;
