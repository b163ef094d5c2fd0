// Card products and the member cards issued from them (server: features/reference/card).
import { z } from 'zod';
import { zDate, zEmpty, zFlag, zId, zName } from '../../common.ts';
import { MAX_AMOUNT, PAY_METHODS, type PayMethod } from '../../constants.ts';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { RefMsg, zAmount, zIdList, zNullableText } from './shared.ts';
import { prepaidLimitErrors } from '../prepaid-limits.ts';
import { LessonMsg, TEACHER_LEVELS } from '../lessons.ts';

/** 开卡方式 of a product (issue 29). */
export const CARD_ACTIVATIONS = ['sale', 'first_class', 'date'] as const;
export type CardActivation = (typeof CARD_ACTIVATIONS)[number];
export const CARD_ACTIVATION_NAMES: Record<CardActivation, string> = {
  sale: '售卡即开卡',
  first_class: '首次上课开卡',
  date: '指定日期开卡',
};
/** 首次上课开卡: default days after the sale at which the card starts anyway. */
export const ACTIVATE_WITHIN_DAYS_DEFAULT = 30;

/** 多人共享: at most this many members besides the holder on one card. */
export const MAX_SHARE = 10;

/** Messages of a product's card-life fields. */
export const CardLifeProductMsg = {
  activation: '开卡方式只能是售卡即开卡、首次上课开卡或指定日期开卡',
  activationDate: '请选择开卡日期',
  activateWithin: '最晚开卡天数应在1到3650之间',
  refundFee: '退卡手续费比例应在0到100之间',
  shareMax: `共享人数应在0到${MAX_SHARE}之间`,
  leaveDaysOrder: '单次请假天数不能超过累计请假天数',
} as const;

/** Messages of card sales, top-ups and refunds. */
export const CardMsg = {
  /** 体验卡 once per member (the desk's sale and the online order alike). */
  trialOnce: '体验卡每位会员只能购买一次',
  /** The desk's 退卡 of a card with a top-up order still 待支付 that could not be closed at the provider. */
  openTopup: (orderNo: string) => `该卡有未完成的线上充值订单（${orderNo}），暂时无法关闭，请稍后再退卡`,
  payMethod: '请选择收款方式',
  validDays: '有效天数应在1到3650之间',
  /** 私教课包 (issue 43): bound to one teacher or to one teacher level, not both. */
  packTeacher: '课包只能限定一位老师或一个老师级别，不能同时限定',
  refunded: '该卡已退卡，不能再操作',
  topupRefunded: '这笔充值已经退过款了',
  topupBalance: '卡内余额不足以退回这笔充值',
  notTopup: '只能退回充值记录',
  refundTooMuch: '退款金额不能超过这笔收款',
  changed: '会员卡刚刚有变动，请刷新后重试',
  /** A whole-card refund (issue 29): past the cooling-off days only a manager refunds; never above the quote. */
  refundManager: '已过冷静期的退卡需要店长操作',
  /** Within the cooling-off days but opened (a class taken, a leave begun, a transfer): the product's rule, a manager's. */
  refundOpened: '冷静期内已上课、已请假或已转卡的卡不能全额退款，按卡种规则退卡需要店长操作',
  /** A card with money paid online still to go back (a desk-sold card topped up online): the orders first. */
  refundOnlineFirst: (orderNos: string) =>
    `这张卡有线上支付的订单（${orderNos}），钱要原路退回：请店长先到「线上订单」给这些订单退款，再退卡`,
  topupManager: '退回充值需要店长操作',
  /** A top-up paid online goes back through its provider (线上订单 → 退款), not at the desk. */
  topupOnline: (orderNo: string) =>
    `这笔充值是线上支付的（订单号 ${orderNo}），不能在前台退回；请店长到「线上订单」找到该订单点“退款”，钱会原路退回`,
  refundAboveQuote: (amount: string) => `退款金额不能超过应退金额 ${amount}`,
  refundOpenBookings: '该卡还有未上的课程预约，请先取消预约再退卡',
  /** A card bought online: its refund goes back through the provider (原路退回), not as money paid at the desk. */
  cardOnline: (orderNo: string) =>
    `这张卡是线上购买的（订单 ${orderNo}），请用“原路退回”退卡：钱退回会员的微信或支付宝`,
} as const;

/** 线上售卖 (issue 42, item 11): what a product needs before members can buy it, and what they see. */
export const OnlineSaleMsg = {
  totalCount: (bigType: number) =>
    bigType === 1 ? '线上售卖的卡种请填写卡内次数（大于0）' : '线上售卖的卡种请填写卡内金额（大于0）',
  validDays: '线上售卖的有期限卡种请填写有效天数',
  onlinePrice: '线上售卖请填写线上价格（大于0元）',
  /** The product form and list, when no payment channel is enabled. */
  noChannel: '未开启在线收款，会员看不到',
  /** The members' page, when the store takes no payment online. */
  closed: '本店暂未开放线上购卡，请到前台办理',
} as const;

/** The field a product sold online lacks for members to buy it, with its message; null: it can be sold. */
export function onlineSaleProblem(p: {
  bigType: number;
  cardType: number;
  totalCount: number | null;
  validDays: number | null;
  onlinePrice: number;
}): { field: 'totalCount' | 'validDays' | 'onlinePrice'; msg: string } | null {
  if (p.totalCount === null || p.totalCount <= 0)
    return { field: 'totalCount', msg: OnlineSaleMsg.totalCount(p.bigType) };
  if (p.cardType !== 2 && !p.validDays) return { field: 'validDays', msg: OnlineSaleMsg.validDays };
  if (!(p.onlinePrice > 0)) return { field: 'onlinePrice', msg: OnlineSaleMsg.onlinePrice };
  return null;
}
const onlineSaleErrors = fails.badRequest(
  OnlineSaleMsg.totalCount(1),
  OnlineSaleMsg.totalCount(2),
  OnlineSaleMsg.validDays,
  OnlineSaleMsg.onlinePrice,
);

/** 销售员 of a sale, a top-up or a 扫码收款 (issue 42, item 12): whom the sales commission counts. */
export const SellerMsg = {
  choose: '请选择销售员',
  disabled: '该员工已停用，不能作为销售员',
  notSale: '只有售卡和充值的收款可以更改销售员',
  /** A sale whose month's commission is closed keeps its seller until the month is reopened. */
  monthClosed: (month: string) =>
    `${month} 的销售提成已结算关闭，不能更改这笔收款的销售员；如需修改请店长先重新打开该月`,
} as const;
/** The 销售员: any staff member of the store (absent: who is signed in). */
export const zSellerId = () => zId(SellerMsg.choose).optional();
/** What a call naming a seller may be refused for. */
export const sellerErrors = [...fails.badRequest(SellerMsg.disabled), ...fails.notFound('销售员')];

const zPayMethod = z.enum(Object.keys(PAY_METHODS) as [PayMethod, ...PayMethod[]], { error: CardMsg.payMethod });
/** Money taken at the desk (fen), how, and a remark. A record, not payment processing. */
export const zPayment = z.object({
  amount: zAmount('收款金额', MAX_AMOUNT),
  method: zPayMethod,
  remark: zNullableText(200),
});
export type Payment = z.infer<typeof zPayment>;

/** Largest charge per person per class (a count, or fen: 100 万元). */
const MAX_PER_COUNT = 100_000_000;

export const zMemberCardRow = z.object({
  id: z.number(),
  cardId: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  totalCount: z.number(),
  usedCount: z.number(),
  expireTime: z.string().nullable(),
  frozen: z.number(),
  /** When the card was refunded whole (it books nothing and takes no top-up since), else null. */
  refundedAt: z.string().nullable(),
  /** When it was sold. */
  createdAt: z.string(),
  /** Its product's 开卡方式 (issue 29). */
  activation: z.enum(CARD_ACTIVATIONS),
  /** When it starts or started; null: 首次上课开卡 not started (未开卡, like a start still to come). */
  activateTime: z.string().nullable(),
  /** 首次上课开卡 not started: the latest day it starts without a class. */
  activateBy: z.string().nullable(),
  /** Days of leave taken, and its approved leaves (请假中 while today is inside one). */
  leaveDays: z.number(),
  leaves: z.array(z.object({ fromDate: z.string(), toDate: z.string() })),
  /** 多人共享: the members besides the holder who book on it. */
  sharedWith: z.array(z.object({ id: z.number(), name: z.string(), mobile: z.string() })),
  /** Its product's 共享人数 (0: not shared). */
  shareMax: z.number(),
});
export type MemberCardRow = z.infer<typeof zMemberCardRow>;

export const zCardProduct = z.object({
  id: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  price: z.number(),
  /** What the issue form starts from: a count, or fen; null = nothing to prefill. */
  totalCount: z.number().nullable(),
  /** Days a card of this product is valid from its issue; null = the desk picks the date. */
  validDays: z.number().nullable(),
  enabled: z.number(),
  courses: z.array(z.object({ id: z.number(), name: z.string() })),
  /** 线上售卖: members may buy it on their phone at `onlinePrice` (fen). */
  onlineSale: z.number(),
  onlinePrice: z.number(),
  /** 体验卡: sold online once per member. */
  trial: z.number(),
  /** 开卡方式 (issue 29): 'sale' 售卡即开卡, 'first_class' 首次上课开卡, 'date' 指定日期开卡 (on `activationDate`). */
  activation: z.enum(CARD_ACTIVATIONS),
  activationDate: z.string().nullable(),
  /** 指定日期开卡, sold after that day (1): the card starts on the day of sale, and it is still sold online. */
  lateSaleStartsToday: z.number(),
  /** The day a card of it sold today (store time) starts; null: 首次上课开卡 (its first class starts it). */
  startsIfSoldToday: z.string().nullable(),
  /** 首次上课开卡: the card starts at most this many days after the sale. */
  activateWithinDays: z.number(),
  /** 请假: allowed (0/1); times per card, most days per leave, most days in total (null: no limit). */
  leaveAllowed: z.number(),
  leaveTimes: z.number().nullable(),
  leaveDaysMax: z.number().nullable(),
  leaveDaysTotal: z.number().nullable(),
  /** 每日上限 / 每周上限: classes a card of it may book per day / week (null: no cap). */
  maxPerDay: z.number().nullable(),
  maxPerWeek: z.number().nullable(),
  /** 退卡手续费比例 (0-100): after the cooling-off days, the refund keeps this percent of the amount paid. */
  refundFeePercent: z.number(),
  /** 共享人数 (多人共享): members besides the holder who may book on a card of it; 0 = not shared. */
  shareMax: z.number(),
  /** 私教课包 (issue 43): only this teacher's lessons, or only lessons of teachers at this level (null: any). */
  teacherId: z.number().nullable(),
  teacherLevel: z.enum(TEACHER_LEVELS).nullable(),
});

/** An optional whole number `min..max`; null: no limit; omitted: the default (new) or unchanged (update). */
const zLimit = (label: string, min: number, max: number) => {
  const msg = `${label}应在${min}到${max}之间`;
  return z.number({ error: msg }).int(msg).min(min, msg).max(max, msg).nullable().optional();
};

/** The card-life fields of a product (issue 29); each optional: a new product's default, unchanged on update. */
const zProductLifeFields = {
  activation: z.enum(CARD_ACTIVATIONS, { error: CardLifeProductMsg.activation }).optional(),
  /** For 'date': the day the cards start. */
  activationDate: zDate(CardLifeProductMsg.activationDate).nullable().optional(),
  /** For 'date': 1, a card sold after that day starts on the day of sale (开卡日期已过时，售出当天开卡). */
  lateSaleStartsToday: zFlag().optional(),
  activateWithinDays: z
    .number({ error: CardLifeProductMsg.activateWithin })
    .int(CardLifeProductMsg.activateWithin)
    .min(1, CardLifeProductMsg.activateWithin)
    .max(3650, CardLifeProductMsg.activateWithin)
    .optional(),
  leaveAllowed: zFlag().optional(),
  leaveTimes: zLimit('请假次数', 1, 100),
  leaveDaysMax: zLimit('单次请假天数', 1, 3650),
  leaveDaysTotal: zLimit('累计请假天数', 1, 3650),
  maxPerDay: zLimit('每日上限', 1, 100),
  maxPerWeek: zLimit('每周上限', 1, 700),
  refundFeePercent: z
    .number({ error: CardLifeProductMsg.refundFee })
    .int(CardLifeProductMsg.refundFee)
    .min(0, CardLifeProductMsg.refundFee)
    .max(100, CardLifeProductMsg.refundFee)
    .optional(),
  shareMax: z
    .number({ error: CardLifeProductMsg.shareMax })
    .int(CardLifeProductMsg.shareMax)
    .min(0, CardLifeProductMsg.shareMax)
    .max(MAX_SHARE, CardLifeProductMsg.shareMax)
    .optional(),
};

const zProductFields = {
  ...zProductLifeFields,
  cardName: zName(RefMsg.cardName),
  bigType: z.union([z.literal(1), z.literal(2)], { error: '卡类别只能是1（次卡）或2（储值卡）' }),
  cardType: z.union([z.literal(1), z.literal(2)], { error: '有效期类型只能是1（有期限）或2（永久有效）' }),
  perCount: zAmount('每次扣除数量', MAX_PER_COUNT),
  price: zAmount('价格', MAX_AMOUNT),
  totalCount: zAmount('默认卡内数量', MAX_AMOUNT)
    .nullish()
    .transform((v) => v ?? null),
  validDays: z
    .number({ error: CardMsg.validDays })
    .int(CardMsg.validDays)
    .min(1, CardMsg.validDays)
    .max(3650, CardMsg.validDays)
    .nullish()
    .transform((v) => v ?? null),
  courseIds: zIdList('课程不正确'),
  /** 线上售卖 (0/1; omitted: 0 for a new product, unchanged on update). */
  onlineSale: zFlag().optional(),
  /** The online price in fen (omitted: 0 for a new product, unchanged on update). */
  onlinePrice: zAmount('线上价格', MAX_AMOUNT).optional(),
  /** 体验卡 (0/1): sold online once per member. */
  trial: zFlag().optional(),
  /**
   * 私教课包 (issue 43): the lessons of one teacher only, or of teachers at one level only (null: any;
   * omitted: none for a new product, unchanged on update). Not both.
   */
  teacherId: zId('请选择老师').nullable().optional(),
  teacherLevel: z.enum(TEACHER_LEVELS, { error: LessonMsg.level }).nullable().optional(),
};

export const cardProductList = defineCall({
  path: `${STORE_API}/query/card/product/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: z.array(zCardProduct),
  summary: '卡种列表',
  example: {},
});

export const insertCardProduct = defineCall({
  path: `${STORE_API}/insert/card/product`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object(zProductFields),
  res: z.object({ id: z.number() }),
  idFields: ['courseIds', 'teacherId'],
  summary: '新增卡种（次卡或储值卡）及其可约课程（私教课包可限定老师或老师级别）',
  example: { cardName: '十次卡', bigType: 1, cardType: 1, perCount: 1, price: 100000, courseIds: [1] },
  errors: [
    ...fails.badRequest(CardLifeProductMsg.activationDate, CardLifeProductMsg.leaveDaysOrder, CardMsg.packTeacher),
    ...onlineSaleErrors,
    ...fails.notFound('课程', '老师'),
  ],
});

export const updateCardProduct = defineCall({
  path: `${STORE_API}/update/card/product`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择卡种'), ...zProductFields }),
  res: z.null(),
  idFields: ['id', 'courseIds', 'teacherId'],
  summary: '修改卡种',
  example: { id: 1, cardName: '十次卡', bigType: 1, cardType: 1, perCount: 1, price: 100000, courseIds: [1] },
  errors: [
    ...fails.badRequest(CardLifeProductMsg.activationDate, CardLifeProductMsg.leaveDaysOrder, CardMsg.packTeacher),
    ...onlineSaleErrors,
    ...fails.notFound('卡种', '课程', '老师'),
    ...fails.conflict(RefMsg.bigTypeLocked),
  ],
});

export const deleteCardProduct = defineCall({
  path: `${STORE_API}/delete/card/product`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择卡种') }),
  res: z.null(),
  idFields: ['id'],
  summary: '停用卡种（已发的卡不受影响）',
  example: { id: 1 },
  errors: fails.notFound('卡种'),
});

export const insertMemberCard = defineCall({
  path: `${STORE_API}/insert/member/card`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    mid: zId('请选择会员'),
    cardId: zId('请选择卡种'),
    totalCount: zAmount('卡内数量', MAX_AMOUNT),
    expireTime: zDate()
      .nullish()
      .transform((v) => v ?? null),
    /** What the member paid for the card (the desk's record; reports count it as money received). */
    payment: zPayment.optional(),
    /** 销售员 of the sale (absent: who is signed in); the sales commission counts them. */
    sellerId: zSellerId(),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['mid', 'cardId', 'sellerId'],
  summary: '给会员发卡（售卡：可记录收款金额、收款方式和销售员，销售员默认当前登录员工）',
  example: {
    mid: 1,
    cardId: 1,
    totalCount: 10,
    expireTime: '2026-12-31',
    payment: { amount: 100000, method: 'wechat', remark: null },
    sellerId: 2,
  },
  errors: [
    ...fails.badRequest(RefMsg.expireRequired, CardMsg.payMethod),
    ...fails.notFound('会员', '卡种'),
    ...fails.conflict(CardMsg.trialOnce),
    ...sellerErrors,
    ...prepaidLimitErrors,
  ],
});

export const updateMemberCardStatus = defineCall({
  path: `${STORE_API}/update/member/card/status`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择会员卡'), frozen: zFlag() }),
  res: z.null(),
  idFields: ['id'],
  summary: '冻结或解冻会员卡',
  example: { id: 1, frozen: 1 },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(CardMsg.refunded)],
});

export const topupMemberCard = defineCall({
  path: `${STORE_API}/update/member/card/topup`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    id: zId('请选择会员卡'),
    amount: z.number({ error: RefMsg.topupAmount }).int(RefMsg.topupAmount).min(1, RefMsg.topupAmount).max(MAX_AMOUNT),
    /** What the member paid for the top-up. */
    payment: zPayment.optional(),
    /** 销售员 of the top-up (absent: who is signed in); the sales commission counts them. */
    sellerId: zSellerId(),
  }),
  res: z.null(),
  idFields: ['id', 'sellerId'],
  summary: '会员卡充值（次数或金额，分；可记录收款和销售员，销售员默认当前登录员工）',
  example: { id: 1, amount: 10, payment: { amount: 50000, method: 'cash', remark: null }, sellerId: 2 },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(CardMsg.refunded), ...sellerErrors, ...prepaidLimitErrors],
});

export const refundMemberCard = defineCall({
  path: `${STORE_API}/refund/member/card`,
  kind: 'write',
  auth: 'store',
  // The desk refunds a whole card within the cooling-off days (issue 29); anything else is the manager's (403).
  roles: Roles.desk,
  req: z.object({
    id: zId('请选择会员卡'),
    /** The ledger id of a top-up to pay back; absent: refund the whole unused card. */
    topupId: zId('请选择充值记录').optional(),
    /** What is paid back to the member (fen), how, and why. */
    amount: zAmount('退款金额', MAX_AMOUNT),
    method: zPayMethod,
    remark: zNullableText(200),
  }),
  res: z.null(),
  idFields: ['id', 'topupId'],
  summary:
    '退卡（整张卡，金额不超过退卡报价：冷静期内未使用全额，之后按卡种规则；冷静期外需店长）或退回一笔充值（店长），记录退款金额',
  example: { id: 1, amount: 100000, method: 'cash', remark: '会员搬家' },
  errors: [
    ...fails.badRequest(CardMsg.payMethod),
    ...fails.notFound('会员卡', '充值记录'),
    ...fails.conflict(
      CardMsg.refunded,
      CardMsg.topupRefunded,
      CardMsg.topupBalance,
      CardMsg.notTopup,
      CardMsg.refundTooMuch,
      CardMsg.changed,
      CardMsg.openTopup('{订单号}'),
      CardMsg.refundAboveQuote('{金额}'),
      CardMsg.refundOpenBookings,
      CardMsg.topupOnline('{订单号}'),
      CardMsg.cardOnline('{订单号}'),
      CardMsg.refundOnlineFirst('{订单号}'),
    ),
    { status: 403, msg: CardMsg.refundManager },
    { status: 403, msg: CardMsg.refundOpened },
    { status: 403, msg: CardMsg.topupManager },
  ],
});

export const zPaymentRow = z.object({
  id: z.number(),
  memberCardId: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  /** sale | topup | refund */
  kind: z.string(),
  /** Fen, positive; a refund is money paid back. */
  amount: z.number(),
  method: z.string(),
  staff: z.string().nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
});
export type PaymentRow = z.infer<typeof zPaymentRow>;

export const memberPayments = defineCall({
  path: `${STORE_API}/query/member/payments`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mid: zId('请选择会员') }),
  res: z.array(zPaymentRow),
  idFields: ['mid'],
  summary: '会员的收款记录（售卡、充值、退款）',
  example: { mid: 1 },
  errors: fails.notFound('会员'),
});

export const updateMemberCardExpire = defineCall({
  path: `${STORE_API}/update/member/card/expire`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择会员卡'), expireTime: zDate(RefMsg.expireRequired) }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改会员卡到期日期',
  example: { id: 1, expireTime: '2026-12-31' },
  errors: [...fails.notFound('会员卡'), ...fails.conflict(CardMsg.refunded)],
});

export const memberCardLedger = defineCall({
  path: `${STORE_API}/query/member/card/ledger`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择会员卡') }),
  res: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      amount: z.number(),
      reservationId: z.number().nullable(),
      timetableId: z.number().nullable(),
      /** The session the entry belongs to (deleted ones too), in the same answer (no call per row). */
      session: z.object({ courseName: z.string(), startTime: z.string() }).nullable(),
      operator: z.string().nullable(),
      remark: z.string().nullable(),
      createdAt: z.string(),
      /** The money taken or paid back with this entry (a sale, a top-up, a refund), else null. */
      payment: z.object({ amount: z.number(), method: z.string() }).nullable(),
      /** For a top-up: whether it has been paid back already. */
      refunded: z.boolean(),
      /** Who booked the class the entry is for (a shared card's member, 多人共享, or the holder); null: no booking. */
      bookedBy: z.string().nullable(),
      /** The online order that paid this entry (a top-up or sale paid online), else null: refunded from 线上订单 only. */
      onlineOrderNo: z.string().nullable(),
    }),
  ),
  idFields: ['id'],
  summary: '会员卡流水（发卡、充值、扣费、退回、退款）',
  example: { id: 1 },
  errors: fails.notFound('会员卡'),
});

export const cardCalls = [
  cardProductList,
  insertCardProduct,
  updateCardProduct,
  deleteCardProduct,
  insertMemberCard,
  updateMemberCardStatus,
  topupMemberCard,
  updateMemberCardExpire,
  memberCardLedger,
  refundMemberCard,
  memberPayments,
] as const;
