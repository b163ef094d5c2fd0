// 转介绍奖励 (issue 44, item 5): when a referred friend attends a first class or buys a first card
// (the store's setting) the referrer's card gets the store's reward once, written to its ledger; the
// manager sees every reward and may take one back (撤销奖励). Server: features/leads (referral-reward.ts).
import { z } from 'zod';
import { zId, zPage, zPaged } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';

export const REFERRAL_TRIGGERS = ['class', 'card'] as const;
export type ReferralTrigger = (typeof REFERRAL_TRIGGERS)[number];
export const REFERRAL_TRIGGER_LABEL: Record<ReferralTrigger, string> = {
  class: '好友首次上课',
  card: '好友首次购卡',
};

/** What the referrer gets: classes on a 次卡, days on a 期限卡, or money (fen) on a 储值卡. */
export const REFERRAL_KINDS = ['lessons', 'days', 'money'] as const;
export type ReferralKind = (typeof REFERRAL_KINDS)[number];
export const REFERRAL_KIND_LABEL: Record<ReferralKind, string> = {
  lessons: '次卡加课时',
  days: '期限卡延长天数',
  money: '储值卡加金额',
};

export const REFERRAL_STATUSES = ['pending', 'granted', 'undone'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];
export const REFERRAL_STATUS_LABEL: Record<ReferralStatus, string> = {
  pending: '待发放（推荐人暂无可用的卡）',
  granted: '已发放',
  undone: '已撤销',
};

/** The largest reward of each kind: classes, days, fen (1万元). */
export const REFERRAL_MAX: Record<ReferralKind, number> = { lessons: 100, days: 3650, money: 1_000_000 };

/** A reward in words: `3 次`, `30 天`, `50.00 元`. */
export function referralAmountText(kind: ReferralKind, amount: number): string {
  if (kind === 'lessons') return `${amount} 次`;
  if (kind === 'days') return `${amount} 天`;
  return `${(amount / 100).toFixed(2)} 元`;
}

export const ReferralMsg = {
  trigger: '请选择发放时机',
  kind: '请选择奖励方式',
  amount: '请输入奖励数量（正整数）',
  /** Standalone (the web's copy of the contract keeps a message function by its source): REFERRAL_MAX in words. */
  amountMax: (kind: ReferralKind) =>
    `奖励最多为${kind === 'lessons' ? '100 次' : kind === 'days' ? '3650 天' : '10000.00 元'}`,
  /** Undoing a reward not granted (pending, or undone already). */
  notGranted: '该奖励未发放或已撤销',
  /** The card spent what the reward gave (or was refunded): nothing to take back. */
  cannotTakeBack: '推荐人的卡余额已不足以扣回奖励（或卡已退），不能撤销',
  /** Granting a pending reward while the referrer still holds no card of its kind. */
  noCard: '推荐人暂无可用的对应会员卡，请先为其办卡',
  notPending: '该奖励不是待发放状态',
} as const;

export const zReferralSetting = z
  .object({
    /** Off: no reward is given (those given stay). */
    enabled: z.boolean(),
    trigger: z.enum(REFERRAL_TRIGGERS, { error: ReferralMsg.trigger }),
    kind: z.enum(REFERRAL_KINDS, { error: ReferralMsg.kind }),
    /** Classes, days or fen. */
    amount: z.number({ error: ReferralMsg.amount }).int(ReferralMsg.amount).min(1, ReferralMsg.amount),
  })
  .superRefine((v, ctx) => {
    if (v.amount > REFERRAL_MAX[v.kind]) {
      ctx.addIssue({ code: 'custom', message: ReferralMsg.amountMax(v.kind), path: ['amount'] });
    }
  });
export type ReferralSetting = z.infer<typeof zReferralSetting>;

/** The setting of a store that never saved one: off, 3 classes at the friend's first card. */
export const REFERRAL_SETTING_DEFAULT: ReferralSetting = {
  enabled: false,
  trigger: 'card',
  kind: 'lessons',
  amount: 3,
};

export const queryReferralSetting = defineCall({
  path: `${STORE_API}/query/referral/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({}),
  res: zReferralSetting,
  summary: '转介绍奖励设置：是否开启、发放时机（好友首次上课/首次购卡）、奖励方式和数量',
  example: {},
});

export const updateReferralSetting = defineCall({
  path: `${STORE_API}/update/referral/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zReferralSetting,
  res: z.null(),
  summary: '设置转介绍奖励：发放时机和奖励（次卡加课时、期限卡延长天数或储值卡加金额）',
  example: { enabled: true, trigger: 'card', kind: 'lessons', amount: 3 },
  errors: fails.badRequest(ReferralMsg.amount, ...REFERRAL_KINDS.map((k) => ReferralMsg.amountMax(k))),
});

export const zReferralReward = z.object({
  id: z.number(),
  leadId: z.number(),
  referrerId: z.number(),
  referrerName: z.string(),
  friendId: z.number(),
  friendName: z.string(),
  friendMobile: z.string(),
  trigger: z.enum(REFERRAL_TRIGGERS),
  kind: z.enum(REFERRAL_KINDS),
  amount: z.number(),
  status: z.enum(REFERRAL_STATUSES),
  /** The card credited (granted or undone). */
  memberCardId: z.number().nullable(),
  cardName: z.string().nullable(),
  createdAt: z.string(),
  grantedAt: z.string().nullable(),
  undoneAt: z.string().nullable(),
});
export type ReferralReward = z.infer<typeof zReferralReward>;

export const queryReferralRewardList = defineCall({
  path: `${STORE_API}/query/referral/reward/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ status: z.enum(REFERRAL_STATUSES).nullish(), page: zPage() }),
  res: zPaged(zReferralReward),
  summary: '转介绍奖励列表（20条一页，新的在前）：推荐人、好友、发放时机、奖励、状态',
  example: { page: 1 },
});

export const grantReferralReward = defineCall({
  path: `${STORE_API}/grant/referral/reward`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '发放待发放的转介绍奖励（推荐人已有对应的会员卡时）',
  example: { id: 1 },
  errors: [...fails.notFound('奖励'), ...fails.conflict(ReferralMsg.notPending, ReferralMsg.noCard)],
});

export const undoReferralReward = defineCall({
  path: `${STORE_API}/undo/referral/reward`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '撤销已发放的转介绍奖励：从推荐人的卡上扣回，记一条冲正流水',
  example: { id: 1 },
  errors: [...fails.notFound('奖励'), ...fails.conflict(ReferralMsg.notGranted, ReferralMsg.cannotTakeBack)],
});

export const referralRewardCalls = [
  queryReferralSetting,
  updateReferralSetting,
  queryReferralRewardList,
  grantReferralReward,
  undoReferralReward,
] as const;
