// The refund settling job (settleOpenRefunds) and WeChat Pay's ABNORMAL refunds (退款异常), against the
// WeChat Pay stand-in on SQLite and PostgreSQL. The job is driven by its function with an injected
// clock: a refund WeChat later reports successful (no notification) is settled once; one it reports
// closed puts the card back once and says why; two runs at once (two instances on PostgreSQL) settle
// each refund once. An ABNORMAL refund is neither: it is recorded 退款异常 (the card stays as the refund
// left it, nothing recorded as paid back), 线上订单 tells the manager what to do, and a later SUCCESS
// (asked by the job, or notified) or CLOSED settles it.
import { BIG_TYPE_MONEY, memberCreateOrder, queryPayOrderList, refundPayOrder, RefundMsg } from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Client, describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import {
  startOnlineStore,
  type AlipayStandIn,
  type OnlineStore,
  type WechatPayStandIn,
} from '../../../test/payment-stand-ins.ts';
import { REFUND_SETTLE_JOB, settleOpenRefunds } from './refunds.ts';
import { jobItemFailuresInMetrics } from '../../../test/payment-support.ts';

describeEachDb('online payment: the refund settling job and ABNORMAL refunds', (env) => {
  let wx: WechatPayStandIn;
  let ali: AlipayStandIn;
  let online: OnlineStore;
  let product: { id: number };
  let money: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;
  // Two instances over one PostgreSQL schema (SQLite: one).
  const instances = moreInstances(env, 1);
  const apps = () => instances.apps;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(apps, api());
    ({ wx, ali } = online);
    // Refunds stay PROCESSING at WeChat until a test settles them.
    wx.control.settleRefunds = 'manual';
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    money = await e.factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  /** The job's clock, `minutes` from now (a refund is asked about once it is 2 minutes old). */
  const at = (minutes: number) => () => Date.now() + minutes * 60_000;
  const job = (minutes: number, app = apps()[0]) => settleOpenRefunds(app.deps, at(minutes));

  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  const card = (id: number) => db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refund = (refundNo: string) =>
    db().selectFrom('payRefund').selectAll().where('refundNo', '=', refundNo).executeTakeFirstOrThrow();
  const refundPayments = async (refundNo: string) =>
    db()
      .selectFrom('cardPayment')
      .select(['channel', 'amount'])
      .where('ledgerId', '=', (await refund(refundNo)).ledgerId)
      .where('kind', '=', 'refund')
      .execute();
  const undone = (cardId: number) =>
    db()
      .selectFrom('cardLedger')
      .select(['amount'])
      .where('memberCardId', '=', cardId)
      .where('kind', '=', 'refund_undone')
      .execute();
  const entries = (refundNo: string, summary: string) =>
    db()
      .selectFrom('auditLog')
      .select(['actorKind', 'call'])
      .where('target', 'like', `%退款 ${refundNo}`)
      .where('summary', 'like', `${summary}%`)
      .execute();
  const buy = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(memberCreateOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string };
  };
  /** A 10次卡 bought and paid through WeChat's QR. */
  const paidCardOrder = async () => {
    const m = await env().factory.member();
    const o = await buy(await memberClient(env(), m), { productId: product.id, method: 'wechat_native' });
    await wx.pay(o.orderNo);
    const row = await order(o.orderNo);
    expect(row.status).toBe(1);
    return { orderNo: o.orderNo, cardId: row.memberCardId ?? 0 };
  };
  /** A 10次卡 bought and paid through Alipay's QR. */
  const paidByAlipay = async () => {
    const m = await env().factory.member();
    const o = await buy(await memberClient(env(), m), { productId: product.id, method: 'alipay_precreate' });
    ali.scan(o.orderNo);
    await ali.pay(o.orderNo);
    const row = await order(o.orderNo);
    expect(row.status).toBe(1);
    return { orderNo: o.orderNo, cardId: row.memberCardId ?? 0 };
  };
  /** This process's count of refunds the settling job skipped because asking about them failed, from /metrics. */
  const skippedInMetrics = () => jobItemFailuresInMetrics(env().app, REFUND_SETTLE_JOB);
  /** A money card (100.00 元) topped up by 500.00 元 through WeChat's QR. */
  const paidTopup = async () => {
    const m = await env().factory.member();
    const c = await env().factory.memberCard(m.id, money.id, { totalCount: 10000 });
    const o = await buy(await memberClient(env(), m), { mcId: c.id, amount: 50000, method: 'wechat_native' });
    await wx.pay(o.orderNo);
    expect((await card(c.id)).totalCount).toBe(60000);
    return { orderNo: o.orderNo, cardId: c.id };
  };
  /** 店长 refunds `amount` of the order: recorded 退款中, the card changed; answers the refund number. */
  const refundOf = async (orderNo: string, amount: number) => {
    await api().ok(refundPayOrder.path, { orderNo, amount, reason: '会员申请退款' });
    const rows = await db()
      .selectFrom('payRefund')
      .select(['refundNo', 'status'])
      .where('payOrderId', '=', (await order(orderNo)).id)
      .orderBy('id', 'desc')
      .execute();
    expect(rows[0].status).toBe(0);
    return rows[0].refundNo;
  };
  /** The order as 线上订单 lists it (its refunds with what the manager must do). */
  const listed = async (orderNo: string) => {
    const today = (await order(orderNo)).createdAt.slice(0, 10);
    const page = await api().ok(queryPayOrderList.path, { fromDate: today, toDate: today, page: 1 });
    return page.list.find((o: { orderNo: string }) => o.orderNo === orderNo);
  };

  it('a refund WeChat later reports successful (no notification) is settled once by the job, not before it is due', async () => {
    const o = await paidCardOrder();
    const no = await refundOf(o.orderNo, 9900);
    // Still PROCESSING at WeChat: the job asks and leaves it open.
    expect(await job(3)).toBe(0);
    expect((await refund(no)).status).toBe(0);
    await wx.settleRefund(no, 'SUCCESS', { silent: true });
    // Younger than 2 minutes by the job's clock: not asked yet.
    expect(await job(1)).toBe(0);
    expect((await refund(no)).status).toBe(0);
    // Asked at 3 minutes and still open: the next query is due a minute later (the backoff).
    expect(await job(3.5)).toBe(0);
    expect((await refund(no)).queries).toBe(1);
    expect(await job(4)).toBe(1);
    expect(await refund(no)).toMatchObject({ status: 1, providerRefundId: expect.any(String) });
    expect((await refundPayments(no)).map((p) => [p.channel, Number(p.amount)])).toEqual([['online', 9900]]);
    // Asked again: nothing more.
    expect(await job(3)).toBe(0);
    expect(await refundPayments(no)).toHaveLength(1);
    expect(await entries(no, '线上退款成功')).toEqual([{ actorKind: 'system', call: 'job/pay-refund-settle' }]);
    expect((await listed(o.orderNo)).refunds).toMatchObject([{ refundNo: no, status: 'success', note: null }]);
  });

  it('a refund WeChat later reports closed puts the card back once and says why', async () => {
    const t = await paidTopup();
    const no = await refundOf(t.orderNo, 20000);
    expect((await card(t.cardId)).totalCount).toBe(40000);
    expect(await order(t.orderNo)).toMatchObject({ status: 4, refunded: 20000 });
    await wx.settleRefund(no, 'CLOSED', { silent: true });
    expect(await job(3)).toBe(1);
    expect(await refund(no)).toMatchObject({ status: 2, failReason: '退款关闭' });
    expect((await card(t.cardId)).totalCount).toBe(60000);
    expect(await order(t.orderNo)).toMatchObject({ status: 1, refunded: 0 });
    expect((await undone(t.cardId)).map((u) => Number(u.amount))).toEqual([20000]);
    expect(await job(3)).toBe(0);
    expect(await undone(t.cardId)).toHaveLength(1);
    expect((await card(t.cardId)).totalCount).toBe(60000);
    expect(await refundPayments(no)).toEqual([]);
    expect(await entries(no, '线上退款失败，会员卡已恢复：退款关闭')).toHaveLength(1);
    expect((await listed(t.orderNo)).refunds).toMatchObject([
      { refundNo: no, status: 'failed', note: '退款关闭（会员卡已恢复）' },
    ]);
  });

  it('two runs of the job at once (two instances on PostgreSQL) settle each refund once', async () => {
    for (let round = 0; round < 3; round++) {
      const cards = [await paidCardOrder(), await paidCardOrder()];
      const topups = [await paidTopup(), await paidTopup()];
      const succeed = [await refundOf(cards[0].orderNo, 9900), await refundOf(topups[0].orderNo, 50000)];
      const refuse = [await refundOf(cards[1].orderNo, 9900), await refundOf(topups[1].orderNo, 30000)];
      for (const no of succeed) await wx.settleRefund(no, 'SUCCESS', { silent: true });
      for (const no of refuse) await wx.settleRefund(no, 'CLOSED', { silent: true });
      const runs = await Promise.all([job(3, apps()[0]), job(3, apps()[apps().length - 1])]);
      expect(runs[0] + runs[1], `round ${round}`).toBe(4);
      for (const no of succeed) {
        expect((await refund(no)).status).toBe(1);
        expect(await refundPayments(no)).toHaveLength(1);
        expect(await entries(no, '线上退款成功')).toHaveLength(1);
      }
      for (const no of refuse) {
        expect((await refund(no)).status).toBe(2);
        expect(await entries(no, '线上退款失败')).toHaveLength(1);
      }
      // The refused card order's card is open again with its 10 classes; the top-up's 300.00 元 is back.
      expect(await card(cards[1].cardId)).toMatchObject({ refundedAt: null, totalCount: 10 });
      expect(await undone(cards[1].cardId)).toHaveLength(1);
      expect((await card(topups[1].cardId)).totalCount).toBe(60000);
      expect(await undone(topups[1].cardId)).toHaveLength(1);
      expect(await order(cards[0].orderNo)).toMatchObject({ status: 3, refunded: 9900 });
      expect(await order(cards[1].orderNo)).toMatchObject({ status: 1, refunded: 0 });
    }
  });

  it('ABNORMAL (退款异常) is neither refused nor done: the card stays closed, 线上订单 says what to do, a later SUCCESS settles it', async () => {
    const o = await paidCardOrder();
    const no = await refundOf(o.orderNo, 9900);
    expect((await card(o.cardId)).refundedAt).not.toBeNull();
    await wx.settleRefund(no, 'ABNORMAL', { silent: true });
    expect(await job(3)).toBe(0);
    expect(await refund(no)).toMatchObject({ status: 3, settledAt: null, failReason: '退款异常，需在商户平台处理' });
    // Not put back (the money is on its way out), not recorded as paid back, the order stays refunded.
    const closed = await card(o.cardId);
    expect([closed.refundedAt !== null, Number(closed.totalCount)]).toEqual([true, 0]);
    expect(await undone(o.cardId)).toEqual([]);
    expect(await refundPayments(no)).toEqual([]);
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 9900 });
    expect((await listed(o.orderNo)).refunds).toMatchObject([
      { refundNo: no, status: 'abnormal', note: RefundMsg.abnormal },
    ]);
    expect(RefundMsg.abnormal).toContain('请到微信支付商户平台处理异常退款');
    // Asked again (a minute later, the backoff) while still ABNORMAL: recorded once.
    expect(await job(4)).toBe(0);
    expect(await entries(no, '线上退款异常')).toHaveLength(1);
    // The manager handled it on the 商户平台: WeChat now says SUCCESS.
    await wx.settleRefund(no, 'SUCCESS', { silent: true });
    expect(await job(5)).toBe(1);
    expect(await refund(no)).toMatchObject({ status: 1, failReason: null });
    expect((await refundPayments(no)).map((p) => Number(p.amount))).toEqual([9900]);
    expect(await job(3)).toBe(0);
    expect((await listed(o.orderNo)).refunds).toMatchObject([{ status: 'success', note: null }]);
  });

  it('ABNORMAL by notification, then SUCCESS by notification; another ABNORMAL then CLOSED puts the balance back', async () => {
    const t = await paidTopup();
    const first = await refundOf(t.orderNo, 20000);
    expect((await wx.settleRefund(first, 'ABNORMAL')).map((d) => [d.event, d.status])).toEqual([
      ['REFUND.ABNORMAL', 204],
    ]);
    expect((await refund(first)).status).toBe(3);
    expect((await card(t.cardId)).totalCount).toBe(40000);
    expect((await wx.settleRefund(first, 'SUCCESS')).map((d) => [d.event, d.status])).toEqual([
      ['REFUND.SUCCESS', 204],
    ]);
    expect((await refund(first)).status).toBe(1);
    expect(await refundPayments(first)).toHaveLength(1);
    expect((await card(t.cardId)).totalCount).toBe(40000);

    const second = await refundOf(t.orderNo, 30000);
    expect((await card(t.cardId)).totalCount).toBe(10000);
    expect(await order(t.orderNo)).toMatchObject({ status: 3, refunded: 50000 });
    await wx.settleRefund(second, 'ABNORMAL');
    expect((await refund(second)).status).toBe(3);
    expect((await wx.settleRefund(second, 'CLOSED')).map((d) => [d.event, d.status])).toEqual([['REFUND.CLOSED', 204]]);
    expect(await refund(second)).toMatchObject({ status: 2, failReason: '退款关闭' });
    expect((await card(t.cardId)).totalCount).toBe(40000);
    expect(await order(t.orderNo)).toMatchObject({ status: 4, refunded: 20000 });
    expect(await undone(t.cardId)).toHaveLength(1);
  });

  it('Alipay: fund_change N and a query answered 10000 without refund_status are no refusal; the job asks until Alipay pays (issue 42)', async () => {
    ali.control.refundsPending = true;
    try {
      const o = await paidByAlipay();
      // Alipay accepts the refund but answers fund_change N: the manager's call succeeds, 退款中.
      const no = await refundOf(o.orderNo, 9900);
      expect((await card(o.cardId)).refundedAt).not.toBeNull();
      // The job: its query answers 10000 without refund_status, the same refund asked for again answers
      // fund_change N again: still open, never 退款失败, the card not put back.
      expect(await job(3)).toBe(0);
      expect(await refund(no)).toMatchObject({ status: 0, queries: 1, failReason: null });
      expect(await undone(o.cardId)).toEqual([]);
      expect(ali.orders.get(o.orderNo)?.refundedFen).toBe(9900);
      // Not due again before the backoff's minute.
      expect(await job(3.5)).toBe(0);
      expect(await job(4)).toBe(0);
      expect((await refund(no)).queries).toBe(2);
      // Alipay pays it: the next query settles it 已退款, once.
      ali.settleRefund(no, 'success');
      expect(await job(6)).toBe(1);
      expect(await refund(no)).toMatchObject({ status: 1, failReason: null });
      expect((await refundPayments(no)).map((p) => [p.channel, Number(p.amount)])).toEqual([['online', 9900]]);
      expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 9900 });
      expect(await job(40)).toBe(0);
      expect(await refundPayments(no)).toHaveLength(1);

      // Another one Alipay does not pay: refused only once Alipay says so (the refund asked for again, 40004).
      const p = await paidByAlipay();
      const second = await refundOf(p.orderNo, 9900);
      expect(await job(3)).toBe(0);
      expect((await refund(second)).status).toBe(0);
      ali.settleRefund(second, { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' });
      expect(await job(4)).toBe(1);
      expect(await refund(second)).toMatchObject({ status: 2, failReason: '卖家余额不足' });
      expect(await card(p.cardId)).toMatchObject({ refundedAt: null, totalCount: 10 });
      expect(await undone(p.cardId)).toHaveLength(1);
      expect(await refundPayments(second)).toEqual([]);
    } finally {
      ali.control.refundsPending = false;
    }
  });

  it('one refund whose query throws is logged, counted in /metrics and skipped; the others still settle (issue 42)', async () => {
    const a = await paidCardOrder();
    const b = await paidCardOrder();
    const c = await paidTopup();
    const nos = [await refundOf(a.orderNo, 9900), await refundOf(b.orderNo, 9900), await refundOf(c.orderNo, 20000)];
    for (const no of nos) await wx.settleRefund(no, 'SUCCESS', { silent: true });
    wx.control.failRefundQueries.add(nos[1]);
    try {
      const before = await skippedInMetrics();
      expect(await job(3)).toBe(2);
      expect((await refund(nos[0])).status).toBe(1);
      expect((await refund(nos[1])).status).toBe(0);
      expect((await refund(nos[2])).status).toBe(1);
      expect(await skippedInMetrics()).toBe(before + 1);
      // WeChat answers again: the skipped one settles on a later run.
      wx.control.failRefundQueries.clear();
      expect(await job(3)).toBe(1);
      expect((await refund(nos[1])).status).toBe(1);
      expect(await refundPayments(nos[1])).toHaveLength(1);
    } finally {
      wx.control.failRefundQueries.clear();
    }
  });
});
