import { amountText, BIG_TYPE_MONEY, CardMsg, REFUND_RULES, type Payment } from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { requireMember } from '../reference/public.ts';
import { storeNow } from '../../lib/time.ts';
import {
  closeCardForRefund,
  mustFindOpenCard,
  recordPayment,
  takeFromCardForRefund,
  type CloseRefusal,
} from './member-card-service.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { quoteRefund } from './refund-quote.ts';
import {
  contractTermsOfCard,
  findLedgerEntry,
  insertTopupRefund,
  memberPaymentRows,
  onlineOrderOfEntry,
  paidFor,
  saleOrderOf,
} from './repository.ts';

/** The desk's words for a card that could not be closed. */
const CLOSE_REFUSED: Record<CloseRefusal, string> = {
  refunded: CardMsg.refunded,
  changed: CardMsg.changed,
  used: CardMsg.refundOpenBookings,
};

type Card = Awaited<ReturnType<typeof mustFindOpenCard>>;
interface Refund extends Payment {
  id: number;
  topupId?: number;
}

/**
 * The refund quote of a card (issue 29, item 3: `quoteRefund`), and whether the acting staff member
 * may pay it: the cooling-off refund the desk may; the product's rule only a manager.
 */
export async function refundQuoteOf(ctx: CallCtx, memberCardId: number) {
  const card = await mustFindOpenCard(ctx, memberCardId);
  const [quote, order, contract] = await Promise.all([
    quoteRefund(ctx.db, ctx.store.id, card, storeNow(ctx)),
    saleOrderOf(ctx.db, ctx.store.id, card.id),
    contractTermsOfCard(ctx.db, ctx.store.id, card.id),
  ]);
  const terms = contract ? (JSON.parse(contract.terms) as { coolingOff?: string; refund?: string }) : null;
  return {
    ...quote,
    // The contract it was sold under, cited with the quote (its refund terms as sold).
    contract:
      contract && terms
        ? {
            version: Number(contract.version),
            signedAt: contract.signedAt,
            coolingOffDays: terms.coolingOff ?? '',
            refund: terms.refund ?? '',
          }
        : null,
    allowed: quote.rule === 'cooling_off' || ctx.post.role === 'manager',
    onlineOrder: order ? { orderNo: order.orderNo, provider: order.provider as 'wechat' | 'alipay' } : null,
  };
}

/**
 * Pays back a whole card, at most its refund quote (worked out here again, not taken from the
 * screen): within the cooling-off days (the desk may) or by the product's rule (a manager). What is
 * left of its balance leaves it and it is marked refunded, so it books and takes top-ups no more.
 * One guarded UPDATE decides, so a booking or a second refund racing it finds the card changed; a
 * card with a class still to come is refused (cancel the booking first). A card bought online is
 * refused (409, nothing written): its money goes back through the provider (线上订单's refund).
 */
async function refundWholeCard(ctx: CallCtx, card: Card, r: Refund) {
  const online = await saleOrderOf(ctx.db, ctx.store.id, card.id);
  if (online) throw conflict(CardMsg.cardOnline(online.orderNo));
  const now = storeNow(ctx);
  const quote = await quoteRefund(ctx.db, ctx.store.id, card, now);
  if (quote.rule !== 'cooling_off' && ctx.post.role !== 'manager')
    throw forbidden(quote.coolingOff ? CardMsg.refundOpened : CardMsg.refundManager);
  // Money paid online into the card (a top-up) goes back through its order first, never stranded.
  const orders = quote.parts.flatMap((p) => (p.orderNo ? [p.orderNo] : []));
  if (orders.length) throw conflict(CardMsg.refundOnlineFirst(orders.join('、')));
  if (r.amount > quote.amount) throw conflict(CardMsg.refundAboveQuote(amountText(BIG_TYPE_MONEY, quote.amount)));
  await inOwnTx(ctx.db, async (tx) => {
    const closed = await closeCardForRefund(tx, {
      storeId: ctx.store.id,
      card,
      now,
      operatorId: ctx.staff.id,
      remark: r.remark ?? null,
    });
    if ('refused' in closed) throw conflict(CLOSE_REFUSED[closed.refused]);
    const { ledgerId } = closed;
    await recordPayment(tx, ctx, { ...r, memberCardId: card.id, ledgerId, kind: 'refund' });
    audit(tx, {
      kind: 'card',
      summary: `退卡（${REFUND_RULES[quote.rule]}），退款 ${amountText(BIG_TYPE_MONEY, r.amount)}；${quote.detail}`,
      targets: [
        { type: 'card', id: card.id },
        { type: 'member', id: card.memberId },
      ],
    });
  });
}

/**
 * Pays back one top-up: its amount leaves the card's balance (guarded: the balance must still hold
 * it) and the money is recorded as a refund of that top-up, once (a unique index on `refund_of`).
 * A top-up paid online is refused (409, nothing written): its money goes back through the provider,
 * from 线上订单 (the online order's refund), or the member would be paid twice.
 */
async function refundTopup(ctx: CallCtx, card: Card, topupId: number, r: Refund) {
  const topup = await findLedgerEntry(ctx.db, ctx.store.id, card.id, topupId);
  if (!topup) throw notFound('充值记录');
  if (topup.kind !== 'topup') throw conflict(CardMsg.notTopup);
  const online = await onlineOrderOfEntry(ctx.db, ctx.store.id, card.id, topupId);
  if (online !== undefined) throw conflict(CardMsg.topupOnline(online));
  const amount = Number(topup.amount);
  if (r.amount > (await paidFor(ctx.db, ctx.store.id, card.id, topupId))) throw conflict(CardMsg.refundTooMuch);
  const now = storeNow(ctx);
  await inOwnTx(ctx.db, async (tx) => {
    const ledgerId = await takeFromCardForRefund(tx, {
      storeId: ctx.store.id,
      memberCardId: card.id,
      amount,
      now,
      operatorId: ctx.staff.id,
      remark: r.remark ?? null,
    });
    if (ledgerId === null) throw conflict(CardMsg.topupBalance);
    const paid = await insertTopupRefund(tx, {
      storeId: ctx.store.id,
      memberCardId: card.id,
      ledgerId,
      kind: 'refund',
      amount: r.amount,
      method: r.method,
      staffId: ctx.staff.id,
      remark: r.remark,
      createdAt: now,
      refundOf: topupId,
    });
    // Another refund of this top-up committed first: undo this one whole.
    if (paid === undefined) throw conflict(CardMsg.topupRefunded);
    audit(tx, {
      kind: 'card',
      summary: `退充值 ${amountText(card.bigType, amount)}，退款 ${amountText(BIG_TYPE_MONEY, r.amount)}`,
      targets: [
        { type: 'card', id: card.id },
        { type: 'member', id: card.memberId },
      ],
    });
  });
}

/** Refunds a whole card (by its quote), or one top-up of a card (a manager's), recording the money paid back. */
export async function refundCard(ctx: CallCtx, r: Refund) {
  const card = await mustFindOpenCard(ctx, r.id);
  if (r.topupId && ctx.post.role !== 'manager') throw forbidden(CardMsg.topupManager);
  if (r.topupId) await refundTopup(ctx, card, r.topupId, r);
  else await refundWholeCard(ctx, card, r);
  return null;
}

/** The money a member paid and was paid back (sales, top-ups, refunds), newest first. */
export async function memberPaymentList(ctx: CallCtx, memberId: number) {
  await requireMember(ctx.db, ctx.store.id, memberId);
  const rows = await memberPaymentRows(ctx.db, ctx.store.id, memberId);
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}
