import crypto from 'node:crypto';
import {
  amountText,
  BIG_TYPE_MONEY,
  PayExceptionMsg,
  PayMsg,
  RefundMsg,
  type ParsedReqOf,
  type refundPayOrder,
} from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope, type AuditScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { jobItemFailed } from '../../lib/jobs.ts';
import { localDateTime } from '../../lib/time.ts';
import { publicBaseOf } from '../messaging/public.ts';
import {
  cardHolder,
  closeCardForRefund,
  paidBackAgainst,
  putBackRefund,
  quoteRefund,
  recordOnlineRefund,
  requireMemberCard,
  takeFromCardForRefund,
  type CloseRefusal,
} from '../cards/public.ts';
import type { Deps } from './fulfil.ts';
import { PaymentProviderError, type PaymentProvider, type ProviderName, type RefundStatus } from './providers/types.ts';
import {
  addExceptionOrderRefund,
  addOrderRefund,
  deferRefundQuery,
  findOrder,
  findOrderById,
  findRefund,
  insertRefund,
  markRefundAbnormal,
  markRefundDone,
  markOrderException,
  markRefundFailed,
  refundLedgerEntry,
  strandedRefusalsOf,
  refundsOfOrders,
  refundsOpen,
  setRefundUndo,
  takeBackOrderRefund,
  type OrderRow,
  type RefundRow,
} from './repository.ts';
import { loadPaySetting, PROVIDER_LABEL, providerOf } from './settings.ts';

type RefundInput = ParsedReqOf<typeof refundPayOrder>;

const fen = (n: number) => amountText(BIG_TYPE_MONEY, n);

const CLOSE_REFUSED: Record<CloseRefusal, string> = {
  refunded: RefundMsg.cardRefunded,
  changed: RefundMsg.cardChanged,
  used: RefundMsg.cardUsed,
};

/** Refund numbers: R + store-local time + store + random digits (at most 64: WeChat's limit). */
function newRefundNo(storeId: number, now: string) {
  const digits = Array.from(crypto.randomBytes(8), (b) => String(b % 10)).join('');
  return `R${now.replace(/\D/g, '')}${storeId}${digits}`.slice(0, 64);
}

const notifyUrlOf = (base: string, provider: ProviderName, storeId: number) =>
  `${base}/pay/notify/${provider}/${storeId}`;

/** One order's refund: the order, its provider, and what goes back through it. */
interface OrderRefund {
  order: NonNullable<Awaited<ReturnType<typeof findOrder>>>;
  provider: PaymentProvider;
  amount: number;
  refundNo: string;
}

/**
 * 店长 refunds an online order (whole or part; the desk a card order by its cooling-off refund).
 * One transaction, guarded once: the order's refunded amount grows (never above the amount paid: one
 * guarded UPDATE, so of two refunds at once only one passes), the card changes and the refund is
 * recorded 退款中. A top-up order's amount leaves the card's balance (which must hold it). A card
 * order's refund closes the card, as at the desk's 退卡, no class of it to come, paying back its
 * refund quote (issue 29): `amount` is the card order's own part at most, and every other order
 * that paid into the card (its online top-ups) gets its part of the quote back through its own
 * provider in the same transaction, each its own refund (issue 42, item 3: nothing stranded on a
 * closed card, the card closed once, in whichever order the orders are refunded). Then, outside the
 * transaction, each provider is asked; its answer settles its refund (see settleRefund): refused →
 * the card change is put back and the caller gets a 409 with the provider's reason.
 */
export async function refundOrder(ctx: CallCtx, input: RefundInput): Promise<null> {
  const storeId = ctx.store.id;
  const order = await findOrder(ctx.db, storeId, input.orderNo);
  if (!order) throw notFound('订单');
  if (order.status === 3) throw conflict(RefundMsg.allRefunded);
  // 异常订单 (paid, nothing issued; or a refund refused once its card was closed): 原路退款 in full of
  // what it owes, by the manager; no card changes.
  const exception = order.status === 5;
  const due = exception ? exceptionDue(order, await refundsOfOrders(ctx.db, storeId, [order.id])) : 0;
  if (exception) {
    if (ctx.post.role !== 'manager') throw forbidden(RefundMsg.manager);
    if (input.amount !== due) throw conflict(PayExceptionMsg.wholeOnly(fen(due)));
  } else if ((order.status !== 1 && order.status !== 4) || order.memberCardId === null) {
    throw conflict(RefundMsg.notPaid);
  }
  const left = order.amount - order.refunded;
  if (input.amount > left) throw conflict(RefundMsg.tooMuch(fen(left)));
  const setting = await loadPaySetting(ctx.db, storeId);
  const providerFor = (name: string) => {
    const provider = providerOf(setting, name as ProviderName, ctx);
    if (!provider) throw conflict(PayMsg.notEnabled(PROVIDER_LABEL[name as ProviderName]));
    return provider;
  };
  if (exception) {
    const provider = providerFor(order.provider);
    const refundNo = await refundExceptionOrder(ctx, order, due, input);
    return askProviderToRefund(ctx, [{ order, provider, amount: due, refundNo }], input);
  }
  const card = await requireMemberCard(ctx.db, storeId, order.memberCardId ?? 0);
  const now = localDateTime(ctx.store.timezone);
  const manager = ctx.post.role === 'manager';
  const mine: OrderRefund = { order, provider: providerFor(order.provider), amount: input.amount, refundNo: '' };
  const others: OrderRefund[] = [];
  if (order.kind === 'card') {
    // A card order pays back the card's refund quote (issue 29: in full within the cooling-off days,
    // else by the product's rule), computed here as for the desk's 退卡; the desk may make the
    // cooling-off refund, as it may of a card sold at the counter.
    const quote = await quoteRefund(ctx.db, storeId, card, now);
    if (!manager && quote.rule !== 'cooling_off')
      throw forbidden(quote.coolingOff ? RefundMsg.managerOpened : RefundMsg.manager);
    const most = quote.parts.find((p) => p.orderNo === order.orderNo)?.amount ?? 0;
    if (input.amount > most) throw conflict(RefundMsg.tooMuch(fen(most)));
    const desk = quote.parts.find((p) => p.kind === 'desk');
    if (desk) throw conflict(RefundMsg.deskFirst(fen(desk.amount)));
    for (const p of quote.parts) {
      if (!p.orderNo || p.orderNo === order.orderNo) continue;
      const o = await findOrder(ctx.db, storeId, p.orderNo);
      if (!o) throw conflict(RefundMsg.cardChanged);
      others.push({ order: o, provider: providerFor(o.provider), amount: p.amount, refundNo: '' });
    }
  } else if (!manager) {
    throw forbidden(RefundMsg.manager);
  }
  // The top-ups first (each takes its part off the balance), then the card order closes the card.
  const all = [...others, mine];
  for (const r of all) r.refundNo = newRefundNo(storeId, now);
  const remark = (o: { orderNo: string }) => `线上订单 ${o.orderNo} 退款：${input.reason}`;

  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    for (const r of all) {
      const o = r.order;
      if (!(await addOrderRefund(tx, o.id, r.amount))) {
        const again = await findOrder(tx, storeId, o.orderNo);
        if (o !== order) throw conflict(RefundMsg.cardChanged);
        if (again?.status === 3) throw conflict(RefundMsg.allRefunded);
        throw conflict(RefundMsg.tooMuch(fen(again ? again.amount - again.refunded : 0)));
      }
      let ledgerId: number;
      if (o.kind === 'card') {
        const closed = await closeCardForRefund(tx, {
          storeId,
          card,
          now,
          operatorId: ctx.staff.id,
          remark: remark(o),
        });
        if ('refused' in closed) throw conflict(CLOSE_REFUSED[closed.refused]);
        ledgerId = closed.ledgerId;
      } else {
        const taken = await takeFromCardForRefund(tx, {
          storeId,
          memberCardId: card.id,
          amount: r.amount,
          now,
          operatorId: ctx.staff.id,
          remark: remark(o),
        });
        if (taken === null) throw conflict(card.refundedAt ? RefundMsg.cardRefunded : RefundMsg.topupBalance);
        ledgerId = taken;
        // The card order's close below reads the card as it is now.
        card.totalCount = Number(card.totalCount) - r.amount;
      }
      await insertRefund(tx, {
        storeId,
        refundNo: r.refundNo,
        payOrderId: o.id,
        memberCardId: card.id,
        amount: r.amount,
        reason: input.reason,
        status: 0,
        staffId: ctx.staff.id,
        createdAt: now,
        settledAt: null,
        providerRefundId: null,
        failReason: null,
        ledgerId,
        undoLedgerId: null,
      });
      const withCard = o === order ? '' : `（随购卡订单 ${order.orderNo} 退卡）`;
      audit(tx, {
        kind: 'card',
        summary: `线上订单退款 ${fen(r.amount)}（${o.kind === 'card' ? '退卡' : '扣回充值'}）${withCard}，原因：${input.reason}`,
        target: `订单 ${o.orderNo} / 退款 ${r.refundNo}`,
        targets: [
          { type: 'member', id: o.memberId },
          { type: 'card', id: card.id },
        ],
      });
    }
  });

  return askProviderToRefund(ctx, all, input);
}

/**
 * What an 异常订单's 原路退款 pays back, from its refunds: those refused once their card could not take
 * the money back (退款失败 with a card change and nothing put back, issue 42), less its 原路退款 not
 * refused; an order never fulfilled (none such) pays back what is left of it.
 */
export function exceptionDue(
  order: { amount: number; refunded: number },
  refunds: { amount: number; status: number; ledgerId: number | null; undoLedgerId: number | null }[],
): number {
  const sum = (f: (r: (typeof refunds)[number]) => boolean) =>
    refunds.filter(f).reduce((n, r) => n + Number(r.amount), 0);
  const stranded = sum((r) => r.status === 2 && r.ledgerId !== null && r.undoLedgerId === null);
  if (stranded === 0) return order.amount - order.refunded;
  return stranded - sum((r) => r.status !== 2 && r.ledgerId === null);
}

/**
 * 原路退款 of an 异常订单, its transaction: the order 异常订单 -> 已退款 by `amount` (what it owes:
 * guarded, once) and the refund 退款中 with no card change (member_card_id and ledger_id null). Then the
 * provider is asked as for any refund (askProviderToRefund).
 */
async function refundExceptionOrder(
  ctx: CallCtx,
  order: OrderRow,
  amount: number,
  input: RefundInput,
): Promise<string> {
  const storeId = ctx.store.id;
  const now = localDateTime(ctx.store.timezone);
  const refundNo = newRefundNo(storeId, now);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    // Another refund of the order refused meanwhile owes more: the amount is checked again here.
    const owed = exceptionDue(order, await refundsOfOrders(tx, storeId, [order.id]));
    if (owed !== amount) throw conflict(PayExceptionMsg.wholeOnly(fen(owed)));
    if (!(await addExceptionOrderRefund(tx, order.id, amount))) {
      const o = await findOrder(tx, storeId, order.orderNo);
      throw conflict(o?.status === 3 ? RefundMsg.allRefunded : RefundMsg.notPaid);
    }
    await insertRefund(tx, {
      storeId,
      refundNo,
      payOrderId: order.id,
      memberCardId: null,
      amount,
      reason: input.reason,
      status: 0,
      staffId: ctx.staff.id,
      createdAt: now,
      settledAt: null,
      providerRefundId: null,
      failReason: null,
      ledgerId: null,
      undoLedgerId: null,
    });
    audit(tx, {
      kind: 'card',
      summary: `异常订单原路退款 ${fen(amount)}（${order.exceptionReason ?? ''}），原因：${input.reason}`,
      target: `订单 ${order.orderNo} / 退款 ${refundNo}`,
      targets: [{ type: 'member', id: order.memberId }],
    });
  });
  return refundNo;
}

/** Asks each provider for its refund recorded 退款中, and settles it from its answer (see refundOrder). */
async function askProviderToRefund(ctx: CallCtx, all: OrderRefund[], input: RefundInput): Promise<null> {
  const storeId = ctx.store.id;
  const { base } = await publicBaseOf(ctx);
  let refused: string | null = null;
  for (const r of all) {
    const providerName = r.order.provider as ProviderName;
    let answer: RefundStatus;
    try {
      answer = await r.provider.refund({
        outTradeNo: r.order.orderNo,
        outRefundNo: r.refundNo,
        refundFen: r.amount,
        totalFen: r.order.amount,
        reason: input.reason,
        notifyUrl: notifyUrlOf(base, providerName, storeId),
      });
    } catch (e) {
      if (!(e instanceof PaymentProviderError)) throw e;
      // Unknown whether it arrived: the refund stays 退款中; the settling job asks (and asks again with the same number).
      ctx.log.warn(
        { storeId, refundNo: r.refundNo, provider: providerName, kind: e.kind, code: e.code },
        'refund request failed',
      );
      continue;
    }
    const row = await findRefund(ctx.db, storeId, r.refundNo);
    const settled = row ? await settleRefund(ctx, row, answer) : null;
    if (answer.state === 'refused') {
      const why = answer.reason ?? answer.providerState;
      // The 原路退款 of an 异常订单 changed no card: nothing was put back, the money is still owed.
      refused ??=
        settled === 'exception'
          ? RefundMsg.refusedCardClosed(why)
          : r.order.status === 5
            ? RefundMsg.refusedNoCard(why)
            : RefundMsg.refused(why);
    }
  }
  if (refused !== null) throw conflict(refused);
  return null;
}

/** 'exception': refused once its card could not take the money back; its order is 异常订单 now. */
export type SettleResult = 'done' | 'failed' | 'exception' | 'abnormal' | 'open' | 'already' | 'refused';

/**
 * Settles a refund from the provider's word (its answer, its notification, or a query), once: success
 * → 已退款 and the money recorded as paid back 线上; refused → in one transaction 退款失败 with the
 * provider's reason, the card change put back (card reopened / balance restored) and the order's
 * refunded amount reduced; when the card can no longer take it back (closed, by the card order's
 * refund, or changed meanwhile), nothing is put back and the order becomes 异常订单 instead, its money
 * to go back to the member by 原路退款 (issue 42: never stranded, never an error every round);
 * abnormal (WeChat's ABNORMAL) → 退款异常, once, nothing else: the money is on its way out, so the card stays as the refund left it, no money is recorded as paid back, and the
 * manager is told to handle it on WeChat Pay's 商户平台; it stays open (the job keeps asking, and a
 * later SUCCESS or CLOSED settles it as above); processing → nothing yet. Each guarded on the refund
 * being open, so a notification, the job and the call's own answer settle it once. `scope`: a job's
 * or notification's (default: the call's).
 */
export async function settleRefund(
  deps: Deps,
  r: RefundRow,
  facts: RefundStatus,
  scope?: AuditScope,
): Promise<SettleResult> {
  if (facts.state === 'processing') return 'open';
  if (facts.outRefundNo !== r.refundNo || (facts.refundFen !== null && facts.refundFen !== r.amount)) {
    deps.log.warn(
      { storeId: r.storeId, refundNo: r.refundNo, said: facts.outRefundNo, amount: facts.refundFen },
      'refund facts refused: they do not match the refund',
    );
    return 'refused';
  }
  const order = await findOrderById(deps.db, r.payOrderId);
  if (!order) return 'refused';
  const store = await findStoreScope(deps.db, r.storeId);
  const now = localDateTime(store?.timezone ?? 'Asia/Shanghai');
  // The refund of an 异常订单 changed no card: no card to name, no money paid back to a card, nothing to put back.
  const cardId = r.memberCardId;
  const targets = [
    { type: 'member' as const, id: order.memberId },
    ...(cardId === null ? [] : [{ type: 'card' as const, id: cardId }]),
  ];
  const target = `订单 ${order.orderNo} / 退款 ${r.refundNo}`;
  return inWriteTx(
    deps.db,
    deps.dialect,
    async (tx): Promise<SettleResult> => {
      if (facts.state === 'abnormal') {
        if (!(await markRefundAbnormal(tx, r.id, facts.reason ?? facts.providerState))) {
          skipAudit(tx);
          return 'already';
        }
        audit(tx, { kind: 'card', summary: `线上退款异常：${RefundMsg.abnormal}`, target, targets });
        return 'abnormal';
      }
      if (facts.state === 'success') {
        if (!(await markRefundDone(tx, r.id, now, facts.providerRefundId))) {
          skipAudit(tx);
          return 'already';
        }
        const method = order.provider === 'wechat' ? 'wechat' : 'alipay';
        if (cardId !== null && r.ledgerId !== null)
          await recordOnlineRefund(tx, {
            storeId: r.storeId,
            memberCardId: cardId,
            ledgerId: r.ledgerId,
            amount: r.amount,
            method,
            staffId: r.staffId,
            remark: `线上订单 ${order.orderNo} 退款：${r.reason}`,
            now,
            payOrderId: order.id,
          });
        else await recordPaidBackOfRefused(tx, order, r, method, now);
        audit(tx, { kind: 'card', summary: `线上退款成功 ${fen(r.amount)}`, target, targets });
        return 'done';
      }
      const why = facts.reason ?? facts.providerState;
      if (!(await markRefundFailed(tx, r.id, now, why))) {
        skipAudit(tx);
        return 'already';
      }
      let stranded: string | null = null;
      if (cardId !== null && r.ledgerId !== null) {
        const taken = await refundLedgerEntry(tx, r.ledgerId);
        const undo = await putBackRefund(tx, {
          storeId: r.storeId,
          memberCardId: cardId,
          taken: { kind: taken.kind, amount: Number(taken.amount) },
          now,
          operatorId: null,
          remark: `线上订单 ${order.orderNo} 退款失败：${why}`,
        });
        if (undo !== null) await setRefundUndo(tx, r.id, undo);
        else {
          // The card can no longer take it back (closed by the card order's refund, or changed meanwhile).
          const card = await cardHolder(tx, r.storeId, cardId);
          stranded = card?.refundedAt
            ? PayExceptionMsg.refundFailedCardClosed
            : PayExceptionMsg.refundFailedCardChanged;
        }
      }
      if (!(await takeBackOrderRefund(tx, order.id, r.amount))) {
        throw new Error(`refund ${r.refundNo}: order ${order.orderNo} refunded less than ${r.amount}`);
      }
      if (stranded !== null) {
        await markOrderException(tx, order.id, stranded);
        const state = stranded === PayExceptionMsg.refundFailedCardClosed ? '已退卡' : '已有变动';
        audit(tx, { kind: 'card', summary: `线上退款失败，会员卡${state}，订单转为异常订单：${why}`, target, targets });
        return 'exception';
      }
      const after = cardId === null ? '订单仍为异常订单' : '会员卡已恢复';
      audit(tx, { kind: 'card', summary: `线上退款失败，${after}：${why}`, target, targets });
      return 'failed';
    },
    scope,
  );
}

/**
 * The 原路退款 of an 异常订单 succeeded (issue 42): when the order owes what refunds refused once their
 * card could not take the money back (their card change stands: the top-up taken off a closed card),
 * the money is recorded as paid back 线上 against those card changes, so the card's money records show
 * it back: over the refused refunds in order (oldest first), each up to its amount less what was
 * recorded against it before. In the settling transaction, after its guarded 已退款 (once). An order
 * never fulfilled has none such: no card, nothing recorded.
 */
async function recordPaidBackOfRefused(
  tx: Tx,
  order: OrderRow,
  r: RefundRow,
  method: 'wechat' | 'alipay',
  now: string,
) {
  const refused = await strandedRefusalsOf(tx, order.id);
  if (!refused.length) return;
  const before = await paidBackAgainst(
    tx,
    r.storeId,
    refused.map((x) => Number(x.ledgerId)),
  );
  let left = Number(r.amount);
  for (const x of refused) {
    const ledgerId = Number(x.ledgerId);
    const part = Math.min(left, Number(x.amount) - (before.get(ledgerId) ?? 0));
    if (part <= 0 || x.memberCardId === null) continue;
    await recordOnlineRefund(tx, {
      storeId: r.storeId,
      memberCardId: x.memberCardId,
      ledgerId,
      amount: part,
      method,
      staffId: r.staffId,
      remark: `线上订单 ${order.orderNo} 原路退款：${r.reason}`,
      now,
      payOrderId: order.id,
    });
    left -= part;
    if (left === 0) return;
  }
}

/**
 * A provider's refund notification (verified by the adapter): settles the refund it names, when it is
 * the store's refund of that order. Answers whether the provider may stop notifying.
 */
export async function settleRefundNotification(
  deps: Deps,
  storeId: number,
  providerName: ProviderName,
  outTradeNo: string,
  facts: RefundStatus,
): Promise<boolean> {
  const log = { storeId, provider: providerName, refundNo: facts.outRefundNo };
  const r = await findRefund(deps.db, storeId, facts.outRefundNo);
  const order = r ? await findOrderById(deps.db, r.payOrderId) : undefined;
  if (!r || !order || order.orderNo !== outTradeNo || order.provider !== providerName) {
    deps.log.warn(log, 'refund notification for an unknown refund refused');
    return false;
  }
  try {
    const done = await settleRefund(
      deps,
      r,
      facts,
      systemScope('在线支付', `/pay/notify/${providerName}`, 'card', storeId),
    );
    return done !== 'refused';
  } catch (e) {
    deps.log.error({ ...log, err: (e as Error).message }, 'settling a refund failed');
    return false;
  }
}

const JOB = 'job/pay-refund-settle';
/** The job's name (main.ts, /metrics). */
export const REFUND_SETTLE_JOB = 'pay refund settle job';
/** A refund is asked about once it has waited this long for the provider's answer or notification. */
const SETTLE_AFTER_MS = 120_000;
/**
 * After an answer that leaves a refund open, the next query waits (minutes, by the answers so far):
 * every minute for the first five minutes, then 5, 10, 20 and 30, then every 30 minutes until the
 * provider gives a final answer (WeChat Pay 查询单笔退款: "每间隔1分钟…超过5分钟仍是退款处理中…逐步衰减
 * 查询频率（5分钟、10分钟、20分钟、30分钟……）"; Alipay's 退款查询 wants at least 10 seconds after the
 * refund request, which the first 2 minutes give).
 */
const BACKOFF_MINUTES = [1, 1, 1, 1, 1, 5, 10, 20, 30];
export const refundQueryDelayMs = (answers: number) =>
  (BACKOFF_MINUTES[Math.min(answers, BACKOFF_MINUTES.length - 1)] ?? 30) * 60_000;

/**
 * Asks the provider about one open refund and settles it by the answer; a refund the provider does
 * not know (the request never arrived, or Alipay's query found no refund yet: its documented way is
 * to ask for the refund again with the same number) is asked for again with the same number (the
 * provider does it once). An answer that leaves it open moves its next query by the backoff.
 */
export async function askAboutRefund(
  deps: Deps,
  r: RefundRow & { timezone: string },
  now: () => number = Date.now,
): Promise<SettleResult | null> {
  const order = await findOrderById(deps.db, r.payOrderId);
  if (!order) return null;
  const setting = await loadPaySetting(deps.db, r.storeId);
  const provider = providerOf(setting, order.provider as ProviderName, deps);
  if (!provider) return null;
  const facts =
    (await provider.queryRefund({ outTradeNo: order.orderNo, outRefundNo: r.refundNo })) ??
    (await provider.refund({
      outTradeNo: order.orderNo,
      outRefundNo: r.refundNo,
      refundFen: r.amount,
      totalFen: order.amount,
      reason: r.reason,
    }));
  const done = await settleRefund(deps, r, facts, systemScope('在线支付', JOB, 'card', r.storeId));
  if (done === 'open' || done === 'abnormal' || (done === 'already' && facts.state === 'abnormal')) {
    const next = localDateTime(r.timezone, now() + refundQueryDelayMs(r.queries));
    await inWriteTx(deps.db, deps.dialect, async (tx) => {
      skipAudit(tx);
      await deferRefundQuery(tx, r.id, r.queries, next);
    });
  }
  return done;
}

/**
 * The settling job: every refund still open (退款中, or 退款异常) for 2 minutes, and due by its backoff,
 * is asked about at its provider until the provider gives a final answer (see askAboutRefund). Safe
 * on any number of instances at once (each settlement is guarded on the refund being open). Each
 * refund on its own: one that throws is logged, counted in /metrics and skipped, the others go on.
 * `now` is the clock (tests move it). Answers how many it settled (已退款 or 退款失败).
 */
export async function settleOpenRefunds(deps: Deps, now: () => number = Date.now): Promise<number> {
  let n = 0;
  for (const r of await refundsOpen(deps.db)) {
    const local = localDateTime(r.timezone, now());
    if (r.createdAt > localDateTime(r.timezone, now() - SETTLE_AFTER_MS)) continue;
    if (r.nextQueryAt !== null && r.nextQueryAt > local) continue;
    try {
      const done = await askAboutRefund(deps, r, now);
      if (done === 'done' || done === 'failed' || done === 'exception') n++;
    } catch (e) {
      jobItemFailed(REFUND_SETTLE_JOB, deps.log, { storeId: r.storeId, refundNo: r.refundNo }, e);
    }
  }
  return n;
}
