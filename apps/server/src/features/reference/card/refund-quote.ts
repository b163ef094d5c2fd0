import {
  amountText,
  BIG_TYPE_MONEY,
  COOLING_OFF_DAYS_DEFAULT,
  LEAVE_APPROVALS,
  type CardLifeSetting,
  type RefundRule,
} from '@studio/contract';
import type { Executor } from '../../../db/index.ts';
import { daysBetween } from '../../../lib/time.ts';
import { cardLifeSettingText, cardOpenedFacts, paidFor, type requireMemberCard } from './repository.ts';

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

export interface RefundQuote {
  amount: number;
  rule: RefundRule;
  detail: string;
  paid: number;
}

const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);

/**
 * What a whole-card refund pays back at `now` (store-local), computed here and nowhere else
 * (issue 29, item 3; domain.md "A card's life"):
 *
 * - cooling-off (`cooling_off`): on or before the store's cooling-off day after the sale (the sale's
 *   day not counted: sold on the 1st with 7 days, the 8th is the last), no class booked or taken on
 *   it, no leave, no transfer: everything paid for it (sale and top-ups, less what was paid back);
 * - afterwards (`product_rule`): the unused share of what was paid (the balance left of the total;
 *   for a card charging nothing per class, the days left of its validity), less the product's
 *   refund fee (a percentage of what was paid), never below 0.
 */
export async function quoteRefund(ex: Executor, storeId: number, card: Card, now: string): Promise<RefundQuote> {
  const [paid, setting, opened] = await Promise.all([
    paidFor(ex, storeId, card.id),
    loadCardLifeSetting(ex, storeId),
    cardOpenedFacts(ex, storeId, card.id),
  ]);
  const today = now.slice(0, 10);
  const day = daysBetween(card.createdAt.slice(0, 10), today);
  const cooling = day <= setting.coolingOffDays;
  const why = [
    opened.classTaken ? '已约课或上课' : '',
    opened.leave ? '已请假' : '',
    card.transferredAt ? '已转卡' : '',
  ].filter(Boolean);
  const when = `售卡后第${day}天`;
  if (cooling && !why.length) {
    return {
      amount: paid,
      rule: 'cooling_off',
      paid,
      detail: `${when}，在${setting.coolingOffDays}天冷静期内，未上课、未请假、未转卡：全额退还实付 ${yuan(paid)}`,
    };
  }
  const total = Number(card.totalCount);
  const used = Number(card.usedCount);
  let share: number;
  let shareText: string;
  if (card.perCount > 0 || !card.expireTime) {
    share = total > 0 ? Math.max(0, total - used) / total : 0;
    shareText = `剩余 ${amountText(card.bigType, total - used)} / ${amountText(card.bigType, total)}`;
  } else {
    const length = Number(card.validDays ?? 0) + Number(card.leaveDays);
    const left = card.activateTime
      ? Math.min(length, Math.max(0, daysBetween(today, card.expireTime.slice(0, 10))))
      : length;
    share = length > 0 ? left / length : 0;
    shareText = `有效期剩余 ${left} / ${length} 天`;
  }
  const byShare = Math.floor(paid * share);
  const fee = Math.round((paid * Number(card.refundFeePercent)) / 100);
  const amount = Math.max(0, byShare - fee);
  const past = cooling ? `${when}，冷静期内但${why.join('、')}` : `${when}，已过${setting.coolingOffDays}天冷静期`;
  return {
    amount,
    rule: 'product_rule',
    paid,
    detail: `${past}：实付 ${yuan(paid)}，${shareText}，按比例 ${yuan(byShare)}，减手续费 ${card.refundFeePercent}%（${yuan(fee)}），应退 ${yuan(amount)}`,
  };
}
