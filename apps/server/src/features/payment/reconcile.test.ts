// 对账 (issue 28, item 6) against the WeChat Pay and Alipay stand-ins on SQLite and PostgreSQL: a day
// with each kind of difference (paid on both sides, paid at the provider only – fulfilled after the
// provider's query –, an order number we never made, paid here only, amounts differ); the morning
// job runs yesterday once from 10:00 on two instances' worth of calls; a day is refused until it is over.
import {
  BIG_TYPE_MONEY,
  memberCreateOrder,
  queryPayReconcile,
  refundPayOrder,
  ReconcileMsg,
  runPayReconcile,
  type ReconcileResult,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { startOnlineStore, type OnlineStore } from '../../../test/payment-stand-ins.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { reconcileYesterday } from './reconcile.ts';

describeEachDb('online payment: reconciliation (对账)', (env) => {
  let online: OnlineStore;
  let product: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;
  const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], api());
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  /** A member's order of the 10次卡 through `method`, not paid yet. */
  const newOrder = async (method: 'wechat_native' | 'alipay_precreate') => {
    const me = await memberClient(env(), await env().factory.member());
    const a = await me.call(memberCreateOrder.path, { productId: product.id, method });
    expect(a.code, a.msg).toBe(0);
    return (a.data as { orderNo: string }).orderNo;
  };
  /** An order paid on both sides (notified), its payment moved to `day` here. */
  const paidOn = async (method: 'wechat_native' | 'alipay_precreate', day: string) => {
    const no = await newOrder(method);
    if (method === 'wechat_native') await online.wx.pay(no);
    else {
      online.ali.scan(no);
      await online.ali.pay(no);
    }
    expect((await order(no)).status).toBe(1);
    await db()
      .updateTable('payOrder')
      .set({ paidAt: `${day} 12:00:00` })
      .where('orderNo', '=', no)
      .execute();
    return no;
  };

  it('a WeChat day with each kind of difference: listed, the provider-only order fulfilled once, all in 操作日志', async () => {
    const day = addDays(today(), -3);
    const both = await paidOn('wechat_native', day);
    const herOnly = await paidOn('wechat_native', day);
    const differs = await paidOn('wechat_native', day);
    // Paid at WeChat, no notification ever reached us: the order is still 待支付 here.
    const lost = await newOrder('wechat_native');
    await online.wx.pay(lost, { silent: true });
    expect((await order(lost)).status).toBe(0);
    const trade = (no: string) => ({ outTradeNo: no, tradeId: `4200${no.slice(-10)}`, kind: 'pay' as const });
    online.wx.setBill(day, [
      { ...trade(both), amountFen: 9900 },
      { ...trade(differs), amountFen: 9800 },
      { ...trade(lost), amountFen: 9900 },
      { ...trade('P20991231000000199999'), amountFen: 100 },
    ]);

    const ran = await api().ok<{ list: ReconcileResult[] }>(runPayReconcile.path, { date: day, provider: 'wechat' });
    const [r] = ran.list;
    expect(r).toMatchObject({ provider: 'wechat', date: day, status: 'done', matched: 1, error: null });
    const byNo = Object.fromEntries(r.differences.map((d) => [d.orderNo, d]));
    expect(byNo[herOnly]).toMatchObject({ kind: 'local_only', local: 9900, provider: null, action: null });
    expect(byNo[differs]).toMatchObject({ kind: 'amount', local: 9900, provider: 9800, action: null });
    expect(byNo[lost]).toMatchObject({ kind: 'provider_only', local: null, provider: 9900 });
    expect(byNo[lost].action).toContain('已补发');
    expect(byNo.P20991231000000199999).toMatchObject({ kind: 'provider_only', action: '本店没有这个订单号，请核实' });
    expect(r.differences).toHaveLength(4);
    // The lost order is fulfilled: paid, one card.
    const fulfilled = await order(lost);
    expect(fulfilled.status).toBe(1);
    expect(fulfilled.memberCardId).not.toBeNull();

    // The stored result answers the query; running the day again finds the lost order paid and issues nothing more.
    const q = await api().ok<{ list: ReconcileResult[] }>(queryPayReconcile.path, { date: day, provider: 'wechat' });
    expect(q.list[0]).toEqual(r);
    const again = await api().ok<{ list: ReconcileResult[] }>(runPayReconcile.path, { date: day, provider: 'wechat' });
    expect(again.list[0].differences.map((d) => d.kind).sort()).toEqual(['amount', 'local_only', 'provider_only']);
    const cards = await db().selectFrom('payOrder').select('memberCardId').where('orderNo', '=', lost).execute();
    expect(cards).toHaveLength(1);

    const log = await db()
      .selectFrom('auditLog')
      .select(['summary', 'actorKind', 'kind'])
      .where('call', '=', runPayReconcile.path)
      .orderBy('id')
      .execute();
    // The fulfilment (its own entry, by the manager who ran it), then one entry per run.
    expect(log.map((l) => [l.actorKind, l.kind])).toEqual([
      ['staff', 'card'],
      ['staff', 'card'],
      ['staff', 'card'],
    ]);
    expect(log[0].summary).toBe('线上购卡 10次卡 10 次');
    expect(log[1].summary).toContain(`对账 ${day} 微信支付：一致 1 笔，差异 4 处`);
    expect(log[1].summary).toContain(`金额不一致 ${differs}（本店 99.00 元，渠道 98.00 元）`);
    expect(log[2].summary).toContain('差异 3 处');
  });

  it('the morning job: nothing before 10:00; from 10:00 yesterday once per provider, however many run it', async () => {
    const day = addDays(today(), -6);
    const ali = await paidOn('alipay_precreate', day);
    online.ali.setBill(day, [{ outTradeNo: ali, tradeId: '2026000001', amountFen: 9900, kind: 'pay' }]);
    online.wx.setBill(day, []);
    const deps = env().app.deps;
    const at = (time: string) => () => `${addDays(day, 1)} ${time}`;
    expect(await reconcileYesterday(deps, at('09:59:00'))).toBe(0);
    const runs = await Promise.all([
      reconcileYesterday(deps, at('10:00:00')),
      reconcileYesterday(deps, at('10:00:01')),
      reconcileYesterday(deps, at('10:00:02')),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await reconcileYesterday(deps, at('11:00:00'))).toBe(0);
    const q = await api().ok<{ list: ReconcileResult[] }>(queryPayReconcile.path, { date: day });
    expect(q.list.map((x) => [x.provider, x.status, x.matched, x.differences.length])).toEqual([
      ['wechat', 'done', 0, 0],
      ['alipay', 'done', 1, 0],
    ]);
    const log = await db()
      .selectFrom('auditLog')
      .select(['summary', 'actorKind'])
      .where('call', '=', 'job/pay-reconcile')
      .orderBy('id')
      .execute();
    expect(log.map((l) => l.actorKind)).toEqual(['system', 'system']);
    expect(log.map((l) => l.summary).sort()).toEqual([
      `对账 ${day} 微信支付：一致 0 笔，无差异`,
      `对账 ${day} 支付宝：一致 1 笔，无差异`,
    ]);
  });

  it('a day not over yet, a bad date: refused; a day never run answers 未对账', async () => {
    for (const date of [today(), addDays(today(), 1)]) {
      const a = await api().call(runPayReconcile.path, { date });
      expect([a.code, a.msg]).toEqual([400, ReconcileMsg.date]);
    }
    const bad = await api().call(queryPayReconcile.path, { date: '2026-13-40' });
    expect(bad.code).toBe(400);
    const none = await api().ok<{ list: ReconcileResult[] }>(queryPayReconcile.path, { date: '2020-01-01' });
    expect(none.list.map((x) => x.status)).toEqual(['none', 'none']);
  });

  /** 店长 refunds the whole of an order; WeChat settles it (notified): 已退款 here, moved to `day`. */
  const refundedOn = async (orderNo: string, day: string) => {
    online.wx.control.settleRefunds = 'manual';
    await api().ok(refundPayOrder.path, { orderNo, amount: 9900, reason: '会员申请退款' });
    online.wx.control.settleRefunds = 'immediately';
    const refundNo = (
      await db()
        .selectFrom('payRefund')
        .select('refundNo')
        .where('payOrderId', '=', (await order(orderNo)).id)
        .executeTakeFirstOrThrow()
    ).refundNo;
    await online.wx.settleRefund(refundNo, 'SUCCESS');
    const r = await db()
      .selectFrom('payRefund')
      .select(['refundNo', 'status'])
      .where('refundNo', '=', refundNo)
      .executeTakeFirstOrThrow();
    expect(r.status).toBe(1);
    await db()
      .updateTable('payRefund')
      .set({ settledAt: `${day} 15:00:00` })
      .where('refundNo', '=', r.refundNo)
      .execute();
    return r.refundNo;
  };

  it('refunds too: refunded there only, refunded here only, amounts differ; a refund refused here but paid there is listed (issue 42)', async () => {
    const day = addDays(today(), -8);
    const nos = [];
    for (let i = 0; i < 5; i++) nos.push(await paidOn('wechat_native', day));
    const [same, hereOnly, differs, refusedHere, unknown] = nos;
    const rSame = await refundedOn(same, day);
    const rHereOnly = await refundedOn(hereOnly, day);
    const rDiffers = await refundedOn(differs, day);
    // WeChat refuses this one at once: 退款失败 here, the card back.
    online.wx.control.refuse = 'now';
    const refused = await api().call(refundPayOrder.path, {
      orderNo: refusedHere,
      amount: 9900,
      reason: '会员申请退款',
    });
    online.wx.control.refuse = null;
    expect(refused.code).toBe(409);
    const rRefused = (
      await db()
        .selectFrom('payRefund')
        .select(['refundNo', 'status'])
        .where('payOrderId', '=', (await order(refusedHere)).id)
        .executeTakeFirstOrThrow()
    ).refundNo;
    const pay = (no: string) => ({
      outTradeNo: no,
      tradeId: `4200${no.slice(-10)}`,
      kind: 'pay' as const,
      amountFen: 9900,
    });
    const back = (no: string, outRefundNo: string, amountFen: number) => ({
      outTradeNo: no,
      tradeId: `4200${no.slice(-10)}`,
      kind: 'refund' as const,
      outRefundNo,
      amountFen,
    });
    online.wx.setBill(day, [
      ...nos.map(pay),
      back(same, rSame, 9900),
      back(differs, rDiffers, 9000),
      back(refusedHere, rRefused, 9900),
      back(unknown, 'R20991231000000199999', 9900),
    ]);

    const ran = await api().ok<{ list: ReconcileResult[] }>(runPayReconcile.path, { date: day, provider: 'wechat' });
    const [r] = ran.list;
    expect(r).toMatchObject({ status: 'done', error: null });
    // Five payments and one refund agree.
    expect(r.matched).toBe(6);
    const byRefund = Object.fromEntries(r.differences.map((d) => [d.refundNo ?? d.orderNo, d]));
    expect(r.differences).toHaveLength(4);
    expect(byRefund[rHereOnly]).toMatchObject({
      orderNo: hereOnly,
      kind: 'refund_local_only',
      local: 9900,
      provider: null,
    });
    expect(byRefund[rDiffers]).toMatchObject({ orderNo: differs, kind: 'refund_amount', local: 9900, provider: 9000 });
    expect(byRefund[rRefused]).toMatchObject({ orderNo: refusedHere, kind: 'refund_provider_only', provider: 9900 });
    expect(byRefund[rRefused].action).toContain('退款失败');
    expect(byRefund.R20991231000000199999).toMatchObject({
      orderNo: unknown,
      kind: 'refund_provider_only',
      action: '本店没有这笔退款，请核实',
    });
    const entry = await db()
      .selectFrom('auditLog')
      .select('summary')
      .where('call', '=', runPayReconcile.path)
      .where('summary', 'like', `对账 ${day}%`)
      .executeTakeFirstOrThrow();
    expect(entry.summary).toContain(`退款金额不一致 ${differs} 退款 ${rDiffers}（本店 99.00 元，渠道 90.00 元）`);
    expect(entry.summary).toContain(`本店已退款、渠道无退款 ${hereOnly} 退款 ${rHereOnly}`);
    // A refund 退款失败 here that the bill shows refunded at WeChat is what the invariant checker refuses.
    expect(await checkInvariants(db(), env().storeId)).toEqual([
      `refund ${rRefused}: refused yet refunded at the provider (对账 ${day})`,
    ]);
    // The bill corrected (the line was not WeChat's): the day run again lists no such refund.
    online.wx.setBill(day, [...nos.map(pay), back(same, rSame, 9900), back(differs, rDiffers, 9000)]);
    const again = await api().ok<{ list: ReconcileResult[] }>(runPayReconcile.path, { date: day, provider: 'wechat' });
    expect(again.list[0].differences.map((d) => d.kind).sort()).toEqual(['refund_amount', 'refund_local_only']);
  });

  it('one order that fails does not abort the day: the run ends done, the other orders are matched and fulfilled (issue 42)', async () => {
    const day = addDays(today(), -10);
    const money = await env().factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
    const m = await env().factory.member();
    const c = await env().factory.memberCard(m.id, money.id, { totalCount: 10000 });
    const me = await memberClient(env(), m);
    const a = await me.call(memberCreateOrder.path, { mcId: c.id, amount: 50000, method: 'wechat_native' });
    expect(a.code, a.msg).toBe(0);
    const broken = (a.data as { orderNo: string }).orderNo;
    const lost = await newOrder('wechat_native');
    const both = await paidOn('wechat_native', day);
    // Both paid at WeChat without a notification reaching us; the top-up's card cannot take it any more.
    await online.wx.pay(broken, { silent: true });
    await online.wx.pay(lost, { silent: true });
    await db()
      .updateTable('memberCard')
      .set({ refundedAt: `${day} 09:00:00` })
      .where('id', '=', c.id)
      .execute();
    const trade = (no: string, amountFen: number) => ({
      outTradeNo: no,
      tradeId: `4200${no.slice(-10)}`,
      kind: 'pay' as const,
      amountFen,
    });
    online.wx.setBill(day, [trade(broken, 50000), trade(lost, 9900), trade(both, 9900)]);

    const ran = await api().ok<{ list: ReconcileResult[] }>(runPayReconcile.path, { date: day, provider: 'wechat' });
    const [r] = ran.list;
    expect(r).toMatchObject({ status: 'done', matched: 1, error: null });
    const byNo = Object.fromEntries(r.differences.map((d) => [d.orderNo, d]));
    expect(byNo[broken]).toMatchObject({ kind: 'provider_only', provider: 50000 });
    expect(byNo[lost]).toMatchObject({ kind: 'provider_only', provider: 9900 });
    expect(byNo[lost].action).toContain('已补发');
    expect((await order(lost)).status).toBe(1);
    // Put the card back as it was, for the invariants.
    await db().updateTable('memberCard').set({ refundedAt: null }).where('id', '=', c.id).execute();
  });
});
