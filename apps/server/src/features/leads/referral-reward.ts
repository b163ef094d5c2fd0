import {
  REFERRAL_SETTING_DEFAULT,
  REFERRAL_KIND_LABEL,
  REFERRAL_TRIGGER_LABEL,
  ReferralMsg,
  referralAmountText,
  zReferralSetting,
  type ReferralKind,
  type ReferralSetting,
  type ReferralStatus,
  type ReferralTrigger,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { audit, changedFields } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { storeNow } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { cardForCredit, creditCard, takeBackCredit } from '../cards/public.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import * as repo from './referral-repository.ts';

/**
 * 转介绍奖励 (issue 44, item 5): a referred friend (a 转介绍 lead naming its referrer) who attends a
 * first class or buys a first card, as the store set, earns the referrer the store's reward once: a
 * `referral_reward` row (one a lead, the unique index: of two triggers at once, on any instances,
 * one inserts and the other finds it) and the credit on the referrer's card with its one ledger
 * entry. Without a card of the kind the reward waits (待发放) until the manager grants it; the
 * manager may take a granted reward back (撤销奖励), a reversing ledger entry.
 */

/** The store setting of the rewards (key `referral`, JSON). */
export const REFERRAL_SETTING_KEY = 'referral';
const PAGE = 20;

function settingOf(text: string | null | undefined): ReferralSetting {
  const parsed = text ? zReferralSetting.safeParse(JSON.parse(text)) : undefined;
  return parsed?.success ? parsed.data : REFERRAL_SETTING_DEFAULT;
}

const loadSetting = async (ex: Executor, storeId: number) =>
  settingOf(await getSetting(ex, storeId, REFERRAL_SETTING_KEY));

export const referralSetting = (ctx: CallCtx) => loadSetting(ctx.db, ctx.store.id);

const settingWords = (s: ReferralSetting) => ({
  enabled: s.enabled ? '开启' : '关闭',
  trigger: REFERRAL_TRIGGER_LABEL[s.trigger],
  reward: `${REFERRAL_KIND_LABEL[s.kind]} ${referralAmountText(s.kind, s.amount)}`,
});

/** Saves the setting (the manager's), audited with what changed; rewards given stay as they are. */
export async function saveReferralSetting(ctx: CallCtx, input: ReferralSetting) {
  const before = await loadSetting(ctx.db, ctx.store.id);
  await putSetting(ctx.db, ctx.store.id, REFERRAL_SETTING_KEY, JSON.stringify(input));
  audit(ctx.db, {
    kind: 'settings',
    target: '转介绍奖励设置',
    ...changedFields(settingWords(before), settingWords(input), {
      enabled: '转介绍奖励',
      trigger: '发放时机',
      reward: '奖励',
    }),
  });
  return null;
}

const rewardRemark = (r: { friendName: string; friendMobile: string }) =>
  `转介绍奖励：推荐好友 ${r.friendName}（${r.friendMobile}）`;

/**
 * Puts a reward on the referrer's card of its kind (the one lasting longest), in the caller's
 * transaction: granted with the card and its ledger entry, by one guarded UPDATE (still pending).
 * False, nothing written, when the referrer holds no such card (the reward stays 待发放).
 */
async function grant(
  tx: Tx,
  storeId: number,
  r: { id: number; referrerMemberId: number; kind: string; amount: number; friendName: string; friendMobile: string },
  o: { now: string; operatorId: number | null },
): Promise<boolean> {
  const kind = r.kind as ReferralKind;
  const card = await cardForCredit(tx, storeId, r.referrerMemberId, kind, o.now);
  if (!card) return false;
  // Marked first (guarded on pending), so a second grant at once finds it granted and writes nothing.
  if (
    !(await repo.moveReward(tx, storeId, r.id, { from: 'pending', to: 'granted', memberCardId: card.id, now: o.now }))
  )
    return false;
  const ledgerId = await creditCard(tx, storeId, {
    memberCardId: card.id,
    kind,
    amount: r.amount,
    remark: rewardRemark(r),
    operatorId: o.operatorId,
    now: o.now,
  });
  // The card was refunded between the choice and the write (its row is locked now): no reward on it.
  if (ledgerId === null) throw conflict(ReferralMsg.noCard);
  await repo.setRewardLedger(tx, r.id, ledgerId);
  audit(tx, {
    targets: [
      { type: 'card', id: card.id },
      { type: 'member', id: r.referrerMemberId },
    ],
  });
  return true;
}

/**
 * A friend's first class or first card (`trigger`): when the store rewards that trigger and the
 * member holds the mobile of a 转介绍 lead, the lead's reward is made once and put on the
 * referrer's card (or left 待发放). None for oneself (the referrer's own mobile or id) nor for a
 * member who was one before the lead was referred (an existing member); a mobile already referred
 * is one lead with its first referrer (the sign-up keeps it), rewarded once by the unique lead.
 */
export async function rewardReferral(
  ex: Executor,
  e: { storeId: number; memberId: number; now: string },
  trigger: ReferralTrigger,
): Promise<void> {
  const tx = ex as Tx;
  const setting = await loadSetting(tx, e.storeId);
  if (!setting.enabled || setting.trigger !== trigger) return;
  const ref = await repo.referredLeadOf(tx, e.storeId, e.memberId);
  if (!ref || ref.referrerMemberId === e.memberId || ref.referrerMobile === ref.mobile) return;
  if (ref.memberCreatedAt < ref.leadCreatedAt) return;
  const id = await repo.insertReward(tx, {
    storeId: e.storeId,
    leadId: ref.leadId,
    referrerMemberId: ref.referrerMemberId,
    friendMemberId: e.memberId,
    triggerOn: trigger,
    kind: setting.kind,
    amount: setting.amount,
    status: 'pending',
    createdAt: e.now,
  });
  if (id === null) return;
  audit(tx, { targets: [{ type: 'lead', id: ref.leadId }] });
  await grant(
    tx,
    e.storeId,
    {
      id,
      referrerMemberId: ref.referrerMemberId,
      kind: setting.kind,
      amount: setting.amount,
      friendName: ref.friendName,
      friendMobile: ref.mobile,
    },
    { now: e.now, operatorId: null },
  );
}

/** The rewards, newest first, 20 a page. */
export async function referralRewardList(ctx: CallCtx, input: { status?: ReferralStatus | null; page: number }) {
  const { rows, total } = await repo.rewardPage(ctx.db, ctx.store.id, {
    status: input.status ?? null,
    offset: (input.page - 1) * PAGE,
    limit: PAGE,
  });
  return { list: rows, total };
}

async function requireReward(tx: Executor, storeId: number, id: number) {
  const r = await repo.findReward(tx, storeId, id);
  if (!r) throw notFound('奖励');
  return r;
}

const rewardWords = (r: { kind: string; amount: number; referrerName: string; friendName: string }) =>
  `推荐人 ${r.referrerName}，好友 ${r.friendName}，${referralAmountText(r.kind as ReferralKind, r.amount)}`;

/** The manager grants a reward left 待发放 (the referrer holds a card of its kind by now). */
export async function grantReward(ctx: CallCtx, id: number) {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const r = await requireReward(tx, ctx.store.id, id);
    if (r.status !== 'pending') throw conflict(ReferralMsg.notPending);
    const done = await grant(tx, ctx.store.id, r, { now: storeNow(ctx), operatorId: ctx.staff.id });
    if (!done) {
      const again = await repo.findReward(tx, ctx.store.id, id);
      throw conflict(again?.status === 'pending' ? ReferralMsg.noCard : ReferralMsg.notPending);
    }
    audit(tx, {
      kind: 'lead',
      summary: `发放转介绍奖励（${rewardWords(r)}）`,
      targets: [{ type: 'lead', id: r.leadId }],
    });
  });
  return null;
}

/**
 * 撤销奖励: a granted reward is taken back off its card (a `referral_undone` entry of minus its amount;
 * days off the expiry), once: the guarded UPDATE (still granted) lets one of two at once through.
 * Refused when the card no longer holds what it was given (spent, or refunded).
 */
export async function undoReward(ctx: CallCtx, id: number) {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const r = await requireReward(tx, ctx.store.id, id);
    const now = storeNow(ctx);
    if (r.status !== 'granted' || r.memberCardId === null) throw conflict(ReferralMsg.notGranted);
    if (!(await repo.moveReward(tx, ctx.store.id, id, { from: 'granted', to: 'undone', now, by: ctx.staff.id }))) {
      throw conflict(ReferralMsg.notGranted);
    }
    const ledgerId = await takeBackCredit(tx, ctx.store.id, {
      memberCardId: r.memberCardId,
      kind: r.kind as ReferralKind,
      amount: r.amount,
      remark: `撤销${rewardRemark(r)}`,
      operatorId: ctx.staff.id,
      now,
    });
    if (ledgerId === null) throw conflict(ReferralMsg.cannotTakeBack);
    await repo.setUndoLedger(tx, id, ledgerId);
    audit(tx, {
      kind: 'lead',
      summary: `撤销转介绍奖励（${rewardWords(r)}）`,
      targets: [
        { type: 'lead', id: r.leadId },
        { type: 'card', id: r.memberCardId },
        { type: 'member', id: r.referrerMemberId },
      ],
    });
  });
  return null;
}
