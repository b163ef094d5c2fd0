// The desk's 扫码收款 and the store's 线上订单, against the WeChat Pay and Alipay stand-ins, on SQLite
// and PostgreSQL: the desk creates an order for a member, the stand-in pays it, the desk's query shows
// it paid with the card issued once; the list filters by date and status; who may call what.
import { BIG_TYPE_MONEY, createPayOrder, Msg, PayMsg, queryPayOrder, queryPayOrderList } from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Client, describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import {
  startOnlineStore,
  type OnlineStore,
  type AlipayStandIn,
  type WechatPayStandIn,
} from '../../../test/payment-stand-ins.ts';

describeEachDb('the desk 扫码收款 and the store 线上订单', (env) => {
  let wx: WechatPayStandIn;
  let ali: AlipayStandIn;
  let online: OnlineStore;
  let desk: Client;
  let teacher: Client;
  let product: { id: number };
  let member: { id: number; name: string };
  const api = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], api());
    ({ wx, ali } = online);
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    member = await e.factory.member();
    desk = await staffClient(e, 'desk');
    const t = await e.factory.teacher();
    teacher = await staffClient(e, 'teacher', t.id);
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  const cardsOf = (memberId: number) =>
    db().selectFrom('memberCard').selectAll().where('memberId', '=', memberId).orderBy('id').execute();
  const deskStaffId = async () => {
    const row = await db()
      .selectFrom('auditLog')
      .select('staffId')
      .where('call', '=', createPayOrder.path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.staffId;
  };
  const create = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(createPayOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string; codeUrl: string; amount: number; expireTime: string };
  };

  it('WeChat Native: the desk shows the code_url, the member pays, the desk query issues the card once', async () => {
    const o = await create(desk, { mid: member.id, productId: product.id, method: 'wechat_native' });
    expect(o).toMatchObject({ amount: 9900, codeUrl: wx.payPageUrl(o.orderNo) });
    const row = await order(o.orderNo);
    expect(row).toMatchObject({ memberId: member.id, status: 0, method: 'wechat_native', amount: 9900 });
    // The order records who took it: the desk member of the entry of the call.
    expect(row.staffId).not.toBeNull();
    expect(row.staffId).toBe(await deskStaffId());
    expect((await desk.ok(queryPayOrder.path, { orderNo: o.orderNo })).status).toBe('created');

    // The member pays; the notification is lost (silent): the desk's next query finds it paid.
    await wx.pay(o.orderNo, { silent: true });
    const paid = await desk.ok(queryPayOrder.path, { orderNo: o.orderNo });
    expect(paid).toMatchObject({ status: 'paid', amount: 9900, method: 'wechat_native', name: '10次卡' });
    const cards = (await cardsOf(member.id)).filter((c) => c.cardId === product.id);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ id: paid.memberCardId, totalCount: 10 });
    // Asked again, and notified late: still one card, one payment.
    expect((await desk.ok(queryPayOrder.path, { orderNo: o.orderNo })).memberCardId).toBe(paid.memberCardId);
    await wx.notify(o.orderNo);
    expect((await cardsOf(member.id)).filter((c) => c.cardId === product.id)).toHaveLength(1);
    const pays = await db().selectFrom('cardPayment').selectAll().where('payOrderId', '=', row.id).execute();
    expect(pays.map((p) => [p.kind, p.channel, p.method, Number(p.amount)])).toEqual([
      ['sale', 'online', 'wechat', 9900],
    ]);
    // Entries: the order by the desk member, the card by the desk member's query.
    const entries = await db()
      .selectFrom('auditLog')
      .select(['call', 'actorKind', 'kind', 'summary'])
      .where('target', 'like', `%${o.orderNo}%`)
      .orderBy('id')
      .execute();
    expect(entries.map((x) => [x.call, x.actorKind, x.kind])).toEqual([
      [createPayOrder.path, 'staff', 'card'],
      [queryPayOrder.path, 'staff', 'card'],
    ]);
    expect(entries[0].summary).toContain('前台扫码收款');
  });

  it('Alipay precreate: the QR is scanned and paid, the desk query issues the card; a top-up too', async () => {
    const before = (await cardsOf(member.id)).length;
    const o = await create(desk, { mid: member.id, productId: product.id, method: 'alipay_precreate' });
    expect(o.codeUrl).toBeTruthy();
    ali.scan(o.orderNo);
    await ali.pay(o.orderNo, { silent: true });
    const paid = await desk.ok(queryPayOrder.path, { orderNo: o.orderNo });
    expect(paid).toMatchObject({ status: 'paid', method: 'alipay_precreate' });
    expect(await cardsOf(member.id)).toHaveLength(before + 1);
    const pays = await db()
      .selectFrom('cardPayment')
      .select(['channel', 'method'])
      .where('payOrderId', '=', (await order(o.orderNo)).id)
      .execute();
    expect(pays).toEqual([{ channel: 'online', method: 'alipay' }]);

    // A top-up of the member's money card by any amount (the desk's, as at the counter).
    const money = await env().factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
    const card = await env().factory.memberCard(member.id, money.id, { totalCount: 10000 });
    const t = await create(desk, { mid: member.id, mcId: card.id, amount: 12345, method: 'wechat_native' });
    await wx.pay(t.orderNo);
    expect(await desk.ok(queryPayOrder.path, { orderNo: t.orderNo })).toMatchObject({
      status: 'paid',
      kind: 'topup',
      memberCardId: card.id,
    });
    const after = await db()
      .selectFrom('memberCard')
      .select('totalCount')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(after.totalCount).toBe(22345);
  });

  it('refuses what cannot be sold, in Chinese, never a 500', async () => {
    const other = await env().factory.member();
    const money = await env().factory.cardProduct({ cardName: '储值卡2', bigType: BIG_TYPE_MONEY, perCount: 5000 });
    const theirs = await env().factory.memberCard(other.id, money.id);
    const offline = await env().factory.cardProduct({ cardName: '线下卡', totalCount: 5 });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ mid: member.id, method: 'wechat_native' }, 400, PayMsg.productOrTopup],
      [{ mid: member.id, productId: product.id, method: 'wechat_jsapi' }, 400, PayMsg.deskMethod],
      [{ mid: member.id, mcId: theirs.id, amount: 100, method: 'wechat_native' }, 404, Msg.notFound('会员卡')],
      [{ mid: member.id, mcId: theirs.id, amount: 0, method: 'wechat_native' }, 400, PayMsg.deskAmount],
      [{ mid: 99999999, productId: product.id, method: 'wechat_native' }, 404, Msg.notFound('会员')],
      [{ mid: member.id, productId: 99999999, method: 'wechat_native' }, 404, Msg.notFound('卡种')],
      [{ mid: member.id, productId: offline.id, method: 'wechat_native' }, 409, PayMsg.notOnSale],
    ];
    for (const [body, status, msg] of cases) {
      expect({ body, ...(await desk.call(createPayOrder.path, body)) }).toMatchObject({ body, status, msg });
    }
    expect(await desk.call(queryPayOrder.path, { orderNo: 'P-none' })).toMatchObject({
      status: 404,
      msg: Msg.notFound('订单'),
    });
    expect(
      await api().call(queryPayOrderList.path, { fromDate: '2026-02-01', toDate: '2026-01-01', page: 1 }),
    ).toMatchObject({ status: 400, msg: Msg.rangeOrder });
    expect(
      await api().call(queryPayOrderList.path, { fromDate: '2026-01-01', toDate: '2026-01-31', status: 'x' }),
    ).toMatchObject({ status: 400, msg: PayMsg.status });
  });

  it('线上订单: filtered by the day it was made and by status, newest first, with the member and the desk', async () => {
    const m = await env().factory.member();
    const a = await create(desk, { mid: m.id, productId: product.id, method: 'wechat_native' });
    const b = await create(desk, { mid: m.id, productId: product.id, method: 'wechat_native' });
    const c = await create(api(), { mid: m.id, productId: product.id, method: 'alipay_precreate' });
    await wx.pay(b.orderNo, { silent: true });
    await desk.ok(queryPayOrder.path, { orderNo: b.orderNo });
    // Move them to known days (orders made earlier).
    const moveTo = (orderNo: string, at: string) =>
      db().updateTable('payOrder').set({ createdAt: at }).where('orderNo', '=', orderNo).execute();
    await moveTo(a.orderNo, '2025-03-01 09:00:00');
    await moveTo(b.orderNo, '2025-03-02 23:59:59');
    await moveTo(c.orderNo, '2025-03-03 00:00:00');
    const list = (q: Record<string, unknown>) => api().ok(queryPayOrderList.path, { page: 1, ...q });

    const all = await list({ fromDate: '2025-03-01', toDate: '2025-03-03' });
    expect(all.total).toBe(3);
    expect(all.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([c.orderNo, b.orderNo, a.orderNo]);
    expect(all.list[1]).toMatchObject({
      status: 'paid',
      memberId: m.id,
      memberName: m.name,
      staffName: 'desk员工',
      amount: 9900,
    });
    expect(all.list[0].staffName).not.toBe('desk员工');

    const twoDays = await list({ fromDate: '2025-03-01', toDate: '2025-03-02' });
    expect(twoDays.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([b.orderNo, a.orderNo]);
    const paid = await list({ fromDate: '2025-03-01', toDate: '2025-03-03', status: 'paid' });
    expect(paid).toMatchObject({ total: 1, list: [{ orderNo: b.orderNo }] });
    const open = await list({ fromDate: '2025-03-01', toDate: '2025-03-03', status: 'created' });
    expect(open.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([c.orderNo, a.orderNo]);
    expect(await list({ fromDate: '2025-03-04', toDate: '2025-03-31' })).toEqual({ list: [], total: 0 });
    // Paged 20 a page.
    expect((await list({ fromDate: '2025-03-01', toDate: '2025-03-03', page: 2 })).list).toEqual([]);
  });

  it('the desk may create and query; a teacher may not (403); the list is the manager’s', async () => {
    const o = await create(desk, { mid: member.id, productId: product.id, method: 'wechat_native' });
    expect((await desk.call(queryPayOrder.path, { orderNo: o.orderNo })).code).toBe(0);
    const body = { mid: member.id, productId: product.id, method: 'wechat_native' };
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('payOrder')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await teacher.call(createPayOrder.path, body)).toMatchObject({ status: 403 });
    expect(await count()).toBe(before);
    expect(await teacher.call(queryPayOrder.path, { orderNo: o.orderNo })).toMatchObject({ status: 403 });
    const range = { fromDate: '2025-03-01', toDate: '2025-03-03', page: 1 };
    expect(await desk.call(queryPayOrderList.path, range)).toMatchObject({ status: 403 });
    expect(await teacher.call(queryPayOrderList.path, range)).toMatchObject({ status: 403 });
  });
});
