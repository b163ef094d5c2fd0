// Online payment against the WeChat Pay and Alipay stand-ins, on SQLite and PostgreSQL: settings,
// products on sale, orders for each method, fulfilment exactly once (duplicate notifications over
// three instances, a notification racing the member's 我已支付), refused notifications that write
// nothing, the 15-minute close and the once-only 体验卡.
import {
  queryCardContract,
  BIG_TYPE_MONEY,
  cardProductList,
  insertCardProduct,
  memberBindWechat,
  memberWechatState,
  NotifyMsg,
  memberCreateOrder,
  memberQueryOrder,
  memberQueryOrders,
  memberQueryProducts,
  Msg,
  PayMsg,
  queryPayConnection,
  queryPaySetting,
  updateNotifySetting,
  updatePaySetting,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { Client, describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import {
  startOnlineStore,
  type OnlineStore,
  type AlipayStandIn,
  type WechatPayStandIn,
} from '../../../test/payment-stand-ins.ts';
import { closeExpiredOrders } from './orders.ts';

describeEachDb('online payment: settings, orders and fulfilment exactly once', (env) => {
  let wx: WechatPayStandIn;
  let ali: AlipayStandIn;
  let online: OnlineStore;
  let product: { id: number };
  let member: { id: number; mobile: string; name: string };
  let me: Client;
  const api = () => env().client;
  const db = () => env().database.db;

  // Three instances over one PostgreSQL schema (SQLite has one writer process: one instance).
  const instances = moreInstances(env, 2);
  const apps = () => instances.apps;

  beforeAll(async () => {
    const e = env();
    online = await startOnlineStore(apps, api());
    ({ wx, ali } = online);
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
    member = await e.factory.member();
    me = await memberClient(e, member);
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
  const onlinePayments = (orderId: number) =>
    db().selectFrom('cardPayment').selectAll().where('payOrderId', '=', orderId).execute();
  /** A state of WeChat's authorisation given to this member's session (the code counts only with it). */
  const stateOf = async (client: Client) => (await client.ok(memberWechatState.path, {})).state;
  const buy = async (client: Client, body: Record<string, unknown>) => {
    const a = await client.call(memberCreateOrder.path, body);
    expect(a.code, a.msg).toBe(0);
    return a.data as { orderNo: string; codeUrl: string | null; payUrl: string | null; pay: unknown; amount: number };
  };
  /** What a refused notification must leave alone: the order, the member's cards, payments and log. */
  const footprint = async (orderNo: string, memberId: number) => ({
    order: await order(orderNo),
    cards: await cardsOf(memberId),
    payments: await db().selectFrom('cardPayment').select('id').where('channel', '=', 'online').execute(),
    audit: await db()
      .selectFrom('auditLog')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n)),
  });

  it('keeps the secrets server-side (answered as 已设置 only) and checks addresses and keys', async () => {
    const s = await api().call(queryPaySetting.path, {});
    expect(s.data.wechat).toMatchObject({
      enabled: true,
      mchId: wx.config().mchid,
      secretsSet: true,
      secrets: { apiV3Key: true, privateKey: true, platformPublicKey: true, appSecret: true },
    });
    expect(s.data.alipay).toMatchObject({ enabled: true, secretsSet: true, sellerId: ali.config().sellerId });
    const text = JSON.stringify(s);
    expect(text).not.toContain(wx.config().apiV3Key);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(ali.config().appPrivateKey.slice(40, 80));
    // Secrets omitted are kept; a blocked address, a short APIv3 key and a broken key are 400s.
    expect(await api().call(updatePaySetting.path, { wechat: { baseUrl: 'http://10.0.0.7' } })).toMatchObject({
      status: 400,
      msg: Msg.outboundBlocked,
    });
    expect(await api().call(updatePaySetting.path, { wechat: { apiV3Key: 'short' } })).toMatchObject({
      status: 400,
      msg: PayMsg.apiV3Key,
    });
    expect(
      await api().call(updatePaySetting.path, { alipay: { alipayPublicKey: '-----BEGIN PUBLIC KEY-----\nxx' } }),
    ).toMatchObject({ status: 400, msg: PayMsg.alipayPublicKey });
    expect((await api().call(queryPaySetting.path, {})).data.wechat.secretsSet).toBe(true);
    // A desk member sees none of it.
    const entries = await db()
      .selectFrom('auditLog')
      .select(['afterJson'])
      .where('call', '=', updatePaySetting.path)
      .execute();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.afterJson ?? '').not.toContain('PRIVATE KEY');
  });

  it('测试连接: a signed "no such order" from each provider says the keys work', async () => {
    expect(await api().ok(queryPayConnection.path, { provider: 'wechat' })).toEqual({
      ok: true,
      message: PayMsg.connectionKeys('微信支付', `微信支付公钥（微信支付公钥 ${wx.config().publicKey.id}）`),
    });
    expect(await api().ok(queryPayConnection.path, { provider: 'alipay' })).toEqual({
      ok: true,
      message: PayMsg.connectionOk('支付宝'),
    });
    wx.control.forgeAnswers = true;
    try {
      const bad = await api().ok(queryPayConnection.path, { provider: 'wechat' });
      expect(bad.ok).toBe(false);
      expect(bad.message).toContain('微信支付连接失败');
    } finally {
      wx.control.forgeAnswers = false;
    }
  });

  it('card products carry 线上售卖, the online price and 体验卡; members list those on sale', async () => {
    const c = await env().factory.course();
    const { id } = await api().ok(insertCardProduct.path, {
      cardName: '月卡',
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 30000,
      totalCount: 30,
      validDays: 30,
      courseIds: [c.id],
      onlineSale: 1,
      onlinePrice: 29900,
    });
    const offline = await api().ok(insertCardProduct.path, {
      cardName: '线下卡',
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 100,
      totalCount: 5,
      courseIds: [],
    });
    const list = await api().ok(cardProductList.path, {});
    expect(list.find((p: { id: number }) => p.id === id)).toMatchObject({
      onlineSale: 1,
      onlinePrice: 29900,
      trial: 0,
    });
    expect(list.find((p: { id: number }) => p.id === offline.id)).toMatchObject({ onlineSale: 0, onlinePrice: 0 });
    const onSale = await me.ok(memberQueryProducts.path, {});
    expect(onSale.list.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([product.id, id]));
    expect(onSale.list.map((p: { id: number }) => p.id)).not.toContain(offline.id);
    expect(onSale).toMatchObject({ topupAmounts: [50000, 100000], wechat: true, alipay: true });
    expect(onSale.list.find((p: { id: number }) => p.id === id)).toMatchObject({ price: 29900, name: '月卡' });
    expect(await me.call(memberCreateOrder.path, { productId: offline.id, method: 'wechat_native' })).toMatchObject({
      status: 409,
      msg: PayMsg.notOnSale,
    });
  });

  it('WeChat Native: the code_url is paid, the notification issues the card, recorded 线上', async () => {
    const o = await buy(me, { productId: product.id, method: 'wechat_native' });
    expect(o.codeUrl).toBe(wx.payPageUrl(o.orderNo));
    expect((await me.ok(memberQueryOrder.path, { orderNo: o.orderNo })).status).toBe('created');
    const sent = await wx.pay(o.orderNo);
    expect(sent.map((d) => d.status)).toEqual([204]);
    const paid = await me.ok(memberQueryOrder.path, { orderNo: o.orderNo });
    expect(paid).toMatchObject({ status: 'paid', amount: 9900, method: 'wechat_native', name: '10次卡' });
    const card = (await cardsOf(member.id)).find((c) => c.id === paid.memberCardId);
    expect(card).toMatchObject({ cardId: product.id, totalCount: 10, usedCount: 0 });
    // an online sale has its contract too, at the amount paid online
    const contract = await env().client.ok(queryCardContract.path, { mcId: paid.memberCardId });
    expect(contract.text).toContain('实付99.00 元');
    const pays = await onlinePayments((await order(o.orderNo)).id);
    expect(pays.map((p) => [p.kind, p.channel, p.method, Number(p.amount)])).toEqual([
      ['sale', 'online', 'wechat', 9900],
    ]);
    const log = await db()
      .selectFrom('auditLog')
      .selectAll()
      .where('call', '=', '/pay/notify/wechat')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([log.kind, log.actorKind, log.storeId]).toEqual(['card', 'system', env().storeId]);
    const listed = await me.ok(memberQueryOrders.path, { page: 1 });
    expect(listed.list[0]).toMatchObject({ orderNo: o.orderNo, status: 'paid' });
  });

  it("WeChat JSAPI with a code: only with a state given to this member's session, once; a made-up, another member's, expired or used state pays and binds nothing (400 微信授权已失效)", async () => {
    const other = await env().factory.member();
    const phone = await memberClient(env(), other);
    const someone = await memberClient(env(), await env().factory.member());
    const ordersBefore = await db().selectFrom('payOrder').select('orderNo').execute();
    const jsapi = (state: string | undefined) =>
      phone.call(memberCreateOrder.path, {
        productId: product.id,
        method: 'wechat_jsapi',
        wxCode: wx.oauthCode('o-stranger'),
        ...(state === undefined ? {} : { wxState: state }),
      });
    const refused = { status: 400, msg: NotifyMsg.stateExpired };
    expect(await jsapi(undefined)).toMatchObject(refused);
    expect(await jsapi('pay')).toMatchObject(refused);
    expect(await jsapi(await stateOf(someone))).toMatchObject(refused);
    const aged = await stateOf(phone);
    await db()
      .updateTable('wechatOauthState')
      .set({ expiresAt: Date.now() - 1 })
      .where('state', '=', aged)
      .execute();
    expect(await jsapi(aged)).toMatchObject(refused);
    expect(await db().selectFrom('payOrder').select('orderNo').execute()).toEqual(ordersBefore);
    const bound = await db()
      .selectFrom('member')
      .select('wechatOpenid')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(bound.wechatOpenid).toBeNull();
    const right = await stateOf(phone);
    const paid = await buy(phone, {
      productId: product.id,
      method: 'wechat_jsapi',
      wxCode: wx.oauthCode('o-other-1'),
      wxState: right,
    });
    expect(wx.orders.get(paid.orderNo)?.openid).toBe('o-other-1');
    expect(await jsapi(right)).toMatchObject(refused);
  });

  it("WeChat JSAPI: the member's openid from snsapi_base, signed pay parameters, then the card", async () => {
    expect(await me.call(memberCreateOrder.path, { productId: product.id, method: 'wechat_jsapi' })).toMatchObject({
      status: 400,
      msg: PayMsg.openidNeeded,
    });
    const o = await buy(me, {
      productId: product.id,
      method: 'wechat_jsapi',
      wxCode: wx.oauthCode('o-member-1'),
      wxState: await stateOf(me),
    });
    expect(o.pay).toMatchObject({
      appId: wx.config().appid,
      signType: 'RSA',
      package: expect.stringMatching(/^prepay_id=/),
    });
    expect(wx.orders.get(o.orderNo)?.openid).toBe('o-member-1');
    await wx.pay(o.orderNo);
    expect((await me.ok(memberQueryOrder.path, { orderNo: o.orderNo })).status).toBe('paid');
  });

  it("WeChat JSAPI with the member's bound openid (one binding, the reminders'): no new code; else the code's openid is bound", async () => {
    const openidOf = async (memberId: number) =>
      (await db().selectFrom('member').select('wechatOpenid').where('id', '=', memberId).executeTakeFirstOrThrow())
        .wechatOpenid;
    const serviceAccount = (appId: string) => ({
      classReminderHours: 2,
      quietFrom: '22:00',
      quietTo: '08:00',
      wechat: { appId, appSecret: wx.config().appSecret, baseUrl: wx.base, templates: [] },
      sms: { templates: [] },
    });
    // The store's service account (reminders) is the app WeChat Pay's JSAPI runs under.
    await api().ok(updateNotifySetting.path, serviceAccount(wx.config().appid));
    try {
      // Bound through the reminders' 绑定微信: a JSAPI order uses it, with no new code.
      const m = await env().factory.member();
      const client = await memberClient(env(), m);
      expect((await client.ok(memberQueryProducts.path, {})).wechatPayBound).toBe(false);
      expect(
        await client.ok(memberBindWechat.path, { code: wx.oauthCode('o-bound-1'), state: await stateOf(client) }),
      ).toEqual({ bound: true });
      expect((await client.ok(memberQueryProducts.path, {})).wechatPayBound).toBe(true);
      const o = await buy(client, { productId: product.id, method: 'wechat_jsapi' });
      expect(o.pay).toMatchObject({ appId: wx.config().appid, package: expect.stringMatching(/^prepay_id=/) });
      expect(wx.orders.get(o.orderNo)?.openid).toBe('o-bound-1');
      await wx.pay(o.orderNo);
      expect((await client.ok(memberQueryOrder.path, { orderNo: o.orderNo })).status).toBe('paid');

      // Not bound: the code is needed; its openid is then bound to the member (the same column), once.
      const n = await env().factory.member();
      const other = await memberClient(env(), n);
      expect(await other.call(memberCreateOrder.path, { productId: product.id, method: 'wechat_jsapi' })).toMatchObject(
        { status: 400, msg: PayMsg.openidNeeded },
      );
      const first = await buy(other, {
        productId: product.id,
        method: 'wechat_jsapi',
        wxCode: wx.oauthCode('o-new-2'),
        wxState: await stateOf(other),
      });
      expect(wx.orders.get(first.orderNo)?.openid).toBe('o-new-2');
      expect(await openidOf(n.id)).toBe('o-new-2');
      const entry = await db()
        .selectFrom('auditLog')
        .select('summary')
        .where('target', '=', `订单 ${first.orderNo}`)
        .executeTakeFirstOrThrow();
      expect(entry.summary).toContain('绑定微信');
      expect((await other.ok(memberQueryProducts.path, {})).wechatPayBound).toBe(true);
      const second = await buy(other, { productId: product.id, method: 'wechat_jsapi' });
      expect(wx.orders.get(second.orderNo)?.openid).toBe('o-new-2');
      // A code again (another WeChat user in the browser) pays as that user but does not move the binding.
      const third = await buy(other, {
        productId: product.id,
        method: 'wechat_jsapi',
        wxCode: wx.oauthCode('o-3'),
        wxState: await stateOf(other),
      });
      expect(wx.orders.get(third.orderNo)?.openid).toBe('o-3');
      expect(await openidOf(n.id)).toBe('o-new-2');

      // The service account is another app: its openid means nothing to WeChat Pay's app, so a code is needed
      // again, and the code's openid (WeChat Pay's app) is not bound over the service account's.
      await api().ok(updateNotifySetting.path, serviceAccount('wx0000000000000001'));
      expect((await client.ok(memberQueryProducts.path, {})).wechatPayBound).toBe(false);
      expect(
        await client.call(memberCreateOrder.path, { productId: product.id, method: 'wechat_jsapi' }),
      ).toMatchObject({ status: 400, msg: PayMsg.openidNeeded });
      const coded = await buy(client, {
        productId: product.id,
        method: 'wechat_jsapi',
        wxCode: wx.oauthCode('o-4'),
        wxState: await stateOf(client),
      });
      expect(wx.orders.get(coded.orderNo)?.openid).toBe('o-4');
      expect(await openidOf(m.id)).toBe('o-bound-1');
    } finally {
      await api().ok(updateNotifySetting.path, {
        ...serviceAccount(''),
        wechat: { appId: '', baseUrl: '', templates: [] },
      });
    }
  });

  it('Alipay WAP and precreate: the gateway page / QR is paid, the notification (success) issues the card', async () => {
    const wap = await buy(me, { productId: product.id, method: 'alipay_wap', returnUrl: 'https://studio.example/m/' });
    expect(wap.payUrl?.startsWith(ali.config().gateway)).toBe(true);
    const page = await fetch(wap.payUrl!, { method: 'POST' });
    expect(await page.text()).toContain('支付成功');
    expect(ali.deliveries.filter((d) => d.outTradeNo === wap.orderNo).map((d) => d.body)).toEqual(['success']);
    expect((await me.ok(memberQueryOrder.path, { orderNo: wap.orderNo })).status).toBe('paid');

    const qr = await buy(me, { productId: product.id, method: 'alipay_precreate' });
    expect(qr.codeUrl).toBeTruthy();
    ali.scan(qr.orderNo);
    await ali.pay(qr.orderNo);
    const paid = await me.ok(memberQueryOrder.path, { orderNo: qr.orderNo });
    expect(paid.status).toBe('paid');
    const pays = await onlinePayments((await order(qr.orderNo)).id);
    expect(pays.map((p) => [p.channel, p.method])).toEqual([['online', 'alipay']]);
  });

  it('top-ups: a money card of the member, by an amount the manager lists', async () => {
    const money = await env().factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
    const card = await env().factory.memberCard(member.id, money.id, { totalCount: 10000 });
    expect(
      await me.call(memberCreateOrder.path, { mcId: card.id, amount: 12345, method: 'wechat_native' }),
    ).toMatchObject({ status: 400, msg: PayMsg.topupAmount });
    const other = await env().factory.member();
    const theirs = await env().factory.memberCard(other.id, money.id);
    expect(
      (await me.call(memberCreateOrder.path, { mcId: theirs.id, amount: 50000, method: 'wechat_native' })).status,
    ).toBe(404);
    const o = await buy(me, { mcId: card.id, amount: 50000, method: 'wechat_native' });
    await wx.pay(o.orderNo);
    expect(await me.ok(memberQueryOrder.path, { orderNo: o.orderNo })).toMatchObject({
      status: 'paid',
      kind: 'topup',
      memberCardId: card.id,
    });
    const after = await db()
      .selectFrom('memberCard')
      .select('totalCount')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(after.totalCount).toBe(60000);
  });

  it('50 duplicate notifications at once (over three instances on PostgreSQL) issue exactly one card', async () => {
    const m = await env().factory.member();
    const client = await memberClient(env(), m);
    const o = await buy(client, { productId: product.id, method: 'wechat_native' });
    const sent = await wx.pay(o.orderNo, { times: 50 });
    expect(sent.map((d) => d.status)).toEqual(Array(50).fill(204));
    expect(await cardsOf(m.id)).toHaveLength(1);
    expect(await onlinePayments((await order(o.orderNo)).id)).toHaveLength(1);
    // Alipay too.
    const a = await buy(client, { productId: product.id, method: 'alipay_precreate' });
    ali.scan(a.orderNo);
    const got = await ali.pay(a.orderNo, { times: 50 });
    expect(got.map((d) => d.body)).toEqual(Array(50).fill('success'));
    expect(await cardsOf(m.id)).toHaveLength(2);
    const entries = await db()
      .selectFrom('auditLog')
      .select('id')
      .where('call', 'in', ['/pay/notify/wechat', '/pay/notify/alipay'])
      .where('target', 'in', [`订单 ${o.orderNo}（99.00 元）`, `订单 ${a.orderNo}（99.00 元）`])
      .execute();
    expect(entries).toHaveLength(2);
  });

  it('refuses a forged signature, a wrong amount, another merchant or app, a replayed old notification: nothing written', async () => {
    const m = await env().factory.member();
    const client = await memberClient(env(), m);
    const o = await buy(client, { productId: product.id, method: 'wechat_native' });
    const before = await footprint(o.orderNo, m.id);
    const refused = [
      ...(await wx.pay(o.orderNo, { forge: true })),
      ...(await wx.notify(o.orderNo, { amountFen: 1 })),
      ...(await wx.notify(o.orderNo, { merchantId: '1900009999' })),
      ...(await wx.notify(o.orderNo, { appId: 'wx0000000000000000' })),
      ...(await wx.notify(o.orderNo, { timestampOffsetSec: -600 })),
    ];
    expect(refused.map((d) => d.status)).toEqual([500, 500, 500, 500, 500]);
    expect(await footprint(o.orderNo, m.id)).toEqual(before);

    const a = await buy(client, { productId: product.id, method: 'alipay_precreate' });
    ali.scan(a.orderNo);
    const aBefore = await footprint(a.orderNo, m.id);
    const aRefused = [
      ...(await ali.pay(a.orderNo, { forge: true })),
      ...(await ali.notify(a.orderNo, { amountFen: 1 })),
      ...(await ali.notify(a.orderNo, { merchantId: '2088999999999999' })),
      ...(await ali.notify(a.orderNo, { appId: '2021999999999999' })),
    ];
    expect(aRefused.map((d) => d.body)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect(await footprint(a.orderNo, m.id)).toEqual(aBefore);

    // The genuine notification still counts, and a replay of it afterwards changes nothing.
    await wx.notify(o.orderNo);
    await ali.notify(a.orderNo);
    await ali.notify(a.orderNo);
    expect(await cardsOf(m.id)).toHaveLength(2);
  });

  it("a notification racing the member's 我已支付 query: one card", async () => {
    for (let round = 0; round < 5; round++) {
      const m = await env().factory.member();
      const client = await memberClient(env(), m);
      const o = await buy(client, { productId: product.id, method: 'wechat_native' });
      await wx.pay(o.orderNo, { silent: true });
      const [, q1, q2] = await Promise.all([
        wx.notify(o.orderNo, { times: 3 }),
        client.call(memberQueryOrder.path, { orderNo: o.orderNo }),
        client.call(memberQueryOrder.path, { orderNo: o.orderNo }),
      ]);
      expect([q1.code, q2.code]).toEqual([0, 0]);
      expect(await cardsOf(m.id)).toHaveLength(1);
      expect((await client.ok(memberQueryOrder.path, { orderNo: o.orderNo })).status).toBe('paid');
    }
  });

  it('closes unpaid orders after 15 minutes, at the provider too; one paid meanwhile is fulfilled instead', async () => {
    const m = await env().factory.member();
    const client = await memberClient(env(), m);
    const unpaid = await buy(client, { productId: product.id, method: 'wechat_native' });
    const paidSilently = await buy(client, { productId: product.id, method: 'wechat_native' });
    const never = await buy(client, { productId: product.id, method: 'alipay_precreate' });
    await wx.pay(paidSilently.orderNo, { silent: true });
    const at = (minutes: number) => (tz: string) => localDateTime(tz, Date.now() + minutes * 60_000);
    const deps = env().app.deps;
    await closeExpiredOrders(deps, at(14));
    expect((await order(unpaid.orderNo)).status).toBe(0);
    // Two instances at once: each order is settled once.
    await Promise.all([closeExpiredOrders(deps, at(16)), closeExpiredOrders(deps, at(16))]);
    expect((await order(unpaid.orderNo)).status).toBe(2);
    expect(wx.orders.get(unpaid.orderNo)?.state).toBe('CLOSED');
    expect((await order(paidSilently.orderNo)).status).toBe(1);
    expect((await order(never.orderNo)).status).toBe(2);
    expect(await cardsOf(m.id)).toHaveLength(1);
    expect((await client.ok(memberQueryOrder.path, { orderNo: unpaid.orderNo })).status).toBe('closed');
    const closes = await db()
      .selectFrom('auditLog')
      .select(['actorKind', 'kind'])
      .where('call', '=', 'job/pay-order-close')
      .execute();
    expect(closes.length).toBeGreaterThanOrEqual(3);
  });

  it('sells a 体验卡 once per member: refused before payment the second time', async () => {
    const trial = await env().factory.cardProduct({
      cardName: '体验卡',
      totalCount: 1,
      onlineSale: 1,
      onlinePrice: 990,
      trial: 1,
    });
    const m = await env().factory.member();
    const client = await memberClient(env(), m);
    const o = await buy(client, { productId: trial.id, method: 'wechat_native' });
    // While the first order is open, a second is refused too.
    expect(
      await client.call(memberCreateOrder.path, { productId: trial.id, method: 'alipay_precreate' }),
    ).toMatchObject({
      status: 409,
      msg: PayMsg.trialOnce,
    });
    await wx.pay(o.orderNo);
    expect(await client.call(memberCreateOrder.path, { productId: trial.id, method: 'wechat_native' })).toMatchObject({
      status: 409,
      msg: PayMsg.trialOnce,
    });
    expect(await cardsOf(m.id)).toHaveLength(1);
    // Another member may buy it.
    const other = await memberClient(env(), await env().factory.member());
    await buy(other, { productId: trial.id, method: 'wechat_native' });
  });

  it("answers bad input with Chinese 4xx, and another member's order as 404", async () => {
    expect(await me.call(memberCreateOrder.path, { method: 'wechat_native' })).toMatchObject({
      status: 400,
      msg: PayMsg.productOrTopup,
    });
    expect((await me.call(memberCreateOrder.path, { productId: product.id, method: 'paypal' })).status).toBe(400);
    expect((await me.call(memberCreateOrder.path, { productId: 99_999_999, method: 'wechat_native' })).status).toBe(
      404,
    );
    const other = await memberClient(env(), await env().factory.member());
    const o = await buy(other, { productId: product.id, method: 'wechat_native' });
    expect((await me.call(memberQueryOrder.path, { orderNo: o.orderNo })).status).toBe(404);
    // Notification addresses that are not ours.
    const res = await env().app.inject({ method: 'POST', url: '/pay/notify/paypal/1', payload: '{}' });
    expect(res.statusCode).toBe(404);
    const none = await env().app.inject({
      method: 'POST',
      url: `/pay/notify/wechat/${env().other.storeId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(none.statusCode).toBe(404);
  });
});
