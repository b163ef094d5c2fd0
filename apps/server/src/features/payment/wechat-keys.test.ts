// WeChat Pay merchants on the 微信支付公钥, on platform certificates, and switching from one to the other
// (issue 42, item 4), end to end through the WeChat Pay stand-in on SQLite and PostgreSQL. One merchant
// goes the way WeChat Pay's 如何从平台证书切换成微信支付公钥 describes: on certificates only, then both
// while switching (WeChat signs an answer with the key the request's Wechatpay-Serial names, a
// notification with either), then on the public key only. In each mode the settings say which, 测试连接
// proves each key in use, a payment's notification and a refund's answers verify, and every request
// names the public key in Wechatpay-Serial once there is one.
import {
  memberCreateOrder,
  PayMsg,
  queryPayConnection,
  queryPaySetting,
  refundPayOrder,
  updatePaySetting,
  WECHAT_KEY_MODE_LABEL,
  type PaySetting,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { standInPaySetting, startOnlineStore, type OnlineStore } from '../../../test/payment-stand-ins.ts';

describeEachDb('online payment: WeChat Pay on the public key, on certificates, and switching (issue 42)', (env) => {
  let online: OnlineStore;
  let product: { id: number };
  const api = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    const e = env();
    // A merchant on platform certificates only (no 微信支付公钥 yet).
    online = await startOnlineStore(() => [e.app], api(), { wechatKeys: 'certificate' });
    online.wx.control.settleRefunds = 'manual';
    product = await e.factory.cardProduct({ cardName: '10次卡', totalCount: 10, onlineSale: 1, onlinePrice: 9900 });
  }, 60_000);

  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  afterAll(async () => {
    await online?.close();
  });

  const wx = () => online.wx;
  const setting = async () => (await api().ok<PaySetting>(queryPaySetting.path, {})).wechat;
  const order = (orderNo: string) =>
    db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();

  /** A member buys the 10次卡 by WeChat QR and pays: answers the order number and the notifications' keys. */
  const buyAndPay = async () => {
    const me = await memberClient(env(), await env().factory.member());
    const a = await me.call(memberCreateOrder.path, { productId: product.id, method: 'wechat_native' });
    expect(a.code, a.msg).toBe(0);
    const orderNo = (a.data as { orderNo: string }).orderNo;
    const sent = await wx().pay(orderNo);
    expect(sent.map((d) => d.status)).toEqual([204]);
    expect((await order(orderNo)).status).toBe(1);
    return { orderNo, serial: sent[0].serial };
  };

  /** 店长 refunds the order whole; WeChat answers (PROCESSING), then notifies SUCCESS: 已退款 here. */
  const refundWhole = async (orderNo: string) => {
    await api().ok(refundPayOrder.path, { orderNo, amount: 9900, reason: '会员申请退款' });
    const r = await db()
      .selectFrom('payRefund')
      .select(['refundNo', 'status'])
      .where('payOrderId', '=', (await order(orderNo)).id)
      .executeTakeFirstOrThrow();
    expect(r.status).toBe(0);
    const sent = await wx().settleRefund(r.refundNo, 'SUCCESS');
    expect(sent.map((d) => d.status)).toEqual([204]);
    const after = await db()
      .selectFrom('payRefund')
      .select('status')
      .where('refundNo', '=', r.refundNo)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe(1);
    return sent[0].serial;
  };

  it('certificates only: the settings say 平台证书 with its serial, 测试连接 names it, payments and refunds verify', async () => {
    const cert = wx().config().certificate;
    expect(await setting()).toMatchObject({
      keyMode: 'certificate',
      platformPublicKeyId: '',
      platformCertificates: [{ serialNo: cert.serialNo, expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }],
      secretsSet: true,
    });
    expect(await api().ok(queryPayConnection.path, { provider: 'wechat' })).toEqual({
      ok: true,
      message: PayMsg.connectionKeys('微信支付', `${WECHAT_KEY_MODE_LABEL.certificate}（平台证书 ${cert.serialNo}）`),
    });
    const paid = await buyAndPay();
    expect(paid.serial).toBe(cert.serialNo);
    expect(await refundWhole(paid.orderNo)).toBe(cert.serialNo);
    // No public key: no request named one.
    expect(wx().control.requestSerials.filter((s) => s !== '')).toEqual([]);
    expect(wx().control.badSignatures).toEqual([]);
  });

  it('switching: both kept, WeChat signs with either; 测试连接 proves both, notifications under each key verify', async () => {
    wx().control.keys = 'switching';
    await api().ok(updatePaySetting.path, standInPaySetting(wx(), online.ali));
    const { publicKey, certificate } = wx().config();
    expect(await setting()).toMatchObject({
      keyMode: 'switching',
      platformPublicKeyId: publicKey.id,
      platformCertificates: [{ serialNo: certificate.serialNo }],
    });
    const asked = wx().control.requestSerials.length;
    expect(await api().ok(queryPayConnection.path, { provider: 'wechat' })).toEqual({
      ok: true,
      message: PayMsg.connectionKeys(
        '微信支付',
        `${WECHAT_KEY_MODE_LABEL.switching}（微信支付公钥 ${publicKey.id}、平台证书 ${certificate.serialNo}）`,
      ),
    });
    // 测试连接 asked once naming the public key (answered under it) and once naming none (a certificate).
    expect(wx().control.requestSerials.slice(asked)).toEqual([publicKey.id, '']);
    // Notifications come under either key, by turns here: both verify.
    const a = await buyAndPay();
    const b = await buyAndPay();
    expect([a.serial, b.serial].sort()).toEqual([certificate.serialNo, publicKey.id].sort());
    await refundWhole(a.orderNo);
    await refundWhole(b.orderNo);
    // Every request of the orders and refunds named the public key (WeChat then answers under it).
    const orderCalls = wx().control.requestSerials.slice(asked + 2);
    expect(orderCalls.length).toBeGreaterThan(0);
    expect(new Set(orderCalls)).toEqual(new Set([publicKey.id]));
  });

  it('public key only: the certificates dropped once the switch is done; a wrong public key id is refused by WeChat', async () => {
    wx().control.keys = 'public_key';
    await api().ok(updatePaySetting.path, standInPaySetting(wx(), online.ali));
    const { publicKey } = wx().config();
    expect(await setting()).toMatchObject({
      keyMode: 'public_key',
      platformPublicKeyId: publicKey.id,
      platformCertificates: [],
    });
    expect(await api().ok(queryPayConnection.path, { provider: 'wechat' })).toEqual({
      ok: true,
      message: PayMsg.connectionKeys('微信支付', `${WECHAT_KEY_MODE_LABEL.public_key}（微信支付公钥 ${publicKey.id}）`),
    });
    const paid = await buyAndPay();
    expect(paid.serial).toBe(publicKey.id);
    expect(await refundWhole(paid.orderNo)).toBe(publicKey.id);

    // Neither key nor certificate: refused with a Chinese 400; a public key without its id too.
    expect(
      await api().call(updatePaySetting.path, {
        wechat: { platformPublicKeyId: '', removePlatformCertificates: true },
      }),
    ).toMatchObject({ status: 400, msg: PayMsg.missing('微信支付公钥 ID') });
    expect(
      await api().call(updatePaySetting.path, { wechat: { platformCertificates: 'not a certificate' } }),
    ).toMatchObject({ status: 400, msg: PayMsg.platformCertificate });
    // Another public key id than the merchant's: WeChat answers INVALID_REQUEST, unsigned by any key we
    // hold; 测试连接 says so, and the setting is unchanged by the test.
    await api().ok(updatePaySetting.path, {
      wechat: { platformPublicKeyId: 'PUB_KEY_ID_0000000000000000000000000000' },
    });
    const bad = await api().ok(queryPayConnection.path, { provider: 'wechat' });
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('微信支付连接失败');
    await api().ok(updatePaySetting.path, { wechat: { platformPublicKeyId: publicKey.id } });
    expect((await api().ok(queryPayConnection.path, { provider: 'wechat' })).ok).toBe(true);
  });
});
