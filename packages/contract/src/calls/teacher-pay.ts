// Teacher pay (课时费) and sales commission (销售提成), issue 30 items 1-4 (server: features/teacher-pay).
import { z } from 'zod';
import { zDate, zEmpty, zId, zOptId } from '../common.ts';
import { MAX_COUNT } from '../constants.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { SellerMsg, sellerErrors } from './reference/card.ts';
import { LESSON_KINDS, TEACHER_LEVEL_LABEL, TEACHER_LEVELS, type TeacherLevel } from './lessons.ts';

/** How a rule pays a class. */
export const PAY_RULE_KINDS = ['per_class', 'per_head_came', 'per_head_booked', 'tiered'] as const;
export type PayRuleKind = (typeof PAY_RULE_KINDS)[number];
export const PAY_RULE_KIND_LABEL: Record<PayRuleKind, string> = {
  per_class: '按节固定',
  per_head_came: '按到课人数',
  per_head_booked: '按预约人数',
  tiered: '按人数阶梯',
};
/** Which heads a tiered rule counts: who came (签到/到店), or who booked. */
export const PAY_HEADS = ['came', 'booked'] as const;
export type PayHeads = (typeof PAY_HEADS)[number];
export const PAY_HEADS_LABEL: Record<PayHeads, string> = { came: '到课人数', booked: '预约人数' };
/** The most tiers a rule has. */
export const PAY_TIERS_MAX = 20;
/** One class or head pays at most 100,000 yuan; a month's adjustment at most 1,000,000 yuan either way. */
export const PAY_AMOUNT_MAX = 10_000_000;
export const PAY_ADJUSTMENT_MAX = 100_000_000;
/** Commission rates are percents with up to two decimals (stored in hundredths of a percent). */
export const COMMISSION_RATE_MAX = 100;

export const TeacherPayMsg = {
  chooseTeacher: '请选择老师',
  chooseKind: '请选择计费方式',
  amount: '请填写金额（元，最多两位小数）',
  minimum: '保底金额应为0或正数（元）',
  fromDate: '请选择生效日期',
  month: '请选择月份（YYYY-MM）',
  tierHeads: '阶梯人数应为1以上的整数',
  tiersNeeded: '按人数阶梯计费至少需要一档',
  tiersTooMany: `人数阶梯最多${PAY_TIERS_MAX}档`,
  tiersDuplicate: '人数阶梯的起始人数不能重复',
  adjustment: '请填写调整金额（元，可为负数，不能为0）',
  reason: '请填写原因',
  reopenReason: '请填写重新打开的原因',
  rate: `提成比例应为0-${COMMISSION_RATE_MAX}之间的数（最多两位小数）`,
  chooseStaff: '请选择员工',
  perConversion: '每成交一位潜客的提成应为0或正数（元，最多两位小数）',
  /** A month that is closed: what cannot change in it. */
  monthClosed: (month: string) => `${month} 已结算关闭，不能修改；如需修改请店长先重新打开该月`,
  /** A session of a closed month moved or given another teacher. */
  sessionInClosedMonth: (month: string) =>
    `${month} 的课时费已结算关闭，不能修改该月课程的老师或上课时间；如需修改请店长先重新打开该月`,
  /** A rule starting inside a closed month. */
  ruleInClosedMonth: (month: string) =>
    `${month} 的课时费已结算关闭，规则的生效日期不能在已关闭的月份内；请选择之后的日期，或请店长先重新打开该月`,
  alreadyClosed: (month: string) => `${month} 已经结算关闭`,
  notClosed: (month: string) => `${month} 尚未结算关闭`,
  notEnded: (month: string) => `${month} 尚未结束，月末之后才能结算关闭`,
  /** Classes of the month no rule pays (they count 0): closing asks to confirm, naming them (the first ten). */
  unruledClasses: (month: string, classes: readonly string[]) => {
    const all = Array.isArray(classes) ? classes : [];
    const shown = all.slice(0, 10).join('、');
    return `${month} 有 ${all.length} 节课没有课时费规则（按 0 元计）：${all.length > 10 ? `${shown} 等 ${all.length} 节` : shown}。确认仍要结算关闭吗？`;
  },
  ruleTaken: '该老师在这一天已有相同课程范围的规则，请直接修改它',
  /** A teacher level on a rule that is not for 私教/小班. */
  levelNotLesson: '只有私教/小班的规则可以按老师级别设置',
  level: '请选择老师级别（初级、高级、导师）',
} as const;

/** A rule's scope in words: 瑜伽 / 全部课程 / 全部私教/小班, and 高级 when for one teacher level. */
export const payRuleScopeText = (r: { courseName: string | null; lessons: number; level: TeacherLevel | null }) =>
  `${r.courseName ?? (r.lessons ? '全部私教/小班' : '全部课程')}${r.level ? `（${TEACHER_LEVEL_LABEL[r.level]}）` : ''}`;

/** One class without a rule, as the closing confirm names it: `10-08 11:00 动感单车（孙老师）`. */
export const unruledClassText = (c: { date: string; time: string; courseName: string; teacherName: string }) =>
  `${String(c.date).slice(5)} ${c.time} ${c.courseName}（${c.teacherName}）`;

/** `YYYY-MM`. */
export const zMonth = () =>
  z
    .string({ error: TeacherPayMsg.month })
    .regex(/^(19\d\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])$/, { error: TeacherPayMsg.month });

const zFen = (error: string, max = PAY_AMOUNT_MAX) =>
  z.number({ error }).int({ error }).min(0, { error }).max(max, { error });

export const zPayTier = z.object({
  /** The tier starts at this many heads (the first tier below it pays nothing, before the minimum). */
  minHeads: z
    .number({ error: TeacherPayMsg.tierHeads })
    .int({ error: TeacherPayMsg.tierHeads })
    .min(1, { error: TeacherPayMsg.tierHeads })
    .max(MAX_COUNT, { error: TeacherPayMsg.tierHeads }),
  /** Fen per class. */
  amount: zFen(TeacherPayMsg.amount),
});
export type PayTier = z.infer<typeof zPayTier>;

/**
 * A rule for 私教/小班 (issue 43, item 7): `lessons` 1 with no course, every lesson type of the
 * teacher (全部私教/小班; with a course it is that course's rule either way); `level` a lesson rule
 * for the teacher's level of the type only (null: any level).
 */
const zLessonScope = {
  lessons: z
    .number({ error: TeacherPayMsg.chooseKind })
    .int({ error: TeacherPayMsg.chooseKind })
    .min(0, { error: TeacherPayMsg.chooseKind })
    .max(1, { error: TeacherPayMsg.chooseKind })
    .default(0),
  level: z.enum(TEACHER_LEVELS, { error: TeacherPayMsg.level }).nullable().default(null),
};

const zRuleFields = z
  .object({
    teacherId: zId(TeacherPayMsg.chooseTeacher),
    /** A course the rule is for (overrides the teacher's all-courses rule); null/0: every course. */
    courseId: zOptId(),
    ...zLessonScope,
    kind: z.enum(PAY_RULE_KINDS, { error: TeacherPayMsg.chooseKind }),
    /** Fen per class (per_class) or per head (per_head_*); unused by tiered. */
    amount: zFen(TeacherPayMsg.amount).default(0),
    tiers: z.array(zPayTier).max(PAY_TIERS_MAX, TeacherPayMsg.tiersTooMany).default([]),
    /** What tiers count (tiered only): who came (default) or who booked. */
    heads: z.enum(PAY_HEADS, { error: TeacherPayMsg.chooseKind }).default('came'),
    /** A class pays at least this (fen). */
    minimum: zFen(TeacherPayMsg.minimum).default(0),
    /** The rule applies to classes on and after this date (until a later rule of the same scope). */
    fromDate: zDate(TeacherPayMsg.fromDate),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== 'tiered') return;
    if (!v.tiers.length) ctx.addIssue({ code: 'custom', path: ['tiers'], message: TeacherPayMsg.tiersNeeded });
    else if (v.tiers.length > PAY_TIERS_MAX)
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: TeacherPayMsg.tiersTooMany });
    else if (new Set(v.tiers.map((t) => t.minHeads)).size !== v.tiers.length)
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: TeacherPayMsg.tiersDuplicate });
  });
const ruleRefinements = fails.badRequest(
  TeacherPayMsg.tiersNeeded,
  TeacherPayMsg.tiersTooMany,
  TeacherPayMsg.tiersDuplicate,
);

export const zPayRule = z.object({
  id: z.number().int(),
  teacherId: z.number().int(),
  teacherName: z.string(),
  courseId: z.number().int().nullable(),
  courseName: z.string().nullable(),
  /** 1: 全部私教/小班 (no course); a lesson rule's teacher level, or null. */
  lessons: z.number().int(),
  level: z.enum(TEACHER_LEVELS).nullable(),
  /** The scope in words (瑜伽 / 全部课程 / 全部私教/小班（高级）). */
  scope: z.string(),
  kind: z.enum(PAY_RULE_KINDS),
  amount: z.number().int(),
  tiers: z.array(zPayTier),
  heads: z.enum(PAY_HEADS),
  minimum: z.number().int(),
  fromDate: z.string(),
  /** The rule in words (按节固定 ¥80.00, 保底 ¥50.00...). */
  summary: z.string(),
});
export type PayRule = z.infer<typeof zPayRule>;

export const queryTeacherPayRuleList = defineCall({
  path: `${STORE_API}/query/teacher/pay/rule/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ teacherId: zOptId() }),
  res: z.array(zPayRule),
  idFields: ['teacherId'],
  summary: '课时费规则：每位老师的规则（全部课程与单独课程），按生效日期',
  example: { teacherId: 1 },
  errors: fails.notFound('老师'),
});

export const updateTeacherPayRule = defineCall({
  path: `${STORE_API}/update/teacher/pay/rule`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zRuleFields,
  res: z.null(),
  idFields: ['teacherId', 'courseId'],
  summary:
    '设置老师的课时费规则（按节固定、按到课人数、按预约人数、按人数阶梯；保底；单独课程优先于全部课程），从生效日期起适用；私教/小班可设某一课程类型或全部私教/小班，并可只适用于老师的某一级别（初级、高级、导师）；同一老师、课程范围、级别、生效日期再次设置即修改',
  example: { teacherId: 1, courseId: null, kind: 'per_class', amount: 8000, minimum: 0, fromDate: '2026-11-01' },
  errors: [
    ...ruleRefinements,
    ...fails.badRequest(TeacherPayMsg.levelNotLesson),
    ...fails.notFound('老师', '课程'),
    ...fails.conflict(TeacherPayMsg.ruleInClosedMonth('{月份}')),
  ],
});

export const deleteTeacherPayRule = defineCall({
  path: `${STORE_API}/delete/teacher/pay/rule`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    teacherId: zId(TeacherPayMsg.chooseTeacher),
    courseId: zOptId(),
    ...zLessonScope,
    fromDate: zDate(TeacherPayMsg.fromDate),
  }),
  res: z.null(),
  idFields: ['teacherId', 'courseId'],
  summary:
    '删除老师某一课程范围（课程、全部课程或全部私教/小班，及老师级别）、某一生效日期的课时费规则（没有则不变；生效日期在已关闭月份内的不能删除）',
  example: { teacherId: 1, courseId: null, fromDate: '2026-11-01' },
  errors: [...fails.notFound('老师', '课程'), ...fails.conflict(TeacherPayMsg.ruleInClosedMonth('{月份}'))],
});

export const zPayStatementRow = z.object({
  tid: z.number().int(),
  date: z.string(),
  /** `HH:mm` start. */
  time: z.string(),
  courseId: z.number().int(),
  courseName: z.string(),
  /** 1: an online class (counted like one in the studio). */
  online: z.number().int(),
  /** A 私教/小班 lesson: its kind (1对1, 1对2, 小班), and the teacher's level for its type; null for a group class. */
  lesson: z.enum(LESSON_KINDS).nullable(),
  level: z.enum(TEACHER_LEVELS).nullable(),
  /** Seats taken by live bookings. */
  booked: z.number().int(),
  /** People who came (signed in, or marked 到店). */
  came: z.number().int(),
  /** The rule applied (null: the teacher has no rule for that day), and in words. */
  ruleId: z.number().int().nullable(),
  rule: z.string(),
  /** Fen. */
  amount: z.number().int(),
});
export type PayStatementRow = z.infer<typeof zPayStatementRow>;

export const zPayAdjustment = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  /** Who added it, and when (store-local `YYYY-MM-DD HH:mm:ss`). */
  staffName: z.string(),
  createdAt: z.string(),
});
export type PayAdjustment = z.infer<typeof zPayAdjustment>;

export const zTeacherStatement = z.object({
  teacherId: z.number().int(),
  teacherName: z.string(),
  rows: z.array(zPayStatementRow),
  adjustments: z.array(zPayAdjustment),
  /** Fen: the classes, the adjustments, both. */
  classTotal: z.number().int(),
  adjustmentTotal: z.number().int(),
  total: z.number().int(),
});
export type TeacherStatement = z.infer<typeof zTeacherStatement>;

/** Who closed a month and when (null: open). */
export const zMonthClosing = z.object({ closedAt: z.string(), closedBy: z.string() }).nullable();

export const zTeacherPayStatement = z.object({
  month: z.string(),
  teachers: z.array(zTeacherStatement),
  /** The month is closed: this is the statement as it was closed, and it no longer changes. */
  closed: z.boolean(),
  closing: zMonthClosing,
  total: z.number().int(),
});
export type TeacherPayStatement = z.infer<typeof zTeacherPayStatement>;

export const queryTeacherPayStatement = defineCall({
  path: `${STORE_API}/query/teacher/pay/statement`,
  kind: 'read',
  auth: 'store',
  roles: ['manager', 'teacher'],
  req: z.object({ month: zMonth(), teacherId: zOptId() }),
  res: zTeacherPayStatement,
  idFields: ['teacherId'],
  summary:
    '课时费月结单：每位老师（或一位）当月所上的每节课与私教/小班（日期、时间、课程、1对1/1对2/小班与老师级别、预约与到课人数、所用规则、金额）、调整与合计；老师账号只能查看自己的',
  example: { month: '2026-11', teacherId: null },
  errors: fails.notFound('老师'),
});

export const addTeacherPayAdjustment = defineCall({
  path: `${STORE_API}/add/teacher/pay/adjustment`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    teacherId: zId(TeacherPayMsg.chooseTeacher),
    month: zMonth(),
    /** Fen, either sign, not 0. */
    amount: z
      .number({ error: TeacherPayMsg.adjustment })
      .int({ error: TeacherPayMsg.adjustment })
      .min(-PAY_ADJUSTMENT_MAX, { error: TeacherPayMsg.adjustment })
      .max(PAY_ADJUSTMENT_MAX, { error: TeacherPayMsg.adjustment })
      .refine((n) => n !== 0, { error: TeacherPayMsg.adjustment }),
    reason: z.string({ error: TeacherPayMsg.reason }).trim().min(1, { error: TeacherPayMsg.reason }).max(200),
  }),
  res: z.object({ id: z.number().int() }),
  idFields: ['teacherId'],
  summary: '课时费调整：给老师某月加上或扣减一笔金额（写明原因），列在月结单下',
  example: { teacherId: 1, month: '2026-11', amount: 5000, reason: '代课交通补贴' },
  errors: [...fails.notFound('老师'), ...fails.conflict(TeacherPayMsg.monthClosed('{月份}'))],
});

const zCloseMonth = z.object({ month: zMonth() });
const zCloseTeacherMonth = z.object({
  month: zMonth(),
  /** The manager saw the classes without a rule and closes anyway (they count 0). */
  confirmed: z.boolean().optional(),
});
const zReopenMonth = z.object({
  month: zMonth(),
  reason: z.string({ error: TeacherPayMsg.reopenReason }).trim().min(1, { error: TeacherPayMsg.reopenReason }).max(200),
});
const closeErrors = fails.conflict(TeacherPayMsg.alreadyClosed('{月份}'), TeacherPayMsg.notEnded('{月份}'));

export const closeTeacherPayMonth = defineCall({
  path: `${STORE_API}/close/teacher/pay/month`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zCloseTeacherMonth,
  res: z.null(),
  summary:
    '结算并关闭某月课时费：月结单就此定格，之后该月课程的老师、时间与规则都不能再改；该月有课没有规则时须 confirmed: true（否则 409 列出这些课）',
  example: { month: '2026-10', confirmed: false },
  errors: [...closeErrors, ...fails.conflict(TeacherPayMsg.unruledClasses('{月份}', ['{课程}']))],
});

export const reopenTeacherPayMonth = defineCall({
  path: `${STORE_API}/reopen/teacher/pay/month`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zReopenMonth,
  res: z.null(),
  summary: '重新打开已关闭的课时费月份（店长，须写明原因，记入操作日志）',
  example: { month: '2026-10', reason: '漏记一节代课' },
  errors: fails.conflict(TeacherPayMsg.notClosed('{月份}')),
});

// ---- sales commission -----------------------------------------------------------------

/** A percent with at most two decimals, 0-100. */
const zRate = z
  .number({ error: TeacherPayMsg.rate })
  .min(0, { error: TeacherPayMsg.rate })
  .max(COMMISSION_RATE_MAX, { error: TeacherPayMsg.rate })
  .refine((r) => Math.abs(Math.round(r * 100) - r * 100) < 1e-6, { error: TeacherPayMsg.rate });

export const zCommissionRate = z.object({
  staffId: z.number().int(),
  name: z.string(),
  role: z.string(),
  enabled: z.number().int(),
  /** Percent. */
  rate: z.number(),
  /** Fen for each lead (潜客) of theirs converted (已成交) in a month; 0 none. */
  perConversion: z.number().int(),
});

export const querySalesCommissionRateList = defineCall({
  path: `${STORE_API}/query/sales/commission/rate/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: z.array(zCommissionRate),
  summary: '销售提成比例：门店每位员工的提成百分比',
  example: {},
});

export const updateSalesCommissionRate = defineCall({
  path: `${STORE_API}/update/sales/commission/rate`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    staffId: zId(TeacherPayMsg.chooseStaff),
    rate: zRate,
    /** Fen for each lead of theirs converted in a month (issue 44, item 4); left out: unchanged. */
    perConversion: zFen(TeacherPayMsg.perConversion).optional(),
  }),
  res: z.null(),
  idFields: ['staffId'],
  summary:
    '设置员工的销售提成比例（百分比，最多两位小数）与每成交一位潜客的提成（分，不填不变）；未关闭的月份按新设置计算',
  example: { staffId: 1, rate: 5, perConversion: 5000 },
  errors: fails.notFound('员工'),
});

export const zCommissionItem = z.object({
  /** The money record (card_payment). */
  id: z.number().int(),
  time: z.string(),
  /** sale 售卡 | topup 充值 | refund 退款 */
  kind: z.enum(['sale', 'topup', 'refund']),
  memberId: z.number().int(),
  memberName: z.string(),
  cardName: z.string(),
  /** Fen, positive; a refund counts against the seller. */
  amount: z.number().int(),
  method: z.string(),
  /** desk | online (an order paid through a provider: the desk's 扫码收款 names its staff). */
  channel: z.string(),
});
export type CommissionItem = z.infer<typeof zCommissionItem>;

/** A lead (潜客) converted (已成交) in the month, credited to the seller who owned it then. */
export const zCommissionConversion = z.object({
  leadId: z.number().int(),
  name: z.string(),
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  convertedAt: z.string(),
  /** The card whose sale converted it. */
  cardName: z.string(),
});
export type CommissionConversion = z.infer<typeof zCommissionConversion>;

export const zCommissionRow = z.object({
  staffId: z.number().int(),
  name: z.string(),
  /** Fen received for the cards and top-ups they sold in the month. */
  sales: z.number().int(),
  /** Fen paid back in the month for cards and top-ups they sold. */
  refunds: z.number().int(),
  /** Percent. */
  rate: z.number(),
  /** Leads of theirs converted in the month, and the fen each pays (the rate's setting). */
  conversions: z.array(zCommissionConversion),
  perConversion: z.number().int(),
  /** Fen: conversions x perConversion. */
  conversionPay: z.number().int(),
  /** Fen: (sales - refunds) x rate, rounded to the fen, plus conversionPay. */
  commission: z.number().int(),
  items: z.array(zCommissionItem),
});
export type CommissionRow = z.infer<typeof zCommissionRow>;

export const querySalesCommission = defineCall({
  path: `${STORE_API}/query/sales/commission`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ month: zMonth() }),
  res: z.array(zCommissionRow),
  summary:
    '销售提成月结：每位销售员工当月售卡与充值的收款、其售出卡的退款、提成比例、当月成交的潜客（每位按设置的金额）与提成，附每一笔；线上自助订单没有销售员工，不计',
  example: { month: '2026-11' },
});

export const closeSalesCommissionMonth = defineCall({
  path: `${STORE_API}/close/sales/commission/month`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zCloseMonth,
  res: z.null(),
  summary: '结算并关闭某月销售提成：月结单就此定格',
  example: { month: '2026-10' },
  errors: closeErrors,
});

export const reopenSalesCommissionMonth = defineCall({
  path: `${STORE_API}/reopen/sales/commission/month`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zReopenMonth,
  res: z.null(),
  summary: '重新打开已关闭的销售提成月份（店长，须写明原因，记入操作日志）',
  example: { month: '2026-10', reason: '退款记错了月份' },
  errors: fails.conflict(TeacherPayMsg.notClosed('{月份}')),
});

export const updateSaleSeller = defineCall({
  path: `${STORE_API}/update/sale/seller`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    /** The money record (card_payment) of a sale or top-up: the commission's item id. */
    id: zId('请选择收款记录'),
    sellerId: zId(SellerMsg.choose),
  }),
  res: z.null(),
  idFields: ['id', 'sellerId'],
  summary:
    '更改一笔售卡或充值收款的销售员（店长，记入操作日志）：销售提成从此计给新的销售员，其退款也随之；该月销售提成已关闭时须先重新打开',
  example: { id: 1, sellerId: 2 },
  errors: [
    ...sellerErrors,
    ...fails.notFound('收款记录'),
    ...fails.conflict(SellerMsg.notSale, SellerMsg.monthClosed('{月份}')),
  ],
});

export const zPayMonthClosing = z.object({
  kind: z.enum(['teacher', 'commission']),
  month: z.string(),
  closedAt: z.string(),
  closedBy: z.string(),
});

export const queryPayMonthList = defineCall({
  path: `${STORE_API}/query/pay/closed/month/list`,
  kind: 'read',
  auth: 'store',
  roles: ['manager', 'teacher'],
  req: zEmpty,
  res: z.array(zPayMonthClosing),
  summary: '已结算关闭的月份（课时费与销售提成），新的在前',
  example: {},
});

export const teacherPayCalls = [
  queryTeacherPayRuleList,
  updateTeacherPayRule,
  deleteTeacherPayRule,
  queryTeacherPayStatement,
  addTeacherPayAdjustment,
  closeTeacherPayMonth,
  reopenTeacherPayMonth,
  querySalesCommissionRateList,
  updateSalesCommissionRate,
  querySalesCommission,
  closeSalesCommissionMonth,
  reopenSalesCommissionMonth,
  updateSaleSeller,
  queryPayMonthList,
] as const;
