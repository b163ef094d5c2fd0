// Nothing stranded on a card bought and topped up online (issue 42, item 3), against the WeChat Pay and
// Alipay stand-ins on SQLite and PostgreSQL: a 储值卡 bought through WeChat and topped up through
// Alipay is refunded in full within its cooling-off days whichever order is refunded first (every
// order back through its own provider, the card closed once); after the cooling-off days the quote
// covers the whole balance and names the order each part goes back through. A refund the provider
// refuses once the card is closed (its money can no longer go back on the card) ends 退款失败 and makes
// its order 异常订单, whose 原路退款 pays it back; the settling job does not fail on it. Each click order
// ends with nothing stranded.
import {
  BIG_TYPE_MONEY,
  cardRefundQuote,
  memberCreateOrder,
  memberPayments,
  PayExceptionMsg,
  queryPayOrderList,
  refundPayOrder,
  RefundMsg,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { Client, describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import {
  startOnlineStore,
  type AlipayStandIn,
  type OnlineStore,
  type WechatPayStandIn,
} from '../../../test/payment-stand-ins.ts';
import { jobItemFailuresInMetrics } from '../../../test/payment-support.ts';
import { REFUND_SETTLE_JOB, settleOpenRefunds } from './refunds.ts';

describeEachDb('online payment: a card bought and topped up online, refunded whole', (env) => {
  let wx: WechatPayStandIn;
  let ali: AlipayStandIn;
  let online: OnlineStore;
  let product: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], api());
    ({ wx, ali } = online);
    product = await e.factory.cardProduct({
      cardName: '线上储值卡',
      bigType: BIG_TYPE_MONEY,
      perCount: 5000,
      totalCount: 10000,
      onlineSale: 1,
      onlinePrice: 10000,
      refundFeePercent: 10,
    });
    // WeChat answers 退款中 and settles by its notification, sent when the test says (settleWx).
    wx.control.settleRefunds = 'manual';
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  const card = (id: number) => db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const closings = (id: number) =>
    db()
      .selectFrom('cardLedger')
      .select('amount')
      .where('memberCardId', '=', id)
      .where('kind', '=', 'card_refund')
      .execute();
  const paidBack = (id: number) =>
    db()
      .selectFrom('cardPayment')
      .select(['method', 'channel', 'amount'])
      .where('memberCardId', '=', id)
      .where('kind', '=', 'refund')
      .orderBy('method')
      .execute();
  /** The card's money records as the desk's 收款记录 shows them (its member's), paid back only, by method. */
  const paidBackListed = async (cardId: number): Promise<[string, number, string | null][]> => {
    const { memberId } = await card(cardId);
    const rows = await api().ok(memberPayments.path, { mid: memberId });
    return rows
      .filter((p: { memberCardId: number; kind: string }) => p.memberCardId === cardId && p.kind === 'refund')
      .map((p: { method: string; amount: number; remark: string | null }): [string, number, string | null] => [
        p.method,
        p.amount,
        p.remark,
      ])
      .sort();
  };
  const buy = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(memberCreateOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string };
  };

  /** A member buys the 储值卡 (100.00 元) through WeChat and tops it up by 500.00 元 through Alipay. */
  /** Past the cooling-off days: the card sold ten days ago, 150.00 元 of it used since. */
  async function soldTenDaysAgoWith150Used(cardId: number) {
    const sold = `${addDays(localDateTime('Asia/Shanghai').slice(0, 10), -10)} 10:00:00`;
    await db().updateTable('memberCard').set({ createdAt: sold, usedCount: 15000 }).where('id', '=', cardId).execute();
  }

  async function boughtAndToppedUp() {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const sale = await buy(me, { productId: product.id, method: 'wechat_native' });
    await wx.pay(sale.orderNo);
    const cardId = (await order(sale.orderNo)).memberCardId!;
    const topup = await buy(me, { mcId: cardId, amount: 50000, method: 'alipay_precreate' });
    ali.scan(topup.orderNo);
    await ali.pay(topup.orderNo);
    expect((await order(topup.orderNo)).status).toBe(1);
    expect(Number((await card(cardId)).totalCount)).toBe(60000);
    return { sale: sale.orderNo, topup: topup.orderNo, cardId };
  }

  /** WeChat's REFUND.SUCCESS notification of each of the card's refunds still open through WeChat. */
  async function settleWx(cardId: number) {
    const open = await db()
      .selectFrom('payRefund as r')
      .innerJoin('payOrder as o', 'o.id', 'r.payOrderId')
      .select('r.refundNo')
      .where('r.memberCardId', '=', cardId)
      .where('r.status', '=', 0)
      .where('o.provider', '=', 'wechat')
      .execute();
    for (const r of open) expect((await wx.settleRefund(r.refundNo)).map((d) => d.status)).toEqual([204]);
  }

  /** Everything went back through each provider; the card is closed once, nothing on it. */
  async function allBack(o: { sale: string; topup: string; cardId: number }) {
    await settleWx(o.cardId);
    expect(await order(o.sale)).toMatchObject({ status: 3, refunded: 10000 });
    expect(await order(o.topup)).toMatchObject({ status: 3, refunded: 50000 });
    expect(wx.orders.get(o.sale)?.refundedFen).toBe(10000);
    expect(ali.orders.get(o.topup)?.refundedFen).toBe(50000);
    const c = await card(o.cardId);
    expect([c.refundedAt !== null, Number(c.totalCount), Number(c.usedCount)]).toEqual([true, 0, 0]);
    expect(await closings(o.cardId)).toHaveLength(1);
    expect((await paidBack(o.cardId)).map((p) => [p.method, p.channel, Number(p.amount)])).toEqual([
      ['alipay', 'online', 50000],
      ['wechat', 'online', 10000],
    ]);
  }

  it('within the cooling-off days, the card order first: the top-up goes back through Alipay with it, the card closed once', async () => {
    const o = await boughtAndToppedUp();
    const desk = await staffClient(env(), 'desk');
    const q = await desk.ok(cardRefundQuote.path, { mcId: o.cardId });
    expect(q).toMatchObject({ rule: 'cooling_off', amount: 60000, paid: 60000, allowed: true });
    expect(q.parts).toEqual([
      { orderNo: o.sale, provider: 'wechat', kind: 'card', amount: 10000 },
      { orderNo: o.topup, provider: 'alipay', kind: 'topup', amount: 50000 },
    ]);
    // the orders are named once, in the parts (退款去向), not again in the calculation
    expect(q.detail).not.toContain(o.topup);
    // the card order's own part at most
    const more = await desk.call(refundPayOrder.path, { orderNo: o.sale, amount: 10001, reason: '不想练了' });
    expect([more.status, more.msg]).toEqual([409, RefundMsg.tooMuch('100.00 元')]);
    await desk.ok(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '不想练了' });
    await allBack(o);
    // then the manager clicks the top-up's refund: nothing is left of it
    const again = await api().call(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '不想练了' });
    expect([again.status, again.msg]).toEqual([409, RefundMsg.allRefunded]);
  });

  it('within the cooling-off days, the top-up first: then the card order closes the card', async () => {
    const o = await boughtAndToppedUp();
    await api().ok(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '不想练了' });
    expect((await card(o.cardId)).refundedAt).toBeNull();
    const q = await api().ok(cardRefundQuote.path, { mcId: o.cardId });
    expect(q).toMatchObject({ rule: 'cooling_off', amount: 10000 });
    expect(q.parts).toEqual([{ orderNo: o.sale, provider: 'wechat', kind: 'card', amount: 10000 }]);
    await api().ok(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '不想练了' });
    await allBack(o);
  });

  it('after the cooling-off days the quote covers the whole balance and names the order of each part', async () => {
    const o = await boughtAndToppedUp();
    await soldTenDaysAgoWith150Used(o.cardId);
    const desk = await staffClient(env(), 'desk');
    const byDesk = await desk.ok(cardRefundQuote.path, { mcId: o.cardId });
    expect([byDesk.rule, byDesk.allowed, byDesk.coolingOff]).toEqual(['product_rule', false, false]);
    const q = await api().ok(cardRefundQuote.path, { mcId: o.cardId });
    // paid 600.00, 450.00 of 600.00 left: 450.00, less 10% of 600.00 (60.00): 390.00,
    // split as paid: 1/6 through the card order (65.00), 5/6 through the top-up (325.00)
    expect(q).toMatchObject({ rule: 'product_rule', paid: 60000, amount: 39000, allowed: true });
    expect(q.parts).toEqual([
      { orderNo: o.sale, provider: 'wechat', kind: 'card', amount: 6500 },
      { orderNo: o.topup, provider: 'alipay', kind: 'topup', amount: 32500 },
    ]);
    expect(q.detail).toContain('应退 390.00 元');
    expect(q.detail).not.toContain(o.sale);
    const byDeskRefund = await desk.call(refundPayOrder.path, { orderNo: o.sale, amount: 6500, reason: '搬家' });
    expect([byDeskRefund.status, byDeskRefund.msg]).toEqual([403, RefundMsg.manager]);
    await api().ok(refundPayOrder.path, { orderNo: o.sale, amount: 6500, reason: '搬家' });
    expect(await order(o.sale)).toMatchObject({ status: 4, refunded: 6500 });
    expect(await order(o.topup)).toMatchObject({ status: 4, refunded: 32500 });
    expect(wx.orders.get(o.sale)?.refundedFen).toBe(6500);
    expect(ali.orders.get(o.topup)?.refundedFen).toBe(32500);
    await settleWx(o.cardId);
    const c = await card(o.cardId);
    expect([c.refundedAt !== null, Number(c.totalCount), Number(c.usedCount)]).toEqual([true, 15000, 15000]);
    expect(await closings(o.cardId)).toHaveLength(1);
  });
  /** The order's refunds, oldest first. */
  const refundsOf = async (orderNo: string) =>
    db()
      .selectFrom('payRefund')
      .selectAll()
      .where('payOrderId', '=', (await order(orderNo)).id)
      .orderBy('id')
      .execute();
  /** The order as 线上订单 lists it. */
  const listed = async (orderNo: string) => {
    const day = (await order(orderNo)).createdAt.slice(0, 10);
    const page = await api().ok(queryPayOrderList.path, { fromDate: day, toDate: day, page: 1 });
    return page.list.find((o: { orderNo: string }) => o.orderNo === orderNo);
  };
  const entries = (refundNo: string) =>
    db().selectFrom('auditLog').select('summary').where('target', 'like', `%退款 ${refundNo}`).orderBy('id').execute();
  const refusal = { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' };
  /** The settling job, `minutes` from now (a refund is asked about once 2 minutes old). */
  const job = (minutes: number) => settleOpenRefunds(env().app.deps, () => Date.now() + minutes * 60_000);

  /** The top-up refused after the card closed: 退款失败, 异常订单, listed and logged; then 原路退款 pays it back. */
  async function refusedOnClosedCard(o: { sale: string; topup: string; cardId: number }, refundNo: string) {
    expect(await refundsOf(o.topup)).toMatchObject([
      { refundNo, status: 2, failReason: '卖家余额不足', undoLedgerId: null },
    ]);
    expect(await order(o.topup)).toMatchObject({
      status: 5,
      refunded: 0,
      exceptionReason: PayExceptionMsg.refundFailedCardClosed,
    });
    expect(PayExceptionMsg.refundFailedCardClosed).toMatch(/退款失败.*已退卡.*原路退款/);
    const c = await card(o.cardId);
    expect([c.refundedAt !== null, Number(c.totalCount)]).toEqual([true, 0]);
    expect((await entries(refundNo)).map((e) => e.summary)).toContain(
      `线上退款失败，会员卡已退卡，订单转为异常订单：卖家余额不足`,
    );
    expect(await listed(o.topup)).toMatchObject({
      status: 'exception',
      exceptionReason: PayExceptionMsg.refundFailedCardClosed,
      exceptionDue: 50000,
      refunds: [{ refundNo, status: 'failed', note: RefundMsg.failedCardClosed('卖家余额不足') }],
    });
    // 原路退款 again: in full of what was refused (500.00 元), through Alipay, no card changed.
    expect(await api().call(refundPayOrder.path, { orderNo: o.topup, amount: 100, reason: '再次退回' })).toMatchObject({
      status: 409,
      msg: PayExceptionMsg.wholeOnly('500.00 元'),
    });
    await api().ok(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '再次退回' });
    expect(ali.orders.get(o.topup)?.refundedFen).toBe(50000);
    const [, again] = await refundsOf(o.topup);
    expect(again).toMatchObject({ status: 1, amount: 50000, memberCardId: null, ledgerId: null });
    expect(await order(o.topup)).toMatchObject({ status: 3, refunded: 50000 });
    expect((await card(o.cardId)).totalCount).toBe(0);
    // The card's money records show the top-up paid back (issue 42), against the refused refund's card change.
    expect(await paidBackListed(o.cardId)).toEqual([
      ['alipay', 50000, `线上订单 ${o.topup} 原路退款：再次退回`],
      ['wechat', 10000, `线上订单 ${o.sale} 退款：不想练了`],
    ]);
    const [refused] = await refundsOf(o.topup);
    expect(
      await db()
        .selectFrom('cardPayment')
        .select(['memberCardId', 'amount', 'channel'])
        .where('ledgerId', '=', refused.ledgerId)
        .where('kind', '=', 'refund')
        .execute(),
    ).toEqual([{ memberCardId: o.cardId, amount: 50000, channel: 'online' }]);
  }

  it('the top-up first, refused by Alipay after the card order closed the card: 退款失败, 异常订单, 原路退款 pays it back; the job does not fail on it', async () => {
    const o = await boughtAndToppedUp();
    ali.control.refundsPending = true;
    let refundNo: string;
    try {
      await api().ok(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '不想练了' });
      [{ refundNo }] = await refundsOf(o.topup);
      // The card order closes the card meanwhile (the top-up's part is 0: its refund is on its way).
      await api().ok(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '不想练了' });
      expect((await card(o.cardId)).refundedAt).not.toBeNull();
      ali.settleRefund(refundNo, refusal);
      const failures = await jobItemFailuresInMetrics(env().app, REFUND_SETTLE_JOB);
      expect(await job(3)).toBe(1);
      expect(await jobItemFailuresInMetrics(env().app, REFUND_SETTLE_JOB)).toBe(failures);
      // Settled: the next run asks about it no more.
      expect(await job(40)).toBe(0);
    } finally {
      ali.control.refundsPending = false;
    }
    await settleWx(o.cardId);
    await refusedOnClosedCard(o, refundNo);
    expect(await order(o.sale)).toMatchObject({ status: 3, refunded: 10000 });
  });

  it('the card order first, its top-up part refused by Alipay at once: 409 says so, 异常订单, 原路退款 pays it back', async () => {
    const o = await boughtAndToppedUp();
    ali.control.refuse = refusal;
    try {
      const a = await api().call(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '不想练了' });
      expect([a.status, a.msg]).toEqual([409, RefundMsg.refusedCardClosed('卖家余额不足')]);
    } finally {
      ali.control.refuse = null;
    }
    // The card order's own refund went to WeChat all the same.
    expect(wx.orders.get(o.sale)?.refundedFen).toBe(10000);
    await settleWx(o.cardId);
    expect(await order(o.sale)).toMatchObject({ status: 3, refunded: 10000 });
    const [{ refundNo }] = await refundsOf(o.topup);
    await refusedOnClosedCard(o, refundNo);
  });

  it("the top-up first (paid back), then the card order's refund refused by WeChat: the card is open again with its own money", async () => {
    const o = await boughtAndToppedUp();
    await api().ok(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '不想练了' });
    expect(await order(o.topup)).toMatchObject({ status: 3, refunded: 50000 });
    await api().ok(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '不想练了' });
    const [{ refundNo }] = await refundsOf(o.sale);
    expect((await wx.settleRefund(refundNo, 'CLOSED')).map((d) => d.status)).toEqual([204]);
    expect(await order(o.sale)).toMatchObject({ status: 1, refunded: 0, exceptionReason: null });
    const c = await card(o.cardId);
    expect([c.refundedAt, Number(c.totalCount)]).toEqual([null, 10000]);
    // Nothing stranded: the card order can be refunded again, and closes the card.
    await api().ok(refundPayOrder.path, { orderNo: o.sale, amount: 10000, reason: '再次退卡' });
    await settleWx(o.cardId);
    expect(await order(o.sale)).toMatchObject({ status: 3, refunded: 10000 });
    expect((await card(o.cardId)).refundedAt).not.toBeNull();
  });
  it("after the cooling-off days, the top-up's part refused at once: 原路退款 pays back that part, not the money used", async () => {
    const o = await boughtAndToppedUp();
    await soldTenDaysAgoWith150Used(o.cardId);
    ali.control.refuse = refusal;
    try {
      const a = await api().call(refundPayOrder.path, { orderNo: o.sale, amount: 6500, reason: '搬家' });
      expect([a.status, a.msg]).toEqual([409, RefundMsg.refusedCardClosed('卖家余额不足')]);
    } finally {
      ali.control.refuse = null;
    }
    await settleWx(o.cardId);
    // The top-up's part was 325.00 元 of its 500.00 元 (the rest paid for classes): that is what is owed.
    expect(await order(o.topup)).toMatchObject({ status: 5, refunded: 0 });
    expect(await listed(o.topup)).toMatchObject({ status: 'exception', exceptionDue: 32500 });
    const whole = await api().call(refundPayOrder.path, { orderNo: o.topup, amount: 50000, reason: '再次退回' });
    expect([whole.status, whole.msg]).toEqual([409, PayExceptionMsg.wholeOnly('325.00 元')]);
    await api().ok(refundPayOrder.path, { orderNo: o.topup, amount: 32500, reason: '再次退回' });
    expect(ali.orders.get(o.topup)?.refundedFen).toBe(32500);
    expect(await order(o.topup)).toMatchObject({ status: 4, refunded: 32500 });
    expect(await listed(o.topup)).toMatchObject({ status: 'partially_refunded', exceptionDue: null });
    // The card's money records: 65.00 元 back through WeChat, 325.00 元 through Alipay (the rest paid for classes).
    expect((await paidBackListed(o.cardId)).map(([method, amount]) => [method, amount])).toEqual([
      ['alipay', 32500],
      ['wechat', 6500],
    ]);
    // Nothing more to refund: the card is closed.
    const more = await api().call(refundPayOrder.path, { orderNo: o.topup, amount: 100, reason: '再退' });
    expect(more.status).toBe(409);
  });
});
