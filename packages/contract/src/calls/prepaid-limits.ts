// Prepaid limits per city (issue 45, item 4; server: features/cards/prepaid-limits.ts). A store picks
// a rule set; every sale, top-up, online purchase and transfer in is checked against it at the server.
import { z } from 'zod';
import { zId } from '../common.ts';
import { MAX_AMOUNT } from '../constants.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { zAmount } from './reference/shared.ts';

/** The rule sets a store may choose: none, Shanghai's from 2025-03-01, or its own. */
export const PREPAID_RULE_SETS = ['none', 'shanghai2025', 'custom'] as const;
export type PrepaidRuleSet = (typeof PREPAID_RULE_SETS)[number];
export const PREPAID_RULE_SET_NAMES: Record<PrepaidRuleSet, string> = {
  none: '不限制',
  shanghai2025: '上海预付卡新规（2025年3月1日起）',
  custom: '自定义限额',
};

/**
 * The kinds of prepaid card the rules tell apart: 期限卡 (会员卡: a card of days, booking takes
 * nothing from it), 次卡 (课时卡: lessons) and 储值卡 (money).
 */
export const PREPAID_CARD_KINDS = {
  membership: '期限卡（会员卡）',
  lessons: '次卡（课时卡）',
  money: '储值卡',
} as const;
export type PrepaidCardKind = keyof typeof PREPAID_CARD_KINDS;

const fen = (label: string) => zAmount(label, MAX_AMOUNT).nullable();
const whole = (label: string, max: number) =>
  z
    .number({ error: `${label}必须是整数` })
    .int(`${label}必须是整数`)
    .min(1, `${label}至少为1`)
    .max(max, `${label}不能超过${max}`)
    .nullable();

/** Limits (null: no limit). Amounts in fen. */
export const zPrepaidLimits = z.object({
  membershipAmount: fen('期限卡单卡金额上限'),
  membershipMonths: whole('期限卡有效期上限（月）', 120),
  lessonsAmount: fen('次卡单卡金额上限'),
  lessonsCount: whole('次卡课时数上限', 10_000),
  moneyAmount: fen('储值卡单卡金额上限'),
  perMemberAmount: fen('每位会员预付总额上限'),
});
export type PrepaidLimits = z.infer<typeof zPrepaidLimits>;

/**
 * Shanghai's limits for sports prepaid cards from 2025-03-01, as published: 会员卡 at most 5,000 元
 * and 24 months, 课时卡 at most 20,000 元 and 60 lessons, 储值卡 at most 5,000 元, at most 20,000 元
 * per member counting what remains on earlier cards.
 */
export const SHANGHAI_2025_LIMITS: PrepaidLimits = {
  membershipAmount: 500_000,
  membershipMonths: 24,
  lessonsAmount: 2_000_000,
  lessonsCount: 60,
  moneyAmount: 500_000,
  perMemberAmount: 2_000_000,
};

/** No limits: what `custom` starts from. */
export const NO_PREPAID_LIMITS: PrepaidLimits = {
  membershipAmount: null,
  membershipMonths: null,
  lessonsAmount: null,
  lessonsCount: null,
  moneyAmount: null,
  perMemberAmount: null,
};

export const zPrepaidLimitSetting = z.object({
  ruleSet: z.enum(PREPAID_RULE_SETS, { error: '请选择预付卡限额规则' }),
  /** The store's own limits (used when `ruleSet` is custom; kept otherwise). */
  custom: zPrepaidLimits,
});
export type PrepaidLimitSetting = z.infer<typeof zPrepaidLimitSetting>;

/** Refusals of a sale over a limit: the rule set, the limit and the figures. */
export const PrepaidMsg = {
  over: (rule: string, what: string, limit: string, asked: string) =>
    `超出预付卡限额（${rule}）：${what}不超过${limit}，本次${asked}`,
  memberTotal: (rule: string, limit: string, held: string, asked: string) =>
    `超出预付卡限额（${rule}）：每位会员预付总额不超过${limit}，该会员已有卡剩余${held}，本次${asked}`,
} as const;

/** The refusals every call that puts money on a card may answer (declared in their errors). */
export const prepaidLimitErrors = fails.conflict(
  PrepaidMsg.over('{规则}', '{项目}', '{限额}', '{本次}'),
  PrepaidMsg.memberTotal('{规则}', '{限额}', '{已有}', '{本次}'),
);

export const queryPrepaidLimitSetting = defineCall({
  path: `${STORE_API}/query/prepaid/limit/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({}),
  res: zPrepaidLimitSetting.extend({
    /** The limits in force (the rule set's). */
    limits: zPrepaidLimits,
    /** Since when they are in force (store-local; null: never set). */
    since: z.string().nullable(),
  }),
  summary: '预付卡限额：门店选择的规则（不限制 / 上海 2025 / 自定义）与正在执行的限额',
  example: {},
});

export const updatePrepaidLimitSetting = defineCall({
  path: `${STORE_API}/update/prepaid/limit/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zPrepaidLimitSetting,
  res: z.null(),
  summary: '设置预付卡限额规则；此后每笔售卡、充值、线上购卡与转入都按它检查',
  example: { ruleSet: 'shanghai2025', custom: NO_PREPAID_LIMITS },
});

export const zCardOverLimit = z.object({
  mcId: zId(),
  memberId: zId(),
  memberName: z.string(),
  cardName: z.string(),
  kind: z.enum(Object.keys(PREPAID_CARD_KINDS) as [PrepaidCardKind, ...PrepaidCardKind[]]),
  createdAt: z.string(),
  /** Each limit it is over, in the staff's words. */
  over: z.array(z.string()),
});
export type CardOverLimit = z.infer<typeof zCardOverLimit>;

export const queryCardsOverPrepaidLimit = defineCall({
  path: `${STORE_API}/query/prepaid/limit/over`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({}),
  res: z.object({ ruleSet: z.enum(PREPAID_RULE_SETS), list: z.array(zCardOverLimit) }),
  summary: '超出现行预付卡限额的会员卡（限额实施前售出的），以及超出的是哪一项',
  example: {},
});

export const prepaidLimitCalls = [
  queryPrepaidLimitSetting,
  updatePrepaidLimitSetting,
  queryCardsOverPrepaidLimit,
] as const;
