// Issue 42, items 1 and 13 (first two parts), against the payment stand-ins on SQLite and PostgreSQL:
// a paid order that cannot be fulfilled (its card refunded or transferred meanwhile, its product
// deleted) becomes 异常订单 with its reason, the notification is answered success, 线上订单 lists it
// and its 原路退款 (in full) settles it, 今日 tells the manager; the close job goes order by order (50
// unfulfillable orders among 500 ordinary ones over three instances on PostgreSQL); orders closed at
// WeChat (CLOSED, REVOKED, PAYERROR) are closed here and asked about no more; the desk's 退卡 closes the
// card's open top-up order first (at WeChat too); a 体验卡 is once per member even for two taps at once.
import {
  amountText,
  BIG_TYPE_MONEY,
  ContractMsg,
  createPayOrder,
  deleteCardProduct,
  insertMemberCard,
  memberCreateOrder,
  PayExceptionMsg,
  PayMsg,
  queryPayOrderList,
  queryToday,
  refundMemberCard,
  refundPayOrder,
  RefundMsg,
  transferMemberCard,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { Client, describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { issueCode } from '../../auth/member-codes.ts';
import { startOnlineStore, type OnlineStore, type WechatPayStandIn } from '../../../test/payment-stand-ins.ts';
import { closeExpiredOrders } from './orders.ts';

describeEachDb('online payment: 异常订单, the close job order by order, 体验卡 once', (env) => {
  let wx: WechatPayStandIn;
  let online: OnlineStore;
  let product: { id: number };
  let moneyOnline: { id: number };
  let money: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;
  // Three instances over one PostgreSQL schema (SQLite has one writer process: one instance).
  const instances = moreInstances(env, 2);
  const apps = () => instances.apps;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(apps, api());
    ({ wx } = online);
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    moneyOnline = await e.factory.cardProduct({
      cardName: '线上储值卡',
      bigType: BIG_TYPE_MONEY,
      totalCount: 50000,
      onlineSale: 1,
      onlinePrice: 50000,
    });
    money = await e.factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
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
  const buy = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(memberCreateOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string; amount: number };
  };
  const at = (minutes: number) => (tz: string) => localDateTime(tz, Date.now() + minutes * 60_000);
  const today = localDateTime('Asia/Shanghai').slice(0, 10);
  const listed = async (orderNo: string) => {
    const list = await api().ok(queryPayOrderList.path, { fromDate: today, toDate: today, status: 'exception' });
    return list.list.find((o: { orderNo: string }) => o.orderNo === orderNo);
  };
  const exceptionEntries = (orderNo: string) =>
    db()
      .selectFrom('auditLog')
      .select('summary')
      .where('target', 'like', `订单 ${orderNo}%`)
      .where('summary', 'like', '异常订单：%')
      .execute();

  it('a top-up paid for a card refunded meanwhile is 异常订单: answered success, listed with its reason, 原路退款 in full', async () => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    // The member buys a money card online, then starts a top-up of it; the manager refunds the card order meanwhile.
    const cardOrder = await buy(me, { productId: moneyOnline.id, method: 'wechat_native' });
    await wx.pay(cardOrder.orderNo);
    const cardId = (await order(cardOrder.orderNo)).memberCardId!;
    const topup = await buy(me, { mcId: cardId, amount: 50000, method: 'wechat_native' });
    await api().ok(refundPayOrder.path, { orderNo: cardOrder.orderNo, amount: 50000, reason: '会员要求退卡' });
    expect((await card(cardId)).refundedAt).not.toBeNull();
    // The member pays the top-up: the notification is answered success once the order is 异常订单.
    const deliveries = await wx.pay(topup.orderNo);
    expect(deliveries.map((d) => d.status)).toEqual([204]);
    expect(await order(topup.orderNo)).toMatchObject({
      status: 5,
      exceptionReason: PayExceptionMsg.cardRefunded,
      refunded: 0,
    });
    expect((await order(topup.orderNo)).paidAt).not.toBeNull();
    expect((await card(cardId)).totalCount).toBe(0);
    // A second notification changes nothing (one entry).
    expect((await wx.notify(topup.orderNo)).map((d) => d.status)).toEqual([204]);
    expect(await exceptionEntries(topup.orderNo)).toHaveLength(1);
    // 线上订单 lists it with its reason; 今日 tells the manager.
    expect(await listed(topup.orderNo)).toMatchObject({
      status: 'exception',
      exceptionReason: PayExceptionMsg.cardRefunded,
      memberCardId: cardId,
    });
    const day = await api().ok(queryToday.path, {});
    expect(day.exceptionOrders).toBeGreaterThanOrEqual(1);
    // 原路退款: in full only, then settled by WeChat; no card changes.
    expect(
      await api().call(refundPayOrder.path, { orderNo: topup.orderNo, amount: 100, reason: '退回' }),
    ).toMatchObject({
      status: 409,
      msg: PayExceptionMsg.wholeOnly(amountText(BIG_TYPE_MONEY, 50000)),
    });
    wx.control.settleRefunds = 'manual';
    try {
      await api().ok(refundPayOrder.path, { orderNo: topup.orderNo, amount: 50000, reason: '卡已退，原路退回' });
    } finally {
      wx.control.settleRefunds = 'immediately';
    }
    expect(await order(topup.orderNo)).toMatchObject({ status: 3, refunded: 50000 });
    const orderId = (await order(topup.orderNo)).id;
    const refundOf = () =>
      db().selectFrom('payRefund').selectAll().where('payOrderId', '=', orderId).executeTakeFirstOrThrow();
    const open = await refundOf();
    expect(open).toMatchObject({ status: 0, memberCardId: null, ledgerId: null, amount: 50000 });
    // WeChat's REFUND.SUCCESS settles it (answered 204): no money recorded on any card.
    expect((await wx.settleRefund(open.refundNo)).map((d) => d.status)).toEqual([204]);
    expect(await refundOf()).toMatchObject({ status: 1, memberCardId: null, ledgerId: null });
    expect((await card(cardId)).totalCount).toBe(0);
    expect(
      (await api().ok(queryPayOrderList.path, { fromDate: today, toDate: today, status: 'refunded' })).list.find(
        (o: { orderNo: string }) => o.orderNo === topup.orderNo,
      ),
    ).toMatchObject({ exceptionReason: PayExceptionMsg.cardRefunded });
  });

  it('a top-up paid for a card transferred meanwhile, and a card of a product deleted meanwhile, are 异常订单', async () => {
    const m = await env().factory.member();
    const other = await env().factory.member();
    const me = await memberClient(env(), m);
    const c = await env().factory.memberCard(m.id, money.id, { totalCount: 10000 });
    const topup = await buy(me, { mcId: c.id, amount: 50000, method: 'wechat_native' });
    await api().ok(transferMemberCard.path, { mcId: c.id, toMid: other.id, futureBookings: 'keep', remark: null });
    expect((await wx.pay(topup.orderNo)).map((d) => d.status)).toEqual([204]);
    expect(await order(topup.orderNo)).toMatchObject({ status: 5, exceptionReason: PayExceptionMsg.cardTransferred });
    // The new holder's balance is untouched.
    expect((await card(c.id)).totalCount).toBe(10000);

    const gone = await env().factory.cardProduct({
      cardName: '停售卡',
      totalCount: 8,
      onlineSale: 1,
      onlinePrice: 8800,
    });
    const o = await buy(me, { productId: gone.id, method: 'alipay_precreate' });
    await api().ok(deleteCardProduct.path, { id: gone.id });
    await online.ali.pay(o.orderNo);
    expect(await order(o.orderNo)).toMatchObject({
      status: 5,
      exceptionReason: PayExceptionMsg.productGone,
      memberCardId: null,
    });
    expect(await db().selectFrom('memberCard').select('id').where('cardId', '=', gone.id).execute()).toEqual([]);
  });

  it('the close job: 50 unfulfillable orders among 500 ordinary ones, three instances at once; each order on its own', async () => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const inChunks = async <T, R>(xs: T[], f: (x: T) => Promise<R>) => {
      const out: R[] = [];
      for (let i = 0; i < xs.length; i += 25) out.push(...(await Promise.all(xs.slice(i, i + 25).map(f))));
      return out;
    };
    // 50 top-ups of money cards bought online whose card order the manager refunded before the member paid.
    const bad = await inChunks(Array.from({ length: 50 }), async () => {
      const co = await buy(me, { productId: moneyOnline.id, method: 'wechat_native' });
      await wx.pay(co.orderNo);
      const cardId = (await order(co.orderNo)).memberCardId!;
      const t = await buy(me, { mcId: cardId, amount: 50000, method: 'wechat_native' });
      await api().ok(refundPayOrder.path, { orderNo: co.orderNo, amount: 50000, reason: '退卡' });
      return t.orderNo;
    });
    const ordinary = await inChunks(Array.from({ length: 500 }), () =>
      buy(me, { productId: product.id, method: 'wechat_native' }).then((o) => o.orderNo),
    );
    const paid = ordinary.filter((_, i) => i % 2 === 0);
    // Paid with no notification (the close job finds them), the bad ones interleaved with the good.
    await inChunks([...bad, ...paid], (no) => wx.pay(no, { silent: true }));
    const runs = await Promise.all([0, 1, 2].map((i) => closeExpiredOrders(apps()[i % apps().length].deps, at(16))));
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(550);
    const rows = await db()
      .selectFrom('payOrder')
      .select(['orderNo', 'status', 'exceptionReason'])
      .where('orderNo', 'in', [...bad, ...ordinary])
      .execute();
    const status = new Map(rows.map((r) => [r.orderNo, r]));
    for (const no of ordinary) expect(status.get(no)?.status, no).toBe(paid.includes(no) ? 1 : 2);
    for (const no of bad) {
      expect(status.get(no), no).toMatchObject({ status: 5, exceptionReason: PayExceptionMsg.cardRefunded });
    }
    const entries = await db()
      .selectFrom('auditLog')
      .select('target')
      .where('summary', 'like', '异常订单：%')
      .where('call', '=', 'job/pay-order-close')
      .execute();
    for (const no of bad)
      expect(
        entries.filter((e) => e.target?.startsWith(`订单 ${no}`)),
        no,
      ).toHaveLength(1);
    expect(
      await db()
        .selectFrom('memberCard')
        .select('id')
        .where('memberId', '=', m.id)
        .where('cardId', '=', product.id)
        .execute(),
    ).toHaveLength(paid.length);
  }, 600_000);

  it('orders closed at WeChat (CLOSED, REVOKED, PAYERROR) are closed here and asked about no more', async () => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const revoked = await buy(me, { productId: product.id, method: 'wechat_native' });
    const failed = await buy(me, { productId: product.id, method: 'wechat_native' });
    wx.setState(revoked.orderNo, 'REVOKED');
    wx.setState(failed.orderNo, 'PAYERROR');
    await closeExpiredOrders(env().app.deps, at(16));
    expect((await order(revoked.orderNo)).status).toBe(2);
    expect((await order(failed.orderNo)).status).toBe(2);
    // Not due any more: the next run does not ask WeChat about them.
    const watch = wx.watchQuery(revoked.orderNo);
    let asked = false;
    void watch.asked.then(() => (asked = true));
    await closeExpiredOrders(env().app.deps, at(17));
    expect(asked).toBe(false);
  });

  it("the desk's 退卡 of a card with a top-up order still open closes that order first, at WeChat too", async () => {
    const m = await env().factory.member();
    const me = await memberClient(env(), m);
    const c = await env().factory.memberCard(m.id, money.id, { totalCount: 10000 });
    const t = await buy(me, { mcId: c.id, amount: 50000, method: 'wechat_native' });
    await api().ok(refundMemberCard.path, { id: c.id, amount: 0, method: 'cash', remark: '会员退卡' });
    expect((await order(t.orderNo)).status).toBe(2);
    expect(wx.orders.get(t.orderNo)?.state).toBe('CLOSED');
    expect((await card(c.id)).refundedAt).not.toBeNull();
    // The member can no longer pay it.
    await expect(wx.pay(t.orderNo)).rejects.toThrow(/CLOSED/);
  });

  it('a 体验卡 is once per member even for taps at once: the signing code is used once, the insert decides', async () => {
    const trial = await env().factory.cardProduct({
      cardName: '体验卡',
      totalCount: 1,
      onlineSale: 1,
      onlinePrice: 990,
      trial: 1,
    });
    for (let round = 0; round < 3; round++) {
      const m = await env().factory.member();
      const client = await memberClient(env(), m);
      // the member's six taps carry the one code they were texted: one order
      const { code } = await issueCode(db(), { storeId: env().storeId, memberId: m.id }, 'contract');
      const taps = await Promise.all(
        Array.from({ length: 6 }, () =>
          client.call(memberCreateOrder.path, {
            productId: trial.id,
            method: 'wechat_native',
            agree: true,
            signCode: code,
          }),
        ),
      );
      expect(taps.filter((a) => a.code === 0)).toHaveLength(1);
      for (const a of taps.filter((x) => x.code !== 0)) {
        expect([
          [400, ContractMsg.badCode],
          [409, PayMsg.trialOnce],
        ]).toContainEqual([a.status, a.msg]);
      }
      // the desk's 扫码收款 six times at once for another member (no code): the insert decides
      const n = await env().factory.member();
      const desk = await Promise.all(
        Array.from({ length: 6 }, () =>
          api().call(createPayOrder.path, { mid: n.id, productId: trial.id, method: 'wechat_native' }),
        ),
      );
      expect(desk.filter((a) => a.code === 0)).toHaveLength(1);
      for (const a of desk.filter((x) => x.code !== 0)) expect(a).toMatchObject({ status: 409, msg: PayMsg.trialOnce });
      expect(
        await db().selectFrom('payOrder').select('id').where('memberId', '=', n.id).where('trial', '=', 1).execute(),
      ).toHaveLength(1);
      const orders = await db()
        .selectFrom('payOrder')
        .select('id')
        .where('memberId', '=', m.id)
        .where('trial', '=', 1)
        .execute();
      expect(orders).toHaveLength(1);
    }
  });

  const trialProduct = () =>
    env().factory.cardProduct({ cardName: '体验卡', totalCount: 1, onlineSale: 1, onlinePrice: 990, trial: 1 });
  const trialCards = (memberId: number) =>
    db()
      .selectFrom('memberCard as mc')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select('mc.id')
      .where('mc.memberId', '=', memberId)
      .where('p.trial', '=', 1)
      .execute();

  it('a 体验卡 order paid after the member got a 体验卡 another way is 异常订单, never a second card', async () => {
    const trial = await trialProduct();
    const m = await env().factory.member();
    const o = await buy(await memberClient(env(), m), { productId: trial.id, method: 'wechat_native' });
    // Meanwhile the member gets a 体验卡 another way (here: written as the data import writes a card).
    await env().factory.memberCard(m.id, trial.id, { totalCount: 1 });
    const deliveries = await wx.pay(o.orderNo);
    expect(deliveries.map((d) => d.status)).toEqual([204]);
    const row = await order(o.orderNo);
    expect(row).toMatchObject({ status: 5, exceptionReason: PayMsg.trialOnce, memberCardId: null, refunded: 0 });
    expect(await trialCards(m.id)).toHaveLength(1);
    expect(await db().selectFrom('cardPayment').select('id').where('payOrderId', '=', row.id).execute()).toEqual([]);
    expect(await exceptionEntries(o.orderNo)).toHaveLength(1);
    // A second notification changes nothing; 原路退款 pays it back in full.
    expect((await wx.notify(o.orderNo)).map((d) => d.status)).toEqual([204]);
    expect(await trialCards(m.id)).toHaveLength(1);
    // Its 原路退款 refused by WeChat (it changed no card): the words say the money is still here, not 会员卡已恢复.
    const why = wx.control.refuseMessage;
    wx.control.refuse = 'now';
    try {
      const refused = await api().call(refundPayOrder.path, { orderNo: o.orderNo, amount: 990, reason: '原路退回' });
      expect([refused.status, refused.msg]).toEqual([409, RefundMsg.refusedNoCard(why)]);
      expect(refused.msg).toBe(`退款失败，款项仍在本店，可再次原路退款：${why}`);
    } finally {
      wx.control.refuse = null;
    }
    expect(await order(o.orderNo)).toMatchObject({ status: 5, refunded: 0 });
    const day = (await order(o.orderNo)).createdAt.slice(0, 10);
    const page = await api().ok(queryPayOrderList.path, { fromDate: day, toDate: day, status: 'exception' });
    const listedRow = page.list.find((x: { orderNo: string }) => x.orderNo === o.orderNo);
    expect(listedRow.refunds).toMatchObject([{ status: 'failed', note: `${why}（款项仍在本店，可再次原路退款）` }]);
    expect(JSON.stringify(listedRow)).not.toContain('会员卡已恢复');
    await api().ok(refundPayOrder.path, { orderNo: o.orderNo, amount: 990, reason: '已有体验卡，原路退回' });
    expect(await order(o.orderNo)).toMatchObject({ status: 3, refunded: 990 });
  });

  it('the desk cannot sell a 体验卡 while the member has a 体验卡 order open or paid, nor a second one (the same rule)', async () => {
    const trial = await trialProduct();
    const m = await env().factory.member();
    const sell = () => api().call(insertMemberCard.path, { mid: m.id, cardId: trial.id, totalCount: 1 });
    const o = await buy(await memberClient(env(), m), { productId: trial.id, method: 'wechat_native' });
    // The order is open: the desk's sale is refused, nothing written.
    expect(await sell()).toMatchObject({ status: 409, msg: PayMsg.trialOnce });
    expect(await trialCards(m.id)).toHaveLength(0);
    // Paid: the order's card is the member's one 体验卡; the desk is refused again.
    await wx.pay(o.orderNo);
    expect(await order(o.orderNo)).toMatchObject({ status: 1 });
    expect(await sell()).toMatchObject({ status: 409, msg: PayMsg.trialOnce });
    expect(await trialCards(m.id)).toHaveLength(1);
    // A member with none: the desk sells one, then not a second; an online order is refused too.
    const n = await env().factory.member();
    expect(await api().call(insertMemberCard.path, { mid: n.id, cardId: trial.id, totalCount: 1 })).toMatchObject({
      code: 0,
    });
    expect(await api().call(insertMemberCard.path, { mid: n.id, cardId: trial.id, totalCount: 1 })).toMatchObject({
      status: 409,
      msg: PayMsg.trialOnce,
    });
    expect(
      await (
        await memberClient(env(), n)
      ).call(memberCreateOrder.path, { productId: trial.id, method: 'wechat_native' }),
    ).toMatchObject({ status: 409, msg: PayMsg.trialOnce });
    expect(await trialCards(n.id)).toHaveLength(1);
  });
});
