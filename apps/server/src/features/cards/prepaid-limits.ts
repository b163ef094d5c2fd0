import {
  amountText,
  BIG_TYPE_MONEY,
  NO_PREPAID_LIMITS,
  PREPAID_CARD_KINDS,
  PREPAID_RULE_SET_NAMES,
  PrepaidMsg,
  SHANGHAI_2025_LIMITS,
  zPrepaidLimitSetting,
  type CardOverLimit,
  type PrepaidCardKind,
  type PrepaidLimits,
  type PrepaidLimitSetting,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { lockMember } from '../../db/locks.ts';
import { audit, changedFields } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { addMonths, daysBetween, storeNow } from '../../lib/time.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { saleActivation } from './activation.ts';
import { cardsForPrepaidLimits } from './prepaid-repository.ts';
import { productRuleAmount, unusedShare } from './refund-quote.ts';

/**
 * Prepaid limits per city (issue 45, item 4). A store picks a rule set (不限制, 上海 2025, or its own
 * limits); every way money goes onto a card is checked here, at the server, before it is written:
 * the desk's sale and top-up, the member's online purchase and top-up (when the order is created,
 * and again when its payment arrives), and a transfer in. A refusal names the rule set, the limit
 * and the figures. Cards sold before the limits stay as they are; `cardsOverLimits` lists them.
 */

const KEY = 'prepaid-limits';

export interface PrepaidRule extends PrepaidLimitSetting {
  /** The limits in force. */
  limits: PrepaidLimits;
  /** Since when (store-local) they are: the last change of the rule set or its limits; null never set. */
  since: string | null;
}

const limitsOf = (s: PrepaidLimitSetting): PrepaidLimits =>
  s.ruleSet === 'shanghai2025' ? SHANGHAI_2025_LIMITS : s.ruleSet === 'custom' ? s.custom : NO_PREPAID_LIMITS;

/** The store's rule set, with the limits in force (none where it never chose). */
export async function loadPrepaidRule(ex: Executor, storeId: number): Promise<PrepaidRule> {
  const text = await getSetting(ex, storeId, KEY);
  let saved: PrepaidLimitSetting = { ruleSet: 'none', custom: NO_PREPAID_LIMITS };
  let since: string | null = null;
  if (text) {
    const json = JSON.parse(text) as { since?: unknown };
    const parsed = zPrepaidLimitSetting.safeParse(json);
    if (parsed.success) saved = parsed.data;
    if (typeof json.since === 'string') since = json.since;
  }
  return { ...saved, limits: limitsOf(saved), since };
}

/** The manager's choice, audited with what changed; the limits in force date from a change of them. */
export async function savePrepaidRule(ctx: CallCtx, input: PrepaidLimitSetting) {
  const before = await loadPrepaidRule(ctx.db, ctx.store.id);
  const changed = JSON.stringify(limitsOf(input)) !== JSON.stringify(before.limits);
  const since = changed || before.ruleSet !== input.ruleSet ? storeNow(ctx) : before.since;
  await putSetting(ctx.db, ctx.store.id, KEY, JSON.stringify({ ...input, since }));
  audit(ctx.db, {
    kind: 'settings',
    target: '预付卡限额',
    ...changedFields(
      { ruleSet: PREPAID_RULE_SET_NAMES[before.ruleSet], limits: limitsText(before.limits) },
      { ruleSet: PREPAID_RULE_SET_NAMES[input.ruleSet], limits: limitsText(limitsOf(input)) },
      { ruleSet: '规则', limits: '限额' },
    ),
  });
  return null;
}

const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);

function limitsText(l: PrepaidLimits): string {
  const part = (label: string, v: string | null) => (v === null ? null : `${label}${v}`);
  return (
    [
      part('期限卡≤', l.membershipAmount === null ? null : yuan(l.membershipAmount)),
      part('期限卡有效期≤', l.membershipMonths === null ? null : `${l.membershipMonths}个月`),
      part('次卡≤', l.lessonsAmount === null ? null : yuan(l.lessonsAmount)),
      part('次卡课时≤', l.lessonsCount === null ? null : `${l.lessonsCount}节`),
      part('储值卡≤', l.moneyAmount === null ? null : yuan(l.moneyAmount)),
      part('每人合计≤', l.perMemberAmount === null ? null : yuan(l.perMemberAmount)),
    ]
      .filter(Boolean)
      .join('，') || '不限制'
  );
}

/** Which kind of prepaid card a product sells: 储值卡 (money), 期限卡 (booking takes nothing), or 次卡. */
export function prepaidKindOf(p: { bigType: number; perCount: number }): PrepaidCardKind {
  if (p.bigType === BIG_TYPE_MONEY) return 'money';
  return p.perCount === 0 ? 'membership' : 'lessons';
}

/** What one card asks of the limits: its kind, what was paid for it in all, and its lessons or days. */
export interface CardAsk {
  kind: PrepaidCardKind;
  /** Fen paid for the card, this payment included. */
  amount: number;
  /** 次卡: its lessons, this sale or top-up included. */
  count?: number;
  /** 期限卡: its days from `startDay` (null: no end). */
  validDays?: number | null;
  startDay: string;
}

/** Every limit a card is over, in the staff's words (the first is the refusal). */
export function cardLimitRefusals(rule: PrepaidRule, ask: CardAsk): string[] {
  const l = rule.limits;
  const name = PREPAID_RULE_SET_NAMES[rule.ruleSet];
  const label = PREPAID_CARD_KINDS[ask.kind];
  const out: string[] = [];
  const amountLimit = { membership: l.membershipAmount, lessons: l.lessonsAmount, money: l.moneyAmount }[ask.kind];
  if (amountLimit !== null && ask.amount > amountLimit) {
    out.push(PrepaidMsg.over(name, `${label}单卡金额`, yuan(amountLimit), yuan(ask.amount)));
  }
  if (ask.kind === 'lessons' && l.lessonsCount !== null && ask.count !== undefined && ask.count > l.lessonsCount) {
    out.push(PrepaidMsg.over(name, `${label}课时数`, `${l.lessonsCount}节`, `${ask.count}节`));
  }
  if (ask.kind === 'membership' && l.membershipMonths !== null) {
    const most = daysBetween(ask.startDay, addMonths(ask.startDay, l.membershipMonths));
    const days = ask.validDays;
    if (days === null || (days !== undefined && days > most)) {
      out.push(
        PrepaidMsg.over(
          name,
          `${label}有效期`,
          `${l.membershipMonths}个月（${most}天）`,
          days === null ? '不限期' : `${days}天`,
        ),
      );
    }
  }
  return out;
}

/** What a new card asks of the limits: its kind, what is paid, its lessons, or its days from its start. */
export function saleAsk(
  product: { bigType: number; perCount: number },
  paid: number,
  totalCount: number,
  start: { activateTime: string | null; validDays: number | null; expireTime: string | null },
  now: string,
): CardAsk {
  const kind = prepaidKindOf(product);
  return {
    kind,
    amount: paid,
    count: kind === 'lessons' ? totalCount : undefined,
    validDays: start.expireTime === null ? null : (start.validDays ?? undefined),
    startDay: (start.activateTime ?? now).slice(0, 10),
  };
}

/**
 * Why a member may not order a product online at its online price (null: they may), asked before
 * the order is created; the payment's arrival asks again (`issueCardPaidOnline`).
 */
export function productOrderRefusal(
  ex: Executor,
  storeId: number,
  memberId: number,
  product: Parameters<typeof saleActivation>[0] & {
    bigType: number;
    perCount: number;
    totalCount: number | null;
    onlinePrice: number;
  },
  now: string,
): Promise<string | null> {
  const start = saleActivation(product, now, null);
  const ask = start ? saleAsk(product, product.onlinePrice, product.totalCount ?? 0, start, now) : null;
  return prepaidLimitRefusal(ex, storeId, now, { memberId, ask, added: product.onlinePrice });
}

/** Why a member may not top up a money card online by `amount` fen (null: they may). */
export function topupOrderRefusal(
  ex: Executor,
  storeId: number,
  memberId: number,
  memberCardId: number,
  amount: number,
  now: string,
) {
  return prepaidLimitRefusal(ex, storeId, now, {
    memberId,
    ask: { kind: 'money', amount, startDay: now.slice(0, 10) },
    onCard: memberCardId,
    added: amount,
  });
}

type HeldCard = Awaited<ReturnType<typeof cardsForPrepaidLimits>>[number];

/** What remains prepaid on a card: what was paid for it times its unused share (不足 1 分舍去). */
export function remainingValue(card: HeldCard, today: string): number {
  const paid = Math.max(0, Number(card.netPaid));
  if (!paid) return 0;
  const { left, length } = unusedShare(
    { ...card, totalCount: Number(card.totalCount), usedCount: Number(card.usedCount) },
    today,
  );
  return productRuleAmount({ paid, left, length, feePercent: 0 }).byShare;
}

/**
 * What `used` taken from a card is worth (fen), the value of lessons or classes consumed (the
 * reports' 课消金额): from a 储值卡 the fen taken; from a card of lessons its share of what was paid,
 * `netPaid × used ÷ totalCount` (不足 1 分舍去, as `remainingValue` measures what is left).
 */
export function usedValue(card: { bigType: number; netPaid: number; totalCount: number }, used: number): number {
  if (card.bigType === BIG_TYPE_MONEY) return used;
  const paid = Math.max(0, Number(card.netPaid));
  return productRuleAmount({ paid, left: used, length: Number(card.totalCount), feePercent: 0 }).byShare;
}

/** Money going onto a member's card, as the limits see it. */
export interface PrepaidAsk {
  memberId: number;
  /** The card's own limits (null: a transfer in, the card was sold under its own check). */
  ask: CardAsk | null;
  /** A top-up: the card it goes onto (what was paid for it before counts in `ask.amount`). */
  onCard?: number;
  /** Fen the member's total grows by. */
  added: number;
}

/**
 * Refuses (409) money going onto a member's card over the store's limits: the card's own and the
 * member's total, what remains on the cards they hold plus `added`. `now` is the store's. In the
 * caller's write transaction, after locking the member's row (db/locks.ts: a member before their
 * cards), so of two sales at once to one member the second counts the first.
 */
export async function refuseOverPrepaidLimits(tx: Tx, storeId: number, now: string, a: PrepaidAsk): Promise<void> {
  await lockMember(tx, a.memberId);
  const refusal = await prepaidLimitRefusal(tx, storeId, now, a);
  if (refusal) throw conflict(refusal);
}

/**
 * The same check answering the refusal (null: within the limits), without a lock: an order about to
 * be created (it writes no card), or an online payment that arrived (its fulfilment, which has locked
 * the member, makes it 异常订单).
 */
export async function prepaidLimitRefusal(
  ex: Executor,
  storeId: number,
  now: string,
  a: PrepaidAsk,
): Promise<string | null> {
  const rule = await loadPrepaidRule(ex, storeId);
  if (rule.ruleSet === 'none') return null;
  const today = now.slice(0, 10);
  const cards = await cardsForPrepaidLimits(ex, storeId, a.memberId);
  if (a.ask) {
    const before = a.onCard === undefined ? 0 : Math.max(0, Number(cards.find((c) => c.id === a.onCard)?.netPaid ?? 0));
    const [first] = cardLimitRefusals(rule, { ...a.ask, amount: a.ask.amount + before });
    if (first) return first;
  }
  const most = rule.limits.perMemberAmount;
  if (most === null || a.added <= 0) return null;
  const held = cards.reduce((n, c) => n + remainingValue(c, today), 0);
  if (held + a.added <= most) return null;
  return PrepaidMsg.memberTotal(PREPAID_RULE_SET_NAMES[rule.ruleSet], yuan(most), yuan(held), yuan(a.added));
}

/** What remains prepaid on one card of a holder (a card being transferred: what its new holder gains). */
export async function remainingOfCard(ex: Executor, storeId: number, holderId: number, cardId: number, now: string) {
  const card = (await cardsForPrepaidLimits(ex, storeId, holderId)).find((c) => c.id === cardId);
  return card ? remainingValue(card, now.slice(0, 10)) : 0;
}

/**
 * The store's cards not refunded that are over the limits in force (sold before them, or before a
 * change): each card's own limits, measured on what was paid for it (`cardOver`), and each member
 * whose cards' remaining value together is over the per-member limit (`memberOver`, on all their cards).
 */
export async function overLimitCards(ex: Executor, storeId: number, today: string) {
  const rule = await loadPrepaidRule(ex, storeId);
  if (rule.ruleSet === 'none') return { rule, list: [] };
  const cards = await cardsForPrepaidLimits(ex, storeId);
  const heldOf = new Map<number, number>();
  for (const c of cards) heldOf.set(c.memberId, (heldOf.get(c.memberId) ?? 0) + remainingValue(c, today));
  const most = rule.limits.perMemberAmount;
  const list = cards.flatMap((card) => {
    const kind = prepaidKindOf(card);
    const cardOver = heldCardOver(rule, kind, {
      paid: Number(card.netPaid),
      count: Number(card.totalCount),
      validDays: card.validDays,
      ends: card.expireTime !== null,
      startDay: (card.activateTime ?? card.createdAt).slice(0, 10),
    });
    const held = heldOf.get(card.memberId) ?? 0;
    const memberOver = most !== null && held > most ? `会员预付合计剩余${yuan(held)}，超过${yuan(most)}` : null;
    return cardOver.length || memberOver ? [{ card, kind, cardOver, memberOver }] : [];
  });
  return { rule, list };
}

/** A card already held, as the limits see it: what was paid for it, its lessons or its days. */
interface HeldCardFigures {
  paid: number;
  /** 次卡: its lessons. */
  count: number;
  /** 期限卡: its days from `startDay` (null: counted from its expiry, `ends`, or none). */
  validDays: number | null;
  ends: boolean;
  startDay: string;
}

/** Every card limit a card already held is over, without the rule set's name (a report's or a list's line). */
function heldCardOver(rule: PrepaidRule, kind: PrepaidCardKind, c: HeldCardFigures): string[] {
  return cardLimitRefusals(rule, {
    kind,
    amount: Math.max(0, c.paid),
    count: kind === 'lessons' ? c.count : undefined,
    validDays: kind === 'membership' ? (c.validDays ?? (c.ends ? undefined : null)) : undefined,
    startDay: c.startDay,
  }).map((m) => m.slice(m.indexOf('：') + 1));
}

/**
 * Every card limit a card of an import is over (the import warns row by row and imports it: the card
 * was sold before, as the report lists cards sold before the limits). Its lessons are those it moves
 * in with; its days run from its start (or the day it counts as sold).
 */
export function importedCardOver(
  rule: PrepaidRule,
  product: { bigType: number; perCount: number },
  card: {
    paid: number;
    remaining: number;
    validDays: number | null;
    expireDate: string | null;
    startDate: string | null;
    soldDate: string;
  },
): string[] {
  if (rule.ruleSet === 'none') return [];
  return heldCardOver(rule, prepaidKindOf(product), {
    paid: card.paid,
    count: card.remaining,
    validDays: card.validDays,
    ends: card.expireDate !== null,
    startDay: card.startDate ?? card.soldDate,
  });
}

/** The report of cards over the limits in force (the manager's). */
export async function cardsOverLimits(
  ctx: CallCtx,
): Promise<{ ruleSet: PrepaidRule['ruleSet']; list: CardOverLimit[] }> {
  const { rule, list } = await overLimitCards(ctx.db, ctx.store.id, storeNow(ctx).slice(0, 10));
  return {
    ruleSet: rule.ruleSet,
    list: list.map(({ card: c, kind, cardOver, memberOver }) => ({
      mcId: c.id,
      memberId: c.memberId,
      memberName: c.memberName,
      cardName: c.cardName,
      kind,
      createdAt: c.createdAt,
      over: memberOver ? [...cardOver, memberOver] : cardOver,
    })),
  };
}
