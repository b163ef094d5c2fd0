// 推广链接 (issue 30, item 4) on SQLite and PostgreSQL: a staff member's own link to the members' page;
// a member who came through it and buys online counts as that seller's sale in 销售提成; an unknown
// code buys all the same with no seller; the manager makes links and reads anyone's, the desk and a
// teacher read only their own.
import {
  createSellerLink,
  memberCreateOrder,
  querySellerLink,
  SellerLinkMsg,
  type CommissionRow,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { Client, describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { startOnlineStore, type OnlineStore } from '../../../test/payment-stand-ins.ts';

describeEachDb('推广链接: a seller’s own link counts online sales for them', (env) => {
  let online: OnlineStore;
  let product: { id: number };
  let desk: Client;
  let deskId: number;
  const api = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(() => [e.app], api());
    product = await e.factory.cardProduct({ cardName: '推广次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    desk = await staffClient(e, 'desk');
    deskId = ((await desk.ok('/api/auth/me')) as { id: number }).id;
  }, 60_000);
  afterAll(async () => {
    await online?.close();
  });

  /** A member who opened `seller`'s link buys the card through Alipay's QR and pays. */
  const buyThrough = async (seller: string | undefined) => {
    const me = await memberClient(env(), await env().factory.member());
    const a = await me.call(memberCreateOrder.path, { productId: product.id, method: 'alipay_precreate', seller });
    expect(a.code, a.msg).toBe(0);
    const { orderNo } = a.data as { orderNo: string };
    online.ali.scan(orderNo);
    await online.ali.pay(orderNo);
    return db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  };

  it('made once by the manager (one audit entry), the same ever after; the desk and a teacher read only their own', async () => {
    expect(await desk.ok(querySellerLink.path, {})).toEqual({ staffId: deskId, code: null, url: null });
    // The desk cannot make a link (its own or another's): the manager makes it from 销售提成.
    expect((await desk.call(createSellerLink.path, {})).status).toBe(403);
    expect((await desk.call(createSellerLink.path, { staffId: deskId })).status).toBe(403);
    const mine = await api().ok<{ staffId: number; code: string; url: string }>(createSellerLink.path, {
      staffId: deskId,
    });
    expect(mine.staffId).toBe(deskId);
    expect(mine.code).toMatch(/^[a-z0-9]{8}$/);
    expect(mine.url).toBe(`${online.gateway.base}/m/?store=${env().storeId}&seller=${mine.code}`);
    const again = await api().call(createSellerLink.path, { staffId: deskId });
    expect([again.status, again.msg]).toEqual([409, SellerLinkMsg.made]);
    expect(await desk.ok(querySellerLink.path, {})).toEqual(mine);
    // The manager's own link made too: the desk asking for it by id still reads only its own.
    const boss = await api().ok<{ staffId: number; code: string }>(createSellerLink.path, {});
    expect(boss.staffId).toBe(env().staffId);
    expect(boss.code).not.toBe(mine.code);
    expect(await desk.ok(querySellerLink.path, { staffId: env().staffId })).toEqual(mine);
    expect(await api().ok(querySellerLink.path, { staffId: deskId })).toEqual(mine);
    // A teacher account reads its own (none yet), never the desk's.
    const teacher = await staffClient(env(), 'teacher', (await env().factory.teacher()).id);
    const teacherId = ((await teacher.ok('/api/auth/me')) as { id: number }).id;
    expect(await teacher.ok(querySellerLink.path, { staffId: deskId })).toEqual({
      staffId: teacherId,
      code: null,
      url: null,
    });
    expect((await teacher.call(createSellerLink.path, {})).status).toBe(403);
    const entries = await db()
      .selectFrom('auditLog')
      .select('summary')
      .where('call', '=', createSellerLink.path)
      .execute();
    expect(entries.map((x) => x.summary)).toEqual(['生成推广链接', '生成推广链接']);
    expect((await api().call(querySellerLink.path, { staffId: 999_999 })).status).toBe(404);
  });

  it('an order through the link names the seller and counts in their commission; an unknown code names nobody', async () => {
    const { code } = await desk.ok<{ code: string }>(querySellerLink.path, {});
    await api().ok('/store/api/update/sales/commission/rate', { staffId: deskId, rate: 10 });
    const through = await buyThrough(code);
    expect([through.status, through.sellerId]).toEqual([1, deskId]);
    const unknown = await buyThrough('zzzzzzzz');
    expect([unknown.status, unknown.sellerId]).toEqual([1, null]);
    const own = await buyThrough(undefined);
    expect(own.sellerId).toBeNull();
    const rows = await api().ok<CommissionRow[]>('/store/api/query/sales/commission', {
      month: localDateTime('Asia/Shanghai').slice(0, 7),
    });
    const seller = rows.find((r) => r.staffId === deskId)!;
    expect(seller).toMatchObject({ sales: 9900, refunds: 0, rate: 10, commission: 990 });
    expect(seller.items.map((i) => [i.kind, i.amount, i.channel])).toEqual([['sale', 9900, 'online']]);
    // Its refund counts against the seller too.
    await api().ok('/store/api/refund/pay/order', { orderNo: through.orderNo, amount: 9900, reason: '会员搬家' });
    const after = await api().ok<CommissionRow[]>('/store/api/query/sales/commission', {
      month: localDateTime('Asia/Shanghai').slice(0, 7),
    });
    expect(after.find((r) => r.staffId === deskId)).toMatchObject({ sales: 9900, refunds: 9900, commission: 0 });
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });
});
