import crypto from 'node:crypto';
import {
  amountText,
  BIG_TYPE_MONEY,
  CARD_TYPE_NO_EXPIRY,
  CardMsg,
  ContractMsg,
  PAY_ORDER_MINUTES,
  PAY_ORDER_STATUS,
  PAY_REFUND_STATUS,
  onlineSaleProblem,
  PayMsg,
  RefundMsg,
  type PayRefund,
  type createPayOrder,
  type memberCreateOrder,
  type ParsedReqOf,
  type PayOrder,
  type PayOrderMethod,
  type PayOrderStatus,
  type queryPayOrderList,
  type ResOf,
} from '@studio/contract';
import { inSavepoint, isUniqueViolation } from '../../db/dialect.ts';
import type { Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { jobItemFailed } from '../../lib/jobs.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import type { WithCard } from '../../lib/wire-names.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { publicBaseOf } from '../messaging/public.ts';
import { bindMemberOpenidUnder, memberOpenidUnder, useWechatState } from '../reminders/public.ts';
import { requireSeller } from '../staff/public.ts';
import { sellerOfCode } from '../teacher-pay/public.ts';
import { requireMember } from '../reference/public.ts';
import { signatureBeforePaying } from '../contracts/public.ts';
import {
  memberHadTrial,
  productForSale,
  productOrderRefusal,
  productsOnSale,
  requireMemberCard,
  startDatePassed,
  topupOrderRefusal,
} from '../cards/public.ts';
import { closeOrderHere, fulfilOrder, type Deps, type Fulfiller } from './fulfil.ts';
import { PaymentProviderError, type CreatedOrder, type ProviderName } from './providers/types.ts';
import { WechatPay } from './providers/wechatpay.ts';
import {
  expiredOrders,
  findOrder,
  insertOrder,
  openTopupOrdersOf,
  memberOrders,
  refundsOfOrders,
  storeOrders,
  storesWithOpenOrders,
  type OrderRow,
} from './repository.ts';
import { exceptionDue } from './refunds.ts';
import { loadPaySetting, PROVIDER_LABEL, providerOf, type StoredPaySetting } from './settings.ts';

const METHOD_LABEL: Record<PayOrderMethod, string> = {
  wechat_jsapi: '微信内支付',
  wechat_native: '微信扫码',
  alipay_wap: '支付宝手机网站',
  alipay_precreate: '支付宝扫码',
};

export const providerOfMethod = (m: PayOrderMethod): ProviderName => (m.startsWith('wechat') ? 'wechat' : 'alipay');

/** A card product members may buy online now: on sale, priced, with a balance and (if it expires) valid days. */
function sellable(p: {
  bigType: number;
  onlineSale?: number;
  enabled?: number;
  deleted?: number;
  onlinePrice: number;
  totalCount: number | null;
  cardType: number;
  validDays: number | null;
}): boolean {
  return (p.onlineSale ?? 1) === 1 && (p.enabled ?? 1) === 1 && (p.deleted ?? 0) === 0 && onlineSaleProblem(p) === null;
}

const summaryOf = (p: { bigType: number; totalCount: number | null; validDays: number | null; cardType: number }) =>
  `${amountText(p.bigType, p.totalCount ?? 0)}，${p.cardType === CARD_TYPE_NO_EXPIRY ? '永久有效' : `有效期${p.validDays}天`}`;

/** The products on sale, the top-up amounts and which providers take payments. */
export async function productsForMembers(ctx: CallCtx) {
  const today = localDateTime(ctx.store.timezone).slice(0, 10);
  const [products, setting] = await Promise.all([
    productsOnSale(ctx.db, ctx.store.id),
    loadPaySetting(ctx.db, ctx.store.id),
  ]);
  return {
    list: products
      .filter((p) => sellable(p) && !startDatePassed(p, today))
      .map((p) => ({
        id: p.id,
        name: p.cardName,
        price: p.onlinePrice,
        summary: summaryOf(p),
        trial: p.trial,
        bigType: p.bigType,
        totalCount: p.totalCount ?? 0,
        validDays: p.validDays,
      })),
    topupAmounts: setting.topupAmounts,
    wechat: setting.wechat.enabled,
    alipay: setting.alipay.enabled,
    wechatPayBound:
      setting.wechat.enabled &&
      (await memberOpenidUnder(ctx.db, ctx.store.id, ctx.member.id, setting.wechat.appId)) !== null,
  };
}

export function orderView(o: OrderRow, name: string): PayOrder {
  return {
    orderNo: o.orderNo,
    status: PAY_ORDER_STATUS[o.status as keyof typeof PAY_ORDER_STATUS] ?? 'created',
    kind: o.kind === 'topup' ? 'topup' : 'card',
    name,
    amount: o.amount,
    refunded: o.refunded,
    method: o.method as PayOrderMethod,
    memberCardId: o.status === 0 || o.status === 2 ? (o.kind === 'topup' ? o.memberCardId : null) : o.memberCardId,
    createTime: o.createdAt,
    expireTime: o.expireAt,
    paidTime: o.paidAt,
    closeTime: o.closedAt,
  };
}

/** Order numbers: P + store-local time + store + random digits (at most 32: WeChat's limit). */
function newOrderNo(storeId: number, now: string) {
  const digits = Array.from(crypto.randomBytes(8), (b) => String(b % 10)).join('');
  return `P${now.replace(/\D/g, '')}${storeId}${digits}`.slice(0, 32);
}

type CreateInput = WithCard<ParsedReqOf<typeof memberCreateOrder>>;
type Created = ResOf<typeof memberCreateOrder>;

/** Whose order: the member who pays, and the staff member who took it at the desk (null: the member's own). */
interface Buyer {
  memberId: number;
  staffId: number | null;
  /** The desk tops up by any amount (as at the counter); a member only by the amounts the manager lists. */
  anyTopupAmount: boolean;
  /**
   * The seller whose own link (推广链接) the member came through, or whom the desk named as 销售员 of
   * its 扫码收款: their sales commission counts it.
   */
  sellerId?: number | null;
  /** The desk's 销售员 by name, for the audit entry. */
  sellerName?: string;
  /** A member's own order of a card signs its contract first: the tick and the texted code. */
  contract?: { agree?: boolean; signCode?: string };
}

/** A member's order from their phone (see createOrder); the seller of the link they came through, if any. */
export async function createMemberOrder(ctx: CallCtx, input: CreateInput): Promise<Created> {
  const sellerId = await sellerOfCode(ctx.db, ctx.store.id, input.seller);
  const { agree, signCode, ...order } = input;
  return createOrder(
    ctx,
    { memberId: ctx.member.id, staffId: null, anyTopupAmount: false, sellerId, contract: { agree, signCode } },
    order,
  );
}

/** The desk's 扫码收款: an order for a member (a product on sale, or a top-up of their money card), shown as a QR. */
export async function createDeskOrder(
  ctx: CallCtx,
  input: WithCard<ParsedReqOf<typeof createPayOrder>>,
): Promise<ResOf<typeof createPayOrder>> {
  const m = await requireMember(ctx.db, ctx.store.id, input.mid);
  const { mid: _mid, sellerId: named, ...rest } = input;
  // 销售员: whoever the desk names (a staff member of the store), by default who takes it.
  const seller =
    named && named !== ctx.staff.id
      ? await requireSeller(ctx.db, ctx.store.id, named)
      : { id: ctx.staff.id, name: ctx.staff.name };
  const created = await createOrder(
    ctx,
    { memberId: m.id, staffId: ctx.staff.id, anyTopupAmount: true, sellerId: seller.id, sellerName: seller.name },
    rest,
  );
  return {
    orderNo: created.orderNo,
    amount: created.amount,
    expireTime: created.expireTime,
    codeUrl: created.codeUrl ?? '',
  };
}

/**
 * An order (the member's own, or the desk's for a member): what is bought (a product on sale, or a
 * top-up of the member's money card), written 待支付, then created at the provider. What the page
 * needs comes back: JSAPI parameters, a code_url / QR, or the WAP gateway URL.
 */
async function createOrder(
  ctx: CallCtx,
  buyer: Buyer,
  input: Omit<CreateInput, 'wxCode' | 'wxState' | 'returnUrl' | 'seller' | 'agree' | 'signCode'> &
    Partial<Pick<CreateInput, 'wxCode' | 'wxState' | 'returnUrl'>>,
): Promise<Created> {
  const storeId = ctx.store.id;
  const memberId = buyer.memberId;
  const isCard = input.productId !== undefined;
  if (isCard === (input.memberCardId !== undefined) || (!isCard && input.amount === undefined)) {
    throw badRequest(PayMsg.productOrTopup);
  }
  const providerName = providerOfMethod(input.method);
  const setting = await loadPaySetting(ctx.db, storeId);

  let row: { kind: 'card' | 'topup'; productId: number | null; memberCardId: number | null; trial: number };
  let amount: number;
  let description: string;
  if (isCard) {
    const p = await productForSale(ctx.db, storeId, input.productId ?? 0);
    if (!p || p.deleted) throw notFound('卡种');
    if (!sellable(p) || startDatePassed(p, localDateTime(ctx.store.timezone).slice(0, 10))) {
      throw conflict(PayMsg.notOnSale);
    }
    if (p.trial === 1 && (await memberHadTrial(ctx.db, storeId, memberId))) throw conflict(PayMsg.trialOnce);
    const over = await productOrderRefusal(ctx.db, storeId, memberId, p, localDateTime(ctx.store.timezone));
    if (over) throw conflict(over);
    row = { kind: 'card', productId: p.id, memberCardId: null, trial: p.trial };
    amount = p.onlinePrice;
    description = p.cardName;
  } else {
    const c = await requireMemberCard(ctx.db, storeId, input.memberCardId ?? 0);
    if (c.memberId !== memberId) throw notFound('会员卡');
    if (c.bigType !== BIG_TYPE_MONEY) throw conflict(PayMsg.notMoneyCard);
    if (c.refundedAt) throw conflict(PayMsg.cardRefunded);
    if (!buyer.anyTopupAmount && !setting.topupAmounts.includes(input.amount ?? 0)) {
      throw badRequest(PayMsg.topupAmount);
    }
    const over = await topupOrderRefusal(
      ctx.db,
      storeId,
      memberId,
      c.id,
      input.amount ?? 0,
      localDateTime(ctx.store.timezone),
    );
    if (over) throw conflict(over);
    row = { kind: 'topup', productId: null, memberCardId: c.id, trial: 0 };
    amount = input.amount ?? 0;
    description = `会员卡充值 ${amountText(BIG_TYPE_MONEY, amount)}`;
  }
  // What is bought is checked first (a missing member, product or card answers 404 whatever the setting).
  const provider = providerOf(setting, providerName, ctx);
  if (!provider) throw conflict(PayMsg.notEnabled(PROVIDER_LABEL[providerName]));
  // A member's own card order: the contract read and signed before the order exists (the tick, then
  // the texted code, taken below); without them nothing is ordered. A top-up sells no card (no new
  // contract), and the desk's 扫码收款 sells one 待签约, signed at the desk like its 开卡.
  const c = buyer.contract;
  const signCode = isCard && c ? c.signCode : undefined;
  if (isCard && c) {
    if (c.agree !== true) throw badRequest(ContractMsg.agree);
    if (!c.signCode) throw badRequest(ContractMsg.code);
  }

  // JSAPI pays as the member's openid under the pay setting's app: a code of WeChat's web
  // authorisation (snsapi_base) gives the current WeChat user's; without one, the openid bound to the
  // member (the reminders' binding, when that app is the store's service account) is used.
  let openid: string | undefined;
  let exchanged: string | undefined;
  if (input.method === 'wechat_jsapi') {
    const bound = await memberOpenidUnder(ctx.db, storeId, memberId, setting.wechat.appId);
    if (input.wxCode) {
      // The code counts only with a state this member's session was given (taken once).
      await useWechatState(ctx, input.wxState);
      try {
        openid = exchanged = await (provider as WechatPay).openidFromCode(input.wxCode);
      } catch (e) {
        if (e instanceof PaymentProviderError) throw conflict(PayMsg.oauthFailed(e.message));
        throw e;
      }
      // Bound already: kept (the member's 绑定微信 is where a binding changes).
      if (bound !== null) exchanged = undefined;
    } else if (bound !== null) openid = bound;
    else throw badRequest(PayMsg.openidNeeded);
  }

  // The texted code is used once: taken after every check that can refuse, just before the order is written.
  const contractSign = signCode ? await signatureBeforePaying(ctx, signCode) : null;

  const startMs = Date.now();
  const now = localDateTime(ctx.store.timezone, startMs);
  const expireAt = localDateTime(ctx.store.timezone, startMs + PAY_ORDER_MINUTES * 60_000);
  const orderNo = newOrderNo(storeId, now);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await insertGuarded(tx, {
      storeId,
      orderNo,
      memberId,
      ...row,
      amount,
      method: input.method,
      provider: providerName,
      description,
      status: 0,
      createdAt: now,
      expireAt,
      paidAt: null,
      closedAt: null,
      providerTradeId: null,
      staffId: buyer.staffId,
      sellerId: buyer.sellerId ?? null,
      contractSign,
    });
    // The openid a code gave, bound to the member for the next JSAPI order (and the reminders) when none was.
    const bound =
      exchanged !== undefined && (await bindMemberOpenidUnder(tx, storeId, memberId, setting.wechat.appId, exchanged));
    audit(tx, {
      kind: 'card',
      summary: `${buyer.staffId === null ? '' : '前台扫码收款 '}下单 ${description} ${amountText(BIG_TYPE_MONEY, amount)}（${METHOD_LABEL[input.method]}）${buyer.sellerName ? `，销售员 ${buyer.sellerName}` : ''}${contractSign ? '；已阅读并用短信验证码签署合同' : ''}${bound ? '；绑定微信' : ''}`,
      target: `订单 ${orderNo}`,
      targets: [
        { type: 'member', id: memberId },
        ...(row.productId ? [{ type: 'product' as const, id: row.productId }] : []),
        ...(row.memberCardId ? [{ type: 'card' as const, id: row.memberCardId }] : []),
      ],
    });
  });

  // The notification address is under the store's public base address (会员约课页面).
  const { base } = await publicBaseOf(ctx);
  let created: CreatedOrder;
  try {
    created = await provider.createOrder({
      method: input.method,
      outTradeNo: orderNo,
      amountFen: amount,
      description,
      notifyUrl: `${base}/pay/notify/${providerName}/${storeId}`,
      expiresAt: new Date(startMs + PAY_ORDER_MINUTES * 60_000),
      openid,
      returnUrl: input.returnUrl,
    });
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    ctx.log.warn({ storeId, orderNo, provider: providerName, kind: e.kind, code: e.code }, 'creating the order failed');
    const saved = await findOrder(ctx.db, storeId, orderNo);
    if (saved) await closeOrderHere(ctx, saved, callerOf(ctx), '发起支付失败');
    throw conflict(PayMsg.providerFailed(e.message));
  }
  return {
    orderNo,
    amount,
    expireTime: expireAt,
    pay: created.method === 'wechat_jsapi' ? created.payParams : null,
    codeUrl:
      created.method === 'wechat_native'
        ? created.codeUrl
        : created.method === 'alipay_precreate'
          ? created.qrCode
          : null,
    payUrl: created.method === 'alipay_wap' ? created.redirectUrl : null,
  };
}

/**
 * Writes an order; a 体验卡 order is refused 409 when the member has another trial order open or paid:
 * the one-trial index decides in the insert itself (of two taps at once, the second insert fails).
 */
async function insertGuarded(tx: Tx, row: NewRow<'payOrder'>) {
  if (row.trial !== 1) return insertOrder(tx, row);
  try {
    return await inSavepoint(tx, () => insertOrder(tx, row));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(PayMsg.trialOnce);
    throw e;
  }
}

/** Who makes the call: the member (their own order) or the staff member (the desk's). */
export const callerOf = (ctx: CallCtx): Fulfiller =>
  ctx.member
    ? { kind: 'member', call: ctx.req.url.split('?')[0], id: ctx.member.id, name: ctx.member.name }
    : { kind: 'staff', call: ctx.req.url.split('?')[0], id: ctx.staff.id, name: ctx.staff.name };

const nameOf = (o: OrderRow) => (o.kind === 'topup' ? '充值' : o.description);

/**
 * Asks the provider about an unpaid order and fulfils it when paid (the member's 我已支付, the close
 * job). Answers the provider's state, or null when it could not be asked.
 */
export async function settleFromProvider(deps: Deps, o: OrderRow, setting: StoredPaySetting, by: Fulfiller) {
  const provider = providerOf(setting, o.provider as ProviderName, deps);
  if (!provider) return null;
  try {
    const facts = await provider.queryOrder(o.orderNo);
    if (facts?.state === 'paid') await fulfilOrder(deps, o, facts, setting, by, false);
    return { provider, facts };
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    deps.log.warn(
      { storeId: o.storeId, orderNo: o.orderNo, provider: o.provider, kind: e.kind, code: e.code },
      'order query failed',
    );
    return null;
  }
}

/** 我已支付: the member's own order (see queryOrder). */
export function queryMemberOrder(ctx: CallCtx, orderNo: string): Promise<PayOrder> {
  return queryOrder(ctx, orderNo, ctx.member.id);
}

/** The desk's query of an order of the store (its 扫码收款 QR polls it; see queryOrder). */
export function queryStoreOrder(ctx: CallCtx, orderNo: string): Promise<PayOrder> {
  return queryOrder(ctx, orderNo);
}

/**
 * An order (of `memberId` when given); while unpaid the provider is asked, and a paid order is
 * fulfilled now, by whoever asked.
 */
async function queryOrder(ctx: CallCtx, orderNo: string, memberId?: number): Promise<PayOrder> {
  let o = await findOrder(ctx.db, ctx.store.id, orderNo);
  if (!o || (memberId !== undefined && o.memberId !== memberId)) throw notFound('订单');
  if (o.status === 0) {
    const setting = await loadPaySetting(ctx.db, ctx.store.id);
    await settleFromProvider(ctx, o, setting, callerOf(ctx));
    o = (await findOrder(ctx.db, ctx.store.id, orderNo)) ?? o;
  }
  return orderView(o, nameOf(o));
}

const STATUS_CODE = Object.fromEntries(
  Object.entries(PAY_ORDER_STATUS).map(([code, name]) => [name, Number(code)]),
) as Record<PayOrderStatus, number>;

/**
 * A refused refund as 线上订单 explains it: the card put back, or (issue 42) its card could no longer
 * take it back and the order is 异常订单; a refused 原路退款 changed no card.
 */
function failedNote(r: { failReason: string | null; ledgerId: number | null; undoLedgerId: number | null }) {
  const why = r.failReason ?? '渠道拒绝退款';
  if (r.ledgerId === null) return RefundMsg.failedNoCard(why);
  return r.undoLedgerId === null ? RefundMsg.failedCardClosed(why) : RefundMsg.failedPutBack(why);
}

/** 线上订单: the store's orders made in a date range, optionally of one status, 20 a page. */
export async function listStoreOrders(
  ctx: CallCtx,
  q: ParsedReqOf<typeof queryPayOrderList>,
): Promise<ResOf<typeof queryPayOrderList>> {
  const { list, total } = await storeOrders(ctx.db, ctx.store.id, {
    fromDate: q.fromDate,
    toDate: q.toDate,
    status: q.status === undefined ? undefined : STATUS_CODE[q.status],
    page: q.page,
    size: 20,
  });
  const refunds = await refundsOfOrders(
    ctx.db,
    ctx.store.id,
    list.map((o) => o.id),
  );
  const refundsOf = (orderId: number): PayRefund[] =>
    refunds
      .filter((r) => r.payOrderId === orderId)
      .map((r) => {
        const status = PAY_REFUND_STATUS[r.status as keyof typeof PAY_REFUND_STATUS] ?? 'processing';
        return {
          refundNo: r.refundNo,
          amount: r.amount,
          reason: r.reason,
          status,
          note: status === 'abnormal' ? RefundMsg.abnormal : status === 'failed' ? failedNote(r) : null,
          createTime: r.createdAt,
          settleTime: r.settledAt,
        };
      });
  return {
    list: list.map((o) => ({
      ...orderView(o, nameOf(o)),
      memberId: o.memberId,
      memberName: o.memberName,
      memberMobile: o.memberMobile,
      staffName: o.staffName,
      refunds: refundsOf(o.id),
      exceptionReason: o.exceptionReason,
      exceptionDue:
        o.status === 5
          ? exceptionDue(
              o,
              refunds.filter((r) => r.payOrderId === o.id),
            )
          : null,
    })),
    total,
  };
}

export async function listMemberOrders(ctx: CallCtx, page: number) {
  const { list, total } = await memberOrders(ctx.db, ctx.store.id, ctx.member.id, page, 10);
  return { list: list.map((o) => orderView(o, nameOf(o))), total };
}

const JOB: Fulfiller = { kind: 'system', call: 'job/pay-order-close' };
/** The close job's name (main.ts `startRepeating`, its log lines and its /metrics counters). */
export const CLOSE_JOB = 'pay order close job';

/**
 * The close job: every unpaid order past its 15 minutes is asked about at the provider first; paid,
 * it is fulfilled (or recorded 异常订单); closed there (CLOSED, REVOKED, PAYERROR: it can no longer be
 * paid), it is closed here; otherwise it is closed there and here. Each order on its own: one that
 * fails is logged, counted in /metrics (`jobItemFailed`) and skipped, and the round goes on. Safe on any
 * number of instances at once (every write is guarded). `clock` gives a store's wall time (tests move
 * it). Answers how many it closed or fulfilled.
 */
export async function closeExpiredOrders(
  deps: Deps,
  clock: (timezone: string) => string = (tz) => localDateTime(tz),
): Promise<number> {
  let n = 0;
  for (const store of await storesWithOpenOrders(deps.db)) {
    let due: OrderRow[];
    let setting: StoredPaySetting;
    try {
      due = await expiredOrders(deps.db, store.id, clock(store.timezone));
      if (!due.length) continue;
      setting = await loadPaySetting(deps.db, store.id);
    } catch (e) {
      jobItemFailed(CLOSE_JOB, deps.log, { storeId: store.id }, e);
      continue;
    }
    for (const o of due) {
      try {
        if (await closeOrFulfil(deps, o, setting)) n++;
      } catch (e) {
        jobItemFailed(CLOSE_JOB, deps.log, { storeId: o.storeId, orderNo: o.orderNo }, e);
      }
    }
  }
  return n;
}

/** One expired order of the close job: answers whether it was closed or fulfilled now. */
async function closeOrFulfil(deps: Deps, o: OrderRow, setting: StoredPaySetting): Promise<boolean> {
  const asked = await settleFromProvider(deps, o, setting, JOB);
  if (!asked) {
    // Provider off (settings changed) or unreachable: an order never sent can be closed here only.
    return !providerOf(setting, o.provider as ProviderName, deps) && closeOrderHere(deps, o, JOB, '超时未支付');
  }
  const state = asked.facts?.state;
  if (state === 'paid') return true;
  if (state === 'refunded') return false;
  // Closed at the provider already (a terminal state there): nothing to ask it, closed here.
  if (state === 'closed') return closeOrderHere(deps, o, JOB, `支付渠道已关闭（${asked.facts?.providerState}）`);
  try {
    await asked.provider.closeOrder(o.orderNo);
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    deps.log.warn(
      { storeId: o.storeId, orderNo: o.orderNo, kind: e.kind, code: e.code },
      'closing at the provider failed',
    );
    return false;
  }
  return closeOrderHere(deps, o, JOB, '超时未支付');
}

/**
 * Before the desk's 退卡 of a card: its top-up orders still 待支付 are closed, at the provider first,
 * then here, so the member cannot pay a top-up of a card refunded meanwhile. One the provider says is
 * paid is fulfilled now (the 退卡 then sees the card as topped up). One that cannot be closed there
 * (the provider unreachable, or it refused) refuses the 退卡 (409), nothing written.
 */
export async function closeOpenTopups(ctx: CallCtx, memberCardId: number): Promise<void> {
  const open = await openTopupOrdersOf(ctx.db, ctx.store.id, memberCardId);
  if (!open.length) return;
  const setting = await loadPaySetting(ctx.db, ctx.store.id);
  const by = callerOf(ctx);
  for (const o of open) {
    const asked = await settleFromProvider(ctx, o, setting, by);
    const provider = asked?.provider ?? providerOf(setting, o.provider as ProviderName, ctx);
    const state = asked?.facts?.state;
    if (state === 'paid' || state === 'refunded') continue;
    if (state !== 'closed' && provider) {
      try {
        await provider.closeOrder(o.orderNo);
      } catch (e) {
        if (!(e instanceof PaymentProviderError)) throw e;
        ctx.log.warn(
          { storeId: o.storeId, orderNo: o.orderNo, kind: e.kind, code: e.code },
          'closing a top-up order before 退卡 failed',
        );
        throw conflict(CardMsg.openTopup(o.orderNo));
      }
    }
    await closeOrderHere(ctx, o, by, '退卡前关闭未支付的充值订单');
    const now = await findOrder(ctx.db, ctx.store.id, o.orderNo);
    // Paid between the provider's answer and the close: fulfilled by its notification, the 退卡 sees it.
    if (now?.status === 0) throw conflict(CardMsg.openTopup(o.orderNo));
  }
}
