// Whoever sold it earns it (issue 42, item 12): 发卡, 充值 and the desk's 扫码收款 name a 销售员 (any
// staff member of the store, by default who is signed in) whom the sales commission counts; a
// manager changes the seller of a sale later, written to the audit log. Through the real calls, the
// WeChat Pay stand-in paying the 扫码收款, on SQLite and PostgreSQL.
import { createPayOrder, Msg, queryPayOrder, SellerMsg, type CommissionRow } from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { startOnlineStore, type OnlineStore } from '../../../test/payment-stand-ins.ts';

const STORE = '/store/api';

describeEachDb('whoever sold it earns it (销售员)', (env) => {
  let online: OnlineStore;
  let desk: { id: number; client: Client };
  let coach: { id: number; client: Client };
  let product: { id: number };
  let money: { id: number };
  const db = () => env().database.db;
  const ok = <T = any>(path: string, body: Record<string, unknown> = {}) =>
    env().client.ok<T>(`${STORE}/${path}`, body);
  const call = (path: string, body: Record<string, unknown> = {}) => env().client.call(`${STORE}/${path}`, body);
  const thisMonth = () => localDateTime('Asia/Shanghai').slice(0, 7);
  const staffIdOf = async (c: Client) => (await c.ok<{ id: number }>('/api/auth/me')).id;
  const commission = async () => {
    const rows = await ok<CommissionRow[]>('query/sales/commission', { month: thisMonth() });
    return (id: number) => rows.find((r) => r.staffId === id);
  };
  const payments = (memberCardId: number) =>
    db().selectFrom('cardPayment').selectAll().where('memberCardId', '=', memberCardId).orderBy('id').execute();
  const sell = (c: Client, mid: number, body: Record<string, unknown> = {}) =>
    c.call(`${STORE}/insert/member/card`, {
      mid,
      cardId: product.id,
      totalCount: 10,
      expireTime: null,
      payment: { amount: 100000, method: 'wechat', remark: null },
      ...body,
    });

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], e.client);
    product = await e.factory.cardProduct({ cardName: '季卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    money = await e.factory.cardProduct({ cardName: '储值卡', bigType: 2, perCount: 5000 });
    const d = await staffClient(e, 'desk');
    desk = { id: await staffIdOf(d), client: d };
    const t = await e.factory.teacher({ name: '陈教练' });
    const c = await staffClient(e, 'teacher', t.id);
    coach = { id: await staffIdOf(c), client: c };
    await ok('update/sales/commission/rate', { staffId: coach.id, rate: 10 });
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  it('the desk names the coach as 销售员 of a sale, a top-up and a 扫码收款: the commission counts the coach', async () => {
    const e = env();
    const before = await commission();
    const coachBefore = before(coach.id)?.sales ?? 0;
    const deskBefore = before(desk.id)?.sales ?? 0;
    // 发卡 by the desk, sold by the coach.
    const m1 = await e.factory.member({ name: '教练的学员' });
    const sold = await sell(desk.client, m1.id, { sellerId: coach.id });
    expect(sold.code, sold.msg).toBe(0);
    const cardId = (sold.data as { id: number }).id;
    // 充值 of a money card by the desk, sold by the coach.
    const m2 = await e.factory.member({ name: '充值学员' });
    const mc = await e.factory.memberCard(m2.id, money.id, { totalCount: 10000 });
    await desk.client.ok(`${STORE}/update/member/card/topup`, {
      id: mc.id,
      amount: 30000,
      payment: { amount: 30000, method: 'cash', remark: null },
      sellerId: coach.id,
    });
    // 扫码收款 by the desk, sold by the coach, paid through the stand-in.
    const m3 = await e.factory.member({ name: '扫码学员' });
    const order = await desk.client.ok<{ orderNo: string }>(createPayOrder.path, {
      mid: m3.id,
      productId: product.id,
      method: 'wechat_native',
      sellerId: coach.id,
    });
    await online.wx.pay(order.orderNo, { silent: true });
    expect((await desk.client.ok(queryPayOrder.path, { orderNo: order.orderNo })).status).toBe('paid');
    // A sale naming nobody: the desk who took it sold it.
    const m4 = await e.factory.member({ name: '前台自己卖' });
    expect((await sell(desk.client, m4.id)).code).toBe(0);

    const of = await commission();
    expect(of(coach.id)?.sales).toBe(coachBefore + 100000 + 30000 + 9900);
    expect(of(coach.id)?.items.map((i) => i.memberName)).toEqual(
      expect.arrayContaining(['教练的学员', '充值学员', '扫码学员']),
    );
    expect(of(desk.id)?.sales).toBe(deskBefore + 100000);
    expect(of(desk.id)?.items.map((i) => i.memberName)).not.toContain('教练的学员');
    // The record keeps both: who took the money and who sold it.
    expect((await payments(cardId))[0]).toMatchObject({ staffId: desk.id, sellerId: coach.id });
    const orderRow = await db()
      .selectFrom('payOrder')
      .selectAll()
      .where('orderNo', '=', order.orderNo)
      .executeTakeFirstOrThrow();
    expect([orderRow.staffId, orderRow.sellerId]).toEqual([desk.id, coach.id]);
    // The audit entry of the sale names the seller.
    const entry = await db()
      .selectFrom('auditLog')
      .select('summary')
      .where('storeId', '=', e.storeId)
      .where('summary', 'like', '开卡 季卡%')
      .where('staffId', '=', desk.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(entry.summary).toContain('销售员 teacher员工');
  });

  it('refuses a 销售员 who is not staff of this store (404) or whose post is disabled (400), writing nothing', async () => {
    const e = env();
    const m = await e.factory.member({ name: '没卖成' });
    const cardsBefore = await db().selectFrom('memberCard').select('id').where('memberId', '=', m.id).execute();
    const foreign = await sell(desk.client, m.id, { sellerId: e.other.staffId });
    expect([foreign.status, foreign.msg]).toEqual([404, Msg.notFound('销售员')]);
    const unknown = await sell(desk.client, m.id, { sellerId: 99_999_999 });
    expect([unknown.status, unknown.msg]).toEqual([404, Msg.notFound('销售员')]);
    const order = await desk.client.call(createPayOrder.path, {
      mid: m.id,
      productId: product.id,
      method: 'wechat_native',
      sellerId: e.other.staffId,
    });
    expect([order.status, order.msg]).toEqual([404, Msg.notFound('销售员')]);
    const gone = await staffClient(e, 'desk');
    const goneId = await staffIdOf(gone);
    await db().updateTable('post').set({ enabled: 0 }).where('staffId', '=', goneId).execute();
    // The desk's choice lists the store's enabled staff: the coach, not the disabled one.
    const options = await desk.client.ok<{ id: number; name: string }[]>(`${STORE}/query/seller/list`);
    expect(options).toContainEqual({ id: coach.id, name: 'teacher员工' });
    expect(options.map((o) => o.id)).toContain(desk.id);
    expect(options.map((o) => o.id)).not.toContain(goneId);
    expect(options.map((o) => o.id)).not.toContain(e.other.staffId);
    const disabled = await sell(desk.client, m.id, { sellerId: goneId });
    expect([disabled.status, disabled.msg]).toEqual([400, SellerMsg.disabled]);
    const bad = await sell(desk.client, m.id, { sellerId: 'x' });
    expect([bad.status, bad.msg]).toEqual([400, SellerMsg.choose]);
    expect(await db().selectFrom('memberCard').select('id').where('memberId', '=', m.id).execute()).toEqual(
      cardsBefore,
    );
    expect(await db().selectFrom('payOrder').select('id').where('memberId', '=', m.id).execute()).toEqual([]);
  });

  it('a manager changes the seller of a sale later: audited, the commission and the refunds follow', async () => {
    const e = env();
    const m = await e.factory.member({ name: '改销售员' });
    const sold = await sell(desk.client, m.id, { payment: { amount: 50000, method: 'cash', remark: null } });
    const cardId = (sold.data as { id: number }).id;
    const [sale] = await payments(cardId);
    const before = await commission();
    const coachSales = before(coach.id)?.sales ?? 0;
    const deskSales = before(desk.id)!.sales;

    // Not the desk's to change (managers only), not the coach's either.
    for (const c of [desk.client, coach.client]) {
      const a = await c.call(`${STORE}/update/sale/seller`, { id: sale.id, sellerId: coach.id });
      expect([a.status, a.msg]).toEqual([403, Msg.forbiddenRole]);
    }
    const foreign = await call('update/sale/seller', { id: sale.id, sellerId: e.other.staffId });
    expect([foreign.status, foreign.msg]).toEqual([404, Msg.notFound('销售员')]);
    const unknown = await call('update/sale/seller', { id: 99_999_999, sellerId: coach.id });
    expect([unknown.status, unknown.msg]).toEqual([404, Msg.notFound('收款记录')]);

    await ok('update/sale/seller', { id: sale.id, sellerId: coach.id });
    let of = await commission();
    expect(of(coach.id)?.sales).toBe(coachSales + 50000);
    expect(of(desk.id)?.sales).toBe(deskSales - 50000);
    const entry = await db()
      .selectFrom('auditLog')
      .selectAll()
      .where('storeId', '=', e.storeId)
      .where('call', '=', `${STORE}/update/sale/seller`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.staffId).toBe(e.staffId);
    expect(entry.summary).toContain('desk员工 → teacher员工');
    expect(entry.summary).toContain('季卡');

    // The card's refund counts against the seller of its sale, now the coach.
    await ok('refund/member/card', { id: cardId, amount: 50000, method: 'cash', remark: '退卡' });
    const [, refund] = await payments(cardId);
    of = await commission();
    expect(of(coach.id)?.items.find((i) => i.id === refund.id)).toMatchObject({ kind: 'refund', amount: 50000 });
    // A refund has no seller of its own.
    const notSale = await call('update/sale/seller', { id: refund.id, sellerId: desk.id });
    expect([notSale.status, notSale.msg]).toEqual([409, SellerMsg.notSale]);

    // A closed month keeps its sellers: reopen it first.
    await db().updateTable('cardPayment').set({ createdAt: '2025-10-15 12:00:00' }).where('id', '=', sale.id).execute();
    await ok('close/sales/commission/month', { month: '2025-10' });
    const closed = await call('update/sale/seller', { id: sale.id, sellerId: desk.id });
    expect([closed.status, closed.msg]).toEqual([409, SellerMsg.monthClosed('2025-10')]);
    expect((await payments(cardId))[0].sellerId).toBe(coach.id);
    await ok('reopen/sales/commission/month', { month: '2025-10', reason: '改销售员' });
    await ok('update/sale/seller', { id: sale.id, sellerId: desk.id });
    expect((await payments(cardId))[0].sellerId).toBe(desk.id);
  });
});
