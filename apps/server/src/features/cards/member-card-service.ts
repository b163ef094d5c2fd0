import { audit, changedFields } from '../../lib/audit.ts';
import { amountText, BIG_TYPE_MONEY, CardMsg, PayExceptionMsg, RefMsg, type Payment } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { activateBy, endOfDay, saleActivation, validDaysFor } from './activation.ts';
import { findMember, requireMember } from '../reference/public.ts';
import { requireSeller } from '../staff/public.ts';
import { storeNow } from '../../lib/time.ts';
import { mustFindProduct } from './product-service.ts';
import { prepaidKindOf, prepaidLimitRefusal, refuseOverPrepaidLimits, saleAsk } from './prepaid-limits.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { lockMember } from '../../db/locks.ts';
import { event, type Events } from '../../lib/events.ts';
import { cardSold } from './events.ts';
import {
  addLedgerEntry,
  addToCardTotal,
  cardHolder,
  cardLedgerRows,
  insertMemberCard,
  insertPayment,
  markCardRefunded,
  memberHadTrial,
  productForSale,
  reopenRefundedCard,
  requireMemberCard,
  setMemberCardExpiry,
  setMemberCardFrozen,
  takeFromCardTotal,
} from './repository.ts';

const cardTarget = (c: { id: number }) => ({ type: 'card' as const, id: c.id });
const memberTarget = (c: { memberId: number }) => ({ type: 'member' as const, id: c.memberId });

/** The 销售员 named (a staff member of the store, enabled), or whoever is signed in. */
async function sellerOf(ctx: CallCtx, sellerId: number | undefined): Promise<{ id: number; name: string }> {
  if (!sellerId || sellerId === ctx.staff.id) return { id: ctx.staff.id, name: ctx.staff.name };
  return requireSeller(ctx.db, ctx.store.id, sellerId);
}

/** A card of the store that has not been refunded: 409 该卡已退卡 otherwise. */
export async function mustFindOpenCard(ctx: CallCtx, id: number) {
  const c = await requireMemberCard(ctx.db, ctx.store.id, id);
  if (c.refundedAt) throw conflict(CardMsg.refunded);
  return c;
}

/**
 * A note in a card's ledger that moves no balance (amount 0): a leave taken or ended, a card started
 * by its first class, a transfer (转卡), a member added to or taken off its list (多人共享). The desk reads the card's life in its ledger (流水).
 */
export async function addLedgerNote(
  tx: Tx,
  a: {
    storeId: number;
    memberCardId: number;
    kind: 'leave' | 'leave_end' | 'activate' | 'transfer' | 'share';
    operatorId: number | null;
    remark: string;
    now: string;
  },
): Promise<number> {
  return addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: a.memberCardId,
    kind: a.kind,
    amount: 0,
    operatorId: a.operatorId,
    remark: a.remark,
    createdAt: a.now,
  });
}

/** Records money the desk took (sale, top-up) or paid back (refund), for the ledger entry `ledgerId`. */
export async function recordPayment(
  tx: Tx,
  ctx: CallCtx,
  p: Payment & {
    memberCardId: number;
    ledgerId: number;
    kind: 'sale' | 'topup' | 'refund';
    refundOf?: number;
    /** 销售员 of a sale or top-up (the commission counts them); a refund has none. */
    sellerId?: number | null;
  },
) {
  return insertPayment(tx, {
    sellerId: p.sellerId ?? null,
    storeId: ctx.store.id,
    memberCardId: p.memberCardId,
    ledgerId: p.ledgerId,
    kind: p.kind,
    amount: p.amount,
    method: p.method,
    staffId: ctx.staff.id,
    remark: p.remark,
    createdAt: storeNow(ctx),
    refundOf: p.refundOf ?? null,
  });
}

/**
 * Issues a card product to a member with `totalCount` (count, or fen for money cards), valid
 * through the end of `expireTime` (never for products that do not expire). Writes ledger `issue`.
 */
export async function issueCard(
  ctx: CallCtx,
  input: {
    mid: number;
    cardId: number;
    totalCount: number;
    expireTime: string | null;
    payment?: Payment;
    sellerId?: number;
  },
) {
  await requireMember(ctx.db, ctx.store.id, input.mid);
  const product = await mustFindProduct(ctx, input.cardId);
  const seller = await sellerOf(ctx, input.sellerId);
  const now = storeNow(ctx);
  const start = saleActivation(product, now, input.expireTime);
  if (!start) throw badRequest(RefMsg.expireRequired);
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    // 体验卡 once per member: not while the member holds one or has a 体验卡 order open or paid (read under
    // the member's lock, as the online order's fulfilment reads it: of two at once, one card).
    if (product.trial === 1 && (await trialTaken(tx, storeId, input.mid))) throw conflict(CardMsg.trialOnce);
    const paid = input.payment?.amount ?? Number(product.price);
    await refuseOverPrepaidLimits(tx, storeId, now, {
      memberId: input.mid,
      ask: saleAsk(product, paid, input.totalCount, start, now),
      added: paid,
    });
    const { card, ledgerId } = await writeIssuedCard(tx, ctx.events, {
      storeId,
      memberId: input.mid,
      cardId: input.cardId,
      totalCount: input.totalCount,
      ...start,
      now,
      operatorId: ctx.staff.id,
      remark: input.payment?.remark ?? null,
      paid,
      trial: product.trial === 1,
    });
    if (input.payment) {
      await recordPayment(tx, ctx, {
        ...input.payment,
        memberCardId: card.id,
        ledgerId,
        kind: 'sale',
        sellerId: seller.id,
      });
    }
    audit(tx, {
      kind: 'card',
      summary: `开卡 ${product.cardName} ${amountText(product.bigType, input.totalCount)}${input.payment ? `，销售员 ${seller.name}` : ''}`,
      targets: [cardTarget(card), { type: 'member', id: input.mid }],
    });
    return card;
  });
}

/**
 * Whether the member has had their 体验卡 (`memberHadTrial`), asked by an issuer of one in its
 * transaction after locking the member's row (db/locks.ts `lockMember`; PostgreSQL, SQLite has one
 * writer): the desk's 发卡 and an order's fulfilment then never both issue one.
 */
async function trialTaken(tx: Tx, storeId: number, memberId: number, exceptOrderId?: number) {
  await lockMember(tx, memberId);
  return memberHadTrial(tx, storeId, memberId, exceptOrderId);
}

/**
 * The card row and its ledger `issue` entry: the one writer of a new card (desk sale, online order);
 * announces `cardSold` in the sale's transaction.
 */
async function writeIssuedCard(
  tx: Tx,
  events: Events,
  a: {
    storeId: number;
    memberId: number;
    cardId: number;
    totalCount: number;
    expireTime: string | null;
    activateTime: string | null;
    validDays: number | null;
    now: string;
    operatorId: number | null;
    remark: string | null;
    /** Fen paid for it. */
    paid: number;
    /** A 体验卡. */
    trial: boolean;
    /** The contract signed before paying (an online order). */
    signature?: { at: string; ip: string; ua: string };
  },
) {
  const card = await insertMemberCard(tx, {
    storeId: a.storeId,
    memberId: a.memberId,
    cardId: a.cardId,
    totalCount: a.totalCount,
    usedCount: 0,
    startTime: a.now,
    expireTime: a.expireTime,
    activateTime: a.activateTime,
    validDays: a.validDays,
    frozen: 0,
    createdAt: a.now,
  });
  const ledgerId = await addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: card.id,
    kind: 'issue',
    amount: a.totalCount,
    operatorId: a.operatorId,
    remark: a.remark,
    createdAt: a.now,
  });
  await events.emit(
    tx,
    event(cardSold, {
      storeId: a.storeId,
      memberId: a.memberId,
      memberCardId: card.id,
      paid: a.paid,
      now: a.now,
      trial: a.trial,
      signature: a.signature,
    }),
  );
  return { card, ledgerId };
}

/** What an online order paid, recorded as money received 线上 (its method wechat / alipay). */
export interface OnlinePayment {
  payOrderId: number;
  amount: number;
  method: 'wechat' | 'alipay';
  remark: string;
}

/**
 * Issues a product to a member in the caller's transaction (an online order's fulfilment): the
 * product's default balance, expiry by its valid days, ledger `issue` and the money received 线上.
 * Answers why it cannot (nothing written then): the product deleted or no longer issuable so (no
 * default balance, no valid days), the member gone (a member deleted meanwhile is refused by the
 * card's foreign key, and the next try answers this), a 体验卡 for a member who has had theirs.
 */
export async function issueCardPaidOnline(
  tx: Tx,
  events: Events,
  a: {
    storeId: number;
    memberId: number;
    productId: number;
    now: string;
    payment: OnlinePayment;
    /** The member's signature of the contract before paying (the order's), if any. */
    signature?: { at: string; ip: string; ua: string };
  },
): Promise<{ memberCardId: number; cardName: string } | { refused: string }> {
  const product = await productForSale(tx, a.storeId, a.productId);
  if (!product || product.deleted) return { refused: PayExceptionMsg.productGone };
  if (product.totalCount === null) return { refused: PayExceptionMsg.productChanged };
  const totalCount = product.totalCount;
  const start = saleActivation(product, a.now, null);
  if (!start) return { refused: PayExceptionMsg.productChanged };
  if (!(await findMember(tx, a.storeId, a.memberId))) return { refused: PayExceptionMsg.memberGone };
  // A second 体验卡 (the member got one meanwhile, e.g. at the desk): 异常订单, never a second card.
  if (product.trial === 1 && (await trialTaken(tx, a.storeId, a.memberId, a.payment.payOrderId))) {
    return { refused: CardMsg.trialOnce };
  }
  // The limits again, as the payment arrives (a sale at the desk may have come first): 异常订单, refunded.
  await lockMember(tx, a.memberId);
  const over = await prepaidLimitRefusal(tx, a.storeId, a.now, {
    memberId: a.memberId,
    ask: saleAsk(product, a.payment.amount, totalCount, start, a.now),
    added: a.payment.amount,
  });
  if (over) return { refused: over };
  const { card, ledgerId } = await writeIssuedCard(tx, events, {
    storeId: a.storeId,
    memberId: a.memberId,
    cardId: a.productId,
    totalCount,
    ...start,
    now: a.now,
    operatorId: null,
    remark: a.payment.remark,
    paid: a.payment.amount,
    trial: product.trial === 1,
    signature: a.signature,
  });
  await recordOnlinePayment(tx, a.storeId, card.id, ledgerId, 'sale', a.now, a.payment);
  audit(tx, {
    kind: 'card',
    summary: `线上购卡 ${product.cardName} ${amountText(product.bigType, totalCount)}`,
    targets: [cardTarget(card), { type: 'member', id: a.memberId }, { type: 'product', id: a.productId }],
  });
  return { memberCardId: card.id, cardName: product.cardName };
}

/**
 * Credits a top-up paid online to a card in the caller's transaction: one guarded UPDATE (the card
 * not refunded and still the member's). Answers why it cannot (nothing written then): the card gone,
 * refunded, or transferred to another member.
 */
export async function topUpCardPaidOnline(
  tx: Tx,
  a: { storeId: number; memberCardId: number; memberId: number; amount: number; now: string; payment: OnlinePayment },
): Promise<true | { refused: string }> {
  await lockMember(tx, a.memberId);
  const over = await prepaidLimitRefusal(tx, a.storeId, a.now, {
    memberId: a.memberId,
    ask: { kind: 'money', amount: a.payment.amount, startDay: a.now.slice(0, 10) },
    onCard: a.memberCardId,
    added: a.payment.amount,
  });
  if (over) return { refused: over };
  if (!(await addToCardTotal(tx, a.storeId, a.memberCardId, a.amount, a.memberId))) {
    const c = await cardHolder(tx, a.storeId, a.memberCardId);
    if (!c) return { refused: PayExceptionMsg.cardGone };
    if (c.refundedAt) return { refused: PayExceptionMsg.cardRefunded };
    return { refused: PayExceptionMsg.cardTransferred };
  }
  const ledgerId = await addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: a.memberCardId,
    kind: 'topup',
    amount: a.amount,
    operatorId: null,
    remark: a.payment.remark,
    createdAt: a.now,
  });
  await recordOnlinePayment(tx, a.storeId, a.memberCardId, ledgerId, 'topup', a.now, a.payment);
  audit(tx, {
    kind: 'card',
    summary: `线上充值 ${amountText(BIG_TYPE_MONEY, a.amount)}`,
    targets: [
      { type: 'card', id: a.memberCardId },
      { type: 'member', id: a.memberId },
    ],
  });
  return true;
}

/** Why a card could not be closed for a refund: refunded already, changed since read, or a class still booked on it. */
export type CloseRefusal = 'refunded' | 'changed' | 'used';

/**
 * Closes a card for a whole refund in the caller's transaction (the desk's 退卡, and a refund of the
 * online order that sold it): one guarded UPDATE takes what is left of its balance and marks it
 * refunded (only while its total and use are as read, not refunded, no booking of a class to come),
 * then its `card_refund` ledger entry of the balance taken. Answers the entry's id, or why the card
 * could not be closed (nothing written then). The amount paid back is the caller's (the refund quote).
 */
export async function closeCardForRefund(
  tx: Tx,
  a: {
    storeId: number;
    card: { id: number; totalCount: number; usedCount: number };
    now: string;
    operatorId: number | null;
    remark: string | null;
  },
): Promise<{ ledgerId: number } | { refused: CloseRefusal }> {
  if (!(await markCardRefunded(tx, a.storeId, a.card, a.now))) {
    const now = await requireMemberCard(tx, a.storeId, a.card.id);
    if (now.refundedAt) return { refused: 'refunded' };
    if (now.totalCount !== a.card.totalCount || now.usedCount !== a.card.usedCount) return { refused: 'changed' };
    return { refused: 'used' };
  }
  const ledgerId = await addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: a.card.id,
    kind: 'card_refund',
    amount: -(a.card.totalCount - a.card.usedCount),
    operatorId: a.operatorId,
    remark: a.remark,
    createdAt: a.now,
  });
  return { ledgerId };
}

/**
 * Takes money paid back off a card's balance in the caller's transaction (the desk's 退回充值, and a
 * refund of an online top-up): guarded (the card open, its balance holding `amount`), then its
 * `topup_refund` ledger entry. Answers the entry's id, or null when the balance does not hold it.
 */
export async function takeFromCardForRefund(
  tx: Tx,
  a: {
    storeId: number;
    memberCardId: number;
    amount: number;
    now: string;
    operatorId: number | null;
    remark: string | null;
  },
): Promise<number | null> {
  if (!(await takeFromCardTotal(tx, a.storeId, a.memberCardId, a.amount))) return null;
  return addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: a.memberCardId,
    kind: 'topup_refund',
    amount: -a.amount,
    operatorId: a.operatorId,
    remark: a.remark,
    createdAt: a.now,
  });
}

/**
 * Puts back what a refund took (its provider refused it) in the caller's transaction: a card it closed
 * is reopened with its total, money it took off the balance is added back (guarded: the card as the
 * refund left it), with a `refund_undone` ledger entry. Answers the entry's id, or null when the card
 * changed meanwhile (refunded at the desk) and cannot be put back.
 */
export async function putBackRefund(
  tx: Tx,
  a: {
    storeId: number;
    memberCardId: number;
    taken: { kind: string; amount: number };
    now: string;
    operatorId: number | null;
    remark: string | null;
  },
): Promise<number | null> {
  const back = -Number(a.taken.amount);
  const ok =
    a.taken.kind === 'card_refund'
      ? await reopenRefundedCard(tx, a.storeId, a.memberCardId, back)
      : await addToCardTotal(tx, a.storeId, a.memberCardId, back);
  if (!ok) return null;
  return addLedgerEntry(tx, {
    storeId: a.storeId,
    memberCardId: a.memberCardId,
    kind: 'refund_undone',
    amount: back,
    operatorId: a.operatorId,
    remark: a.remark,
    createdAt: a.now,
  });
}

/** Records money paid back through an online order's provider (its refund succeeded), for its ledger entry. */
export function recordOnlineRefund(
  tx: Tx,
  a: {
    storeId: number;
    memberCardId: number;
    ledgerId: number;
    amount: number;
    method: 'wechat' | 'alipay';
    staffId: number | null;
    remark: string;
    now: string;
    payOrderId: number;
  },
) {
  return insertPayment(tx, {
    storeId: a.storeId,
    memberCardId: a.memberCardId,
    ledgerId: a.ledgerId,
    kind: 'refund',
    amount: a.amount,
    method: a.method,
    staffId: a.staffId,
    remark: a.remark,
    createdAt: a.now,
    refundOf: null,
    channel: 'online',
    payOrderId: a.payOrderId,
  });
}

function recordOnlinePayment(
  tx: Tx,
  storeId: number,
  memberCardId: number,
  ledgerId: number,
  kind: 'sale' | 'topup',
  now: string,
  p: OnlinePayment,
) {
  return insertPayment(tx, {
    storeId,
    memberCardId,
    ledgerId,
    kind,
    amount: p.amount,
    method: p.method,
    staffId: null,
    remark: p.remark,
    createdAt: now,
    refundOf: null,
    channel: 'online',
    payOrderId: p.payOrderId,
  });
}

/** Freezes (1) or unfreezes (0) a member card. */
export async function setCardFrozen(ctx: CallCtx, id: number, frozen: 0 | 1) {
  const c = await mustFindOpenCard(ctx, id);
  const state = (f: number) => ({ frozen: f ? '冻结' : '正常' });
  audit(ctx.db, {
    kind: 'card',
    summary: frozen ? '冻结会员卡' : '解冻会员卡',
    targets: [cardTarget(c), memberTarget(c)],
    ...changedFields(state(c.frozen), state(frozen), { frozen: '状态' }),
  });
  await setMemberCardFrozen(ctx.db, ctx.store.id, id, frozen);
  return null;
}

/**
 * Adds `amount` to a card's total (in the database, not read-then-write, and only while the card
 * is not refunded), writes ledger `topup` and, when given, the money taken for it.
 */
export async function topUpCard(ctx: CallCtx, id: number, amount: number, payment?: Payment, sellerId?: number) {
  const c = await mustFindOpenCard(ctx, id);
  const seller = await sellerOf(ctx, sellerId);
  const storeId = ctx.store.id;
  const now = storeNow(ctx);
  await inOwnTx(ctx.db, async (tx) => {
    // What the top-up is worth: the money taken, or for a money card without a payment its amount.
    const kind = prepaidKindOf(c);
    const paid = payment?.amount ?? (kind === 'money' ? amount : 0);
    await refuseOverPrepaidLimits(tx, storeId, now, {
      memberId: c.memberId,
      ask: {
        kind,
        amount: paid,
        count: kind === 'lessons' ? c.totalCount + amount : undefined,
        startDay: now.slice(0, 10),
      },
      onCard: id,
      added: paid,
    });
    audit(tx, {
      kind: 'card',
      summary: `会员卡充值 ${amountText(c.bigType, amount)}${payment ? `，销售员 ${seller.name}` : ''}`,
      targets: [cardTarget(c), memberTarget(c)],
      ...changedFields(
        { total: amountText(c.bigType, c.totalCount) },
        { total: amountText(c.bigType, c.totalCount + amount) },
        { total: '总额度' },
      ),
    });
    if (!(await addToCardTotal(tx, storeId, id, amount))) throw conflict(CardMsg.refunded);
    const ledgerId = await addLedgerEntry(tx, {
      storeId,
      memberCardId: id,
      kind: 'topup',
      amount,
      operatorId: ctx.staff.id,
      remark: payment?.remark ?? null,
      createdAt: now,
    });
    if (payment) {
      await recordPayment(tx, ctx, { ...payment, memberCardId: id, ledgerId, kind: 'topup', sellerId: seller.id });
    }
  });
  return null;
}

/**
 * Moves a card's expiry to the end of the given day. Its validity follows (expiry = activation +
 * validity + leave): counted from its start, or for a 首次上课开卡 card not started from its last day
 * to start (its first class then keeps the validity set here).
 */
export async function setCardExpiry(ctx: CallCtx, id: number, date: string) {
  const c = await mustFindOpenCard(ctx, id);
  const from = c.activateTime?.slice(0, 10) ?? activateBy(c.createdAt, c);
  audit(ctx.db, {
    kind: 'card',
    summary: '修改会员卡到期日期',
    targets: [cardTarget(c), memberTarget(c)],
    ...changedFields({ expire: c.expireTime?.slice(0, 10) ?? null }, { expire: date }, { expire: '到期日期' }),
  });
  await setMemberCardExpiry(ctx.db, ctx.store.id, id, endOfDay(date), validDaysFor(from, date, Number(c.leaveDays)));
  return null;
}

/**
 * Every balance change of a card, newest first, with the operator's name, the money taken or paid
 * back with it (sale, top-up, refund) and, for a top-up, whether it has been paid back.
 */
export async function cardLedger(ctx: CallCtx, id: number) {
  await requireMemberCard(ctx.db, ctx.store.id, id);
  const rows = await cardLedgerRows(ctx.db, ctx.store.id, id);
  return rows.map(({ paidAmount, paidMethod, refundId, courseName, sessionStart, ...r }) => ({
    ...r,
    session: courseName != null && sessionStart != null ? { courseName, startTime: sessionStart } : null,
    amount: Number(r.amount),
    payment: paidMethod == null ? null : { amount: Number(paidAmount), method: paidMethod },
    refunded: refundId != null,
  }));
}
