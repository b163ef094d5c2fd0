// Refunds of online orders through the provider (issue 28, item 5), against the WeChat Pay and Alipay
// stand-ins on SQLite and PostgreSQL: a whole card order (the card closed), a top-up in parts (the
// balance reduced, settled by WeChat's refund notification), two refunds at once (one passes), a
// refund the provider refuses (the card put back, the reason said), too much, and a desk role.
import {
  BIG_TYPE_MONEY,
  cardRefundQuote,
  CardMsg,
  memberCardLedger,
  memberCreateOrder,
  refundMemberCard,
  refundPayOrder,
  RefundMsg,
  topupMemberCard,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Client, describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import {
  startOnlineStore,
  type OnlineStore,
  type AlipayStandIn,
  type WechatPayStandIn,
} from '../../../test/payment-stand-ins.ts';

describeEachDb('online payment: refunds through the provider', (env) => {
  let wx: WechatPayStandIn;
  let ali: AlipayStandIn;
  let online: OnlineStore;
  let product: { id: number };
  let money: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], api());
    ({ wx, ali } = online);
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    money = await e.factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
  }, 60_000);

  afterEach(async () => {
    wx.control.refuse = null;
    wx.control.settleRefunds = 'immediately';
    ali.control.refuse = null;
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  const card = (id: number) => db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refundsOf = async (orderNo: string) =>
    db()
      .selectFrom('payRefund')
      .selectAll()
      .where('payOrderId', '=', (await order(orderNo)).id)
      .orderBy('id')
      .execute();
  const buy = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(memberCreateOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string };
  };
  /** A member, a 10次卡 bought and paid through Alipay's QR. */
  const paidCardOrder = async () => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const o = await buy(me, { productId: product.id, method: 'alipay_precreate' });
    ali.scan(o.orderNo);
    await ali.pay(o.orderNo);
    const row = await order(o.orderNo);
    expect(row.status).toBe(1);
    return { orderNo: o.orderNo, cardId: row.memberCardId ?? 0 };
  };
  /** A member's money card (100.00 元) topped up by 500.00 元, paid through `method`. */
  const paidTopup = async (method: 'wechat_native' | 'alipay_precreate') => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const c = await env().factory.memberCard(m.id, money.id, { totalCount: 10000 });
    const o = await buy(me, { mcId: c.id, amount: 50000, method });
    if (method === 'alipay_precreate') {
      ali.scan(o.orderNo);
      await ali.pay(o.orderNo);
    } else await wx.pay(o.orderNo);
    expect((await order(o.orderNo)).status).toBe(1);
    expect((await card(c.id)).totalCount).toBe(60000);
    return { orderNo: o.orderNo, cardId: c.id };
  };

  it('a whole refund of an unused card order closes the card; the order is 已退款', async () => {
    const o = await paidCardOrder();
    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 9900, reason: '会员搬家' });
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 9900 });
    const c = await card(o.cardId);
    expect(c.refundedAt).not.toBeNull();
    expect(Number(c.totalCount)).toBe(0);
    const [r] = await refundsOf(o.orderNo);
    expect(r).toMatchObject({ status: 1, amount: 9900, reason: '会员搬家', staffId: env().staffId });
    const back = await db()
      .selectFrom('cardPayment')
      .selectAll()
      .where('payOrderId', '=', r.payOrderId)
      .where('kind', '=', 'refund')
      .execute();
    expect(back.map((p) => [p.channel, p.method, Number(p.amount)])).toEqual([['online', 'alipay', 9900]]);
    // Entries for the request and the settlement, about the member and the card.
    const log = await db()
      .selectFrom('auditLog')
      .select(['id', 'kind', 'actorKind', 'summary'])
      .where('call', '=', refundPayOrder.path)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(log.map((l) => [l.kind, l.actorKind])).toEqual([
      ['card', 'staff'],
      ['card', 'staff'],
    ]);
    const targets = await db()
      .selectFrom('auditTarget')
      .select(['type', 'refId'])
      .where('auditId', '=', log[1].id)
      .execute();
    expect(targets.map((t) => `${t.type}:${t.refId}`).sort()).toContain(`card:${o.cardId}`);
    // Nothing is left to refund.
    expect(await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 1, reason: '再退' })).toMatchObject({
      status: 409,
      msg: RefundMsg.allRefunded,
    });
  });

  it('a part refund of a top-up reduces the balance (部分退款), then the rest (已退款), settled by WeChat notifications', async () => {
    const o = await paidTopup('wechat_native');
    wx.control.settleRefunds = 'manual';
    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 20000, reason: '多充了' });
    expect(await order(o.orderNo)).toMatchObject({ status: 4, refunded: 20000 });
    expect((await card(o.cardId)).totalCount).toBe(40000);
    const [first] = await refundsOf(o.orderNo);
    expect(first.status).toBe(0);
    // WeChat's REFUND.SUCCESS notification settles it (answered 204), once.
    expect((await wx.settleRefund(first.refundNo)).map((d) => d.status)).toEqual([204]);
    expect((await refundsOf(o.orderNo))[0]).toMatchObject({ status: 1, providerRefundId: expect.any(String) });

    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 30000, reason: '不练了' });
    const rest = (await refundsOf(o.orderNo))[1];
    await wx.settleRefund(rest.refundNo);
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 50000 });
    expect((await card(o.cardId)).totalCount).toBe(10000);
    expect((await refundsOf(o.orderNo)).map((r) => r.status)).toEqual([1, 1]);
  });

  it('two refunds of the same order at once: exactly one passes (the order guard)', async () => {
    const o = await paidTopup('alipay_precreate');
    // The balance (600.00 元) holds both; only the order's amount (500.00 元) stops the second.
    const answers = await Promise.all(
      [1, 2].map(() => api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 30000, reason: '同时退款' })),
    );
    expect(answers.map((a) => a.code === 0).filter(Boolean)).toHaveLength(1);
    const loser = answers.find((a) => a.code !== 0);
    expect(loser).toMatchObject({ status: 409, msg: RefundMsg.tooMuch('200.00 元') });
    expect(await order(o.orderNo)).toMatchObject({ status: 4, refunded: 30000 });
    expect((await card(o.cardId)).totalCount).toBe(30000);
    expect(await refundsOf(o.orderNo)).toHaveLength(1);
  });

  it('two whole refunds of a card order at once: one card closed, one refund', async () => {
    const o = await paidCardOrder();
    const answers = await Promise.all(
      [1, 2].map(() => api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 9900, reason: '同时退卡' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await refundsOf(o.orderNo)).toHaveLength(1);
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 9900 });
  });

  it('a refund the provider refuses puts the card back and says why', async () => {
    const o = await paidCardOrder();
    ali.control.refuse = { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' };
    const a = await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 9900, reason: '会员生病' });
    expect(a.status).toBe(409);
    expect(a.msg).toContain('退款失败，会员卡已恢复');
    expect(a.msg).toContain('卖家余额不足');
    const c = await card(o.cardId);
    expect([c.refundedAt, Number(c.totalCount)]).toEqual([null, 10]);
    expect(await order(o.orderNo)).toMatchObject({ status: 1, refunded: 0 });
    const [r] = await refundsOf(o.orderNo);
    expect(r.status).toBe(2);
    expect(r.failReason).toContain('卖家余额不足');
    // WeChat refusing later (REFUND.CLOSED notification): a top-up's balance comes back.
    const t = await paidTopup('wechat_native');
    wx.control.settleRefunds = 'manual';
    await api().ok(refundPayOrder.path, { orderNo: t.orderNo, amount: 50000, reason: '退掉' });
    expect((await card(t.cardId)).totalCount).toBe(10000);
    const [w] = await refundsOf(t.orderNo);
    expect((await wx.settleRefund(w.refundNo, true)).map((d) => d.status)).toEqual([204]);
    expect((await card(t.cardId)).totalCount).toBe(60000);
    expect(await order(t.orderNo)).toMatchObject({ status: 1, refunded: 0 });
    expect((await refundsOf(t.orderNo))[0]).toMatchObject({ status: 2, failReason: '退款关闭' });
    // Once put back, it can be refunded again.
    ali.control.refuse = null;
    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 9000, reason: '扣手续费后退卡' });
    expect(await order(o.orderNo)).toMatchObject({ status: 4, refunded: 9000 });
  });

  it("the desk's 退回充值 refuses a top-up paid online (it goes back from 线上订单): 409 naming the order, nothing written", async () => {
    const t = await paidTopup('wechat_native');
    // A top-up taken at the desk on the same card is still the desk's to pay back.
    await api().ok(topupMemberCard.path, {
      id: t.cardId,
      amount: 10000,
      payment: { amount: 10000, method: 'cash', remark: null },
    });
    const ledger = await api().ok(memberCardLedger.path, { id: t.cardId });
    const online = ledger.find(
      (r: { kind: string; onlineOrderNo: string | null }) => r.kind === 'topup' && r.onlineOrderNo,
    );
    const desk = ledger.find(
      (r: { kind: string; onlineOrderNo: string | null }) => r.kind === 'topup' && !r.onlineOrderNo,
    );
    expect(online).toMatchObject({ amount: 50000, onlineOrderNo: t.orderNo, refunded: false });
    expect(desk).toMatchObject({ amount: 10000, onlineOrderNo: null });
    const footprint = async () => ({
      card: await card(t.cardId),
      ledger: await db().selectFrom('cardLedger').select('id').where('memberCardId', '=', t.cardId).execute(),
      payments: await db().selectFrom('cardPayment').select('id').where('memberCardId', '=', t.cardId).execute(),
      audit: Number(
        (
          await db()
            .selectFrom('auditLog')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });
    const before = await footprint();
    const refused = await api().call(refundMemberCard.path, {
      id: t.cardId,
      topupId: online.id,
      amount: 50000,
      method: 'cash',
      remark: '前台退回',
    });
    expect(refused).toMatchObject({ status: 409, msg: CardMsg.topupOnline(t.orderNo) });
    expect(refused.msg).toContain('线上订单');
    expect(await footprint()).toEqual(before);
    // The desk's own top-up goes back at the desk; the online one from 线上订单, through WeChat Pay.
    await api().ok(refundMemberCard.path, {
      id: t.cardId,
      topupId: desk.id,
      amount: 10000,
      method: 'cash',
      remark: null,
    });
    await api().ok(refundPayOrder.path, { orderNo: t.orderNo, amount: 50000, reason: '会员退充值' });
    expect((await card(t.cardId)).totalCount).toBe(10000);
    expect(await order(t.orderNo)).toMatchObject({ status: 3, refunded: 50000 });
  });

  it('more than is left is a Chinese 409; bad input 400; unknown order 404; a desk role gets 403', async () => {
    const o = await paidTopup('alipay_precreate');
    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 45000, reason: '部分' });
    expect(await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 5001, reason: '超出' })).toMatchObject({
      status: 409,
      msg: RefundMsg.tooMuch('50.00 元'),
    });
    expect(await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 100, reason: ' ' })).toMatchObject({
      status: 400,
      msg: RefundMsg.reason,
    });
    expect(await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 0, reason: '零' })).toMatchObject({
      status: 400,
      msg: RefundMsg.amount,
    });
    expect((await api().call(refundPayOrder.path, { orderNo: 'P0000', amount: 1, reason: '无' })).status).toBe(404);
    // A top-up order is the manager's to refund.
    const desk = await staffClient(env(), 'desk');
    expect(await desk.call(refundPayOrder.path, { orderNo: o.orderNo, amount: 100, reason: '前台' })).toMatchObject({
      status: 403,
      msg: RefundMsg.manager,
    });
    expect(await order(o.orderNo)).toMatchObject({ status: 4, refunded: 45000 });
  });

  it("a card bought online: the desk's 退卡 goes back the way the money came (原路退回), in full within the cooling-off days; afterwards the manager's", async () => {
    const o = await paidCardOrder();
    const desk = await staffClient(env(), 'desk');
    // The quote names the order, so the screen refunds through it.
    const quote = await desk.ok(cardRefundQuote.path, { mcId: o.cardId });
    expect(quote).toMatchObject({
      rule: 'cooling_off',
      amount: 9900,
      allowed: true,
      onlineOrder: { orderNo: o.orderNo, provider: 'alipay' },
    });
    // Paying it back as money at the desk is refused, nothing written.
    const before = { card: await card(o.cardId), order: await order(o.orderNo) };
    const cash = await desk.call(refundMemberCard.path, { id: o.cardId, amount: 9900, method: 'cash', remark: null });
    expect(cash).toMatchObject({ status: 409, msg: CardMsg.cardOnline(o.orderNo) });
    expect({ card: await card(o.cardId), order: await order(o.orderNo) }).toEqual(before);
    // Past the cooling-off days the desk may not; within them it refunds in full through Alipay.
    const sold = before.card.createdAt;
    await db().updateTable('memberCard').set({ createdAt: '2020-01-01 10:00:00' }).where('id', '=', o.cardId).execute();
    expect(
      await desk.call(refundPayOrder.path, { orderNo: o.orderNo, amount: 9900, reason: '不想练了' }),
    ).toMatchObject({ status: 403, msg: RefundMsg.manager });
    await db().updateTable('memberCard').set({ createdAt: sold }).where('id', '=', o.cardId).execute();
    await desk.ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 9900, reason: '七天内不想练了' });
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 9900 });
    expect((await card(o.cardId)).refundedAt).not.toBeNull();
    const [r] = await refundsOf(o.orderNo);
    expect(r).toMatchObject({ status: 1, amount: 9900, reason: '七天内不想练了' });
  });
});
