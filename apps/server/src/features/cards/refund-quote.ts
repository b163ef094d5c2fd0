import {
  amountText,
  BIG_TYPE_MONEY,
  COOLING_OFF_DAYS_DEFAULT,
  LEAVE_APPROVALS,
  REFUND_ROUNDING,
  type CardLifeSetting,
  type RefundRule,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { daysBetween } from '../../lib/time.ts';
import { cardLifeSettingText, cardOpenedFacts, paidSources, type requireMemberCard } from './repository.ts';

/** The store's card-life setting (cooling-off days, leave approval), with the defaults where never saved. */
export async function loadCardLifeSetting(ex: Executor, storeId: number): Promise<CardLifeSetting> {
  const text = await cardLifeSettingText(ex, storeId);
  const saved = text ? (JSON.parse(text) as Partial<CardLifeSetting>) : {};
  return {
    coolingOffDays: Number.isInteger(saved.coolingOffDays) ? saved.coolingOffDays! : COOLING_OFF_DAYS_DEFAULT,
    leaveApproval: LEAVE_APPROVALS.includes(saved.leaveApproval!) ? saved.leaveApproval! : 'auto',
  };
}

type Card = Awaited<ReturnType<typeof requireMemberCard>>;

/** Where one part of a refund goes back: an online order (through its provider) or the desk (门店退款). */
export interface RefundPart {
  orderNo: string | null;
  provider: 'wechat' | 'alipay' | null;
  kind: 'card' | 'topup' | 'desk';
  amount: number;
}

export interface RefundQuote {
  amount: number;
  rule: RefundRule;
  detail: string;
  paid: number;
  /** Within the cooling-off days of the sale (whether or not the card was opened). */
  coolingOff: boolean;
  /** Bookings and pendings of classes not ended: the card cannot be closed before they are cancelled. */
  toCome: number;
  /** Which order (or the desk) each part of `amount` goes back through; they add up to `amount`. */
  parts: RefundPart[];
}

const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);

/** What a card's unused share is measured in: what it holds, or (a card of days) its days. */
export type CardForShare = Pick<
  Card,
  'totalCount' | 'usedCount' | 'perCount' | 'expireTime' | 'validDays' | 'leaveDays' | 'activateTime' | 'bigType'
>;

/**
 * The unused part of a card on `today`, `left` of `length`: of what it holds (lessons or fen), or of
 * its days for a card booking takes nothing from (期限卡, not started: all of them). The refund
 * quote's share and the prepaid limits' remaining value both measure it so.
 */
export function unusedShare(card: CardForShare, today: string): { left: number; length: number; shareText: string } {
  const total = Number(card.totalCount);
  const used = Number(card.usedCount);
  if (card.perCount > 0 || !card.expireTime) {
    return {
      left: Math.max(0, total - used),
      length: total,
      shareText: `剩余 ${amountText(card.bigType, total - used)} / ${amountText(card.bigType, total)}`,
    };
  }
  const length = Number(card.validDays ?? 0) + Number(card.leaveDays);
  const left = card.activateTime
    ? Math.min(length, Math.max(0, daysBetween(today, card.expireTime.slice(0, 10))))
    : length;
  return { left, length, shareText: `有效期剩余 ${left} / ${length} 天` };
}

/**
 * The product rule's amount in whole fen, integer arithmetic only (issue 42, item 5): the unused share
 * `paid × left ÷ length` and the fee `paid × feePercent ÷ 100` are each rounded down to the fen (不足 1
 * 分舍去, the one rounding rule), and the refund is the share less the fee, never below 0. E.g. 100 元
 * with 43 of 100 classes used: 10000 × 57 ÷ 100 = 5700 fen exactly.
 */
export function productRuleAmount(a: { paid: number; left: number; length: number; feePercent: number }) {
  const floorDiv = (n: bigint, d: bigint) => Number(n / d);
  const paid = BigInt(Math.max(0, a.paid));
  const left = BigInt(Math.max(0, Math.min(a.left, a.length)));
  const byShare = a.length > 0 ? floorDiv(paid * left, BigInt(a.length)) : 0;
  const fee = floorDiv(paid * BigInt(a.feePercent), 100n);
  return { byShare, fee, amount: Math.max(0, byShare - fee) };
}

/**
 * Splits `amount` over where the money came from (each source at most what is left of it): in
 * proportion to what is left of each, rounded down to the fen; the fen left over go to the newest
 * sources first (the last of the list). Within the cooling-off days `amount` is everything left, so
 * each source gets back all that is left of it.
 */
export function splitRefund<T extends { left: number }>(amount: number, sources: T[]): (T & { part: number })[] {
  const total = sources.reduce((n, s) => n + Math.max(0, s.left), 0);
  const out = sources.map((s) => ({
    ...s,
    part: total > 0 ? Number((BigInt(amount) * BigInt(Math.max(0, s.left))) / BigInt(total)) : 0,
  }));
  let rest = amount - out.reduce((n, s) => n + s.part, 0);
  for (let i = out.length - 1; i >= 0 && rest > 0; i--) {
    const more = Math.min(rest, Math.max(0, out[i].left) - out[i].part);
    out[i].part += more;
    rest -= more;
  }
  return out;
}

/**
 * What a whole-card refund pays back at `now` (store-local), computed here and nowhere else
 * (issue 29, item 3; issue 42, items 3, 5, 9; domain.md "A card's life"):
 *
 * - cooling-off (`cooling_off`): on or before the store's cooling-off day after the sale (the sale's
 *   day not counted: sold on the 1st with 7 days, the 8th is the last), the card not opened (no class
 *   taken on it, no leave begun, no transfer; a booking not yet taken or a leave not yet begun does
 *   not open it): everything paid for it (sale and top-ups, less what was paid back);
 * - afterwards, or opened (`product_rule`): the unused share of what was paid (the balance left of
 *   the total; for a card charging nothing per class, the days left of its validity), less the
 *   product's refund fee (a percentage of what was paid), never below 0 (`productRuleAmount`:
 *   integer fen, 不足 1 分舍去).
 *
 * What was paid counts the sale and top-ups only (a transfer's fee is the store's income), and the
 * quote says which online order (or the desk) each part goes back through (`splitRefund`).
 */
export async function quoteRefund(ex: Executor, storeId: number, card: Card, now: string): Promise<RefundQuote> {
  const [sources, setting, opened] = await Promise.all([
    paidSources(ex, storeId, card.id),
    loadCardLifeSetting(ex, storeId),
    cardOpenedFacts(ex, storeId, card.id, now),
  ]);
  const list = [
    ...(sources.desk > 0 ? [{ orderNo: null, provider: null, kind: 'desk' as const, left: sources.desk }] : []),
    ...sources.orders.filter((o) => o.left > 0),
  ];
  const paid = list.reduce((n, s) => n + s.left, 0);
  const partsOf = (amount: number): RefundPart[] =>
    splitRefund(amount, list)
      .filter((s) => s.part > 0)
      .map((s) => ({ orderNo: s.orderNo, provider: s.provider, kind: s.kind, amount: s.part }));
  const today = now.slice(0, 10);
  const day = daysBetween(card.createdAt.slice(0, 10), today);
  const cooling = day <= setting.coolingOffDays;
  const why = [
    opened.classTaken ? '已上课' : '',
    opened.leave ? '已请假' : '',
    card.transferredAt ? '已转卡' : '',
  ].filter(Boolean);
  const when = day === 0 ? '售卡当天' : `售卡后第${day}天`;
  const base = { paid, coolingOff: cooling, toCome: opened.toCome };
  if (cooling && !why.length) {
    const parts = partsOf(paid);
    const unopened = [
      opened.toCome ? `已约${opened.toCome}节课尚未上课` : '未上课',
      opened.leaveAhead ? '请假尚未开始' : '未请假',
      '未转卡',
    ].join('、');
    return {
      ...base,
      amount: paid,
      rule: 'cooling_off',
      parts,
      detail: `${when}，在${setting.coolingOffDays}天冷静期内，${unopened}：全额退还实付 ${yuan(paid)}`,
    };
  }
  const { left, length, shareText } = unusedShare(card, today);
  const r = productRuleAmount({ paid, left, length, feePercent: Number(card.refundFeePercent) });
  const parts = partsOf(r.amount);
  const past = cooling
    ? `${when}，在${setting.coolingOffDays}天冷静期内，但${why.join('、')}，不能全额退款，按卡种规则`
    : `${when}，已过${setting.coolingOffDays}天冷静期，按卡种规则`;
  return {
    ...base,
    amount: r.amount,
    rule: 'product_rule',
    parts,
    detail: `${past}：实付 ${yuan(paid)}，${shareText}，按比例 ${yuan(r.byShare)}，减手续费 ${card.refundFeePercent}%（${yuan(r.fee)}），应退 ${yuan(r.amount)}（${REFUND_ROUNDING}）`,
  };
}
