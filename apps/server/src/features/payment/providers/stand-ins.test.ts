// The adapters against the local stand-ins over real HTTP on 127.0.0.1, through the outbound
// gate: two independent readings of each provider's documentation meet.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAlipayStandIn,
  startWechatPayStandIn,
  type AlipayStandIn,
  type WechatPayStandIn,
} from '../../../../test/payment-stand-ins.ts';
import { Alipay } from './alipay.ts';
import { PaymentProviderError, beijingTime, type PaymentProvider, type VerifiedNotification } from './types.ts';
import { WechatPay, rsaSha256Verify } from './wechatpay.ts';

/** Our notify endpoint: verifies with the adapter and answers as the adapter says. */
async function startReceiver(providers: Record<string, () => PaymentProvider>) {
  const got: { path: string; result: VerifiedNotification | string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      const p = providers[path]();
      let a;
      try {
        got.push({ path, result: p.verifyNotification({ headers: req.headers, body }) });
        a = p.notifyAnswer(true);
      } catch (e) {
        got.push({ path, result: e instanceof PaymentProviderError ? e.kind : 'error' });
        a = p.notifyAnswer(false, e instanceof Error ? e.message : '失败');
      }
      res.writeHead(a.status, { 'content-type': a.contentType });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof PaymentProviderError) return e;
    throw e;
  }
  throw new Error('expected a PaymentProviderError');
};
const today = () => beijingTime(new Date()).slice(0, 10);
let n = 0;
const orderNo = (p: string) => `${p}${Date.now()}${++n}`;

describe('WeChat Pay v3 adapter against the stand-in', () => {
  let wx: WechatPayStandIn;
  let pay: WechatPay;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    wx = await startWechatPayStandIn();
    pay = new WechatPay({ ...wx.config(), outbound: { allow: wx.allow, timeoutMs: 5000 } });
    receiver = await startReceiver({ '/wechat': () => pay });
  });
  afterAll(async () => {
    await wx.close();
    await receiver.close();
  });

  const native = async (amountFen = 9900) => {
    const no = orderNo('WN');
    const o = await pay.createOrder({
      method: 'wechat_native',
      outTradeNo: no,
      amountFen,
      description: '10次卡',
      notifyUrl: `${receiver.base}/wechat`,
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });
    return { no, o };
  };

  it('Native: code_url, unpaid, paid by the stand-in, notified and verified, then paid by query', async () => {
    const { no, o } = await native();
    expect(o).toEqual({ method: 'wechat_native', codeUrl: wx.payPageUrl(no) });
    expect(await pay.queryOrder(no)).toMatchObject({
      outTradeNo: no,
      state: 'unpaid',
      providerState: 'NOTPAY',
      amountFen: 9900,
      paidAt: null,
    });
    const [d] = await wx.pay(no);
    expect(d).toMatchObject({ status: 204, body: '' });
    expect(receiver.got.at(-1)?.result).toMatchObject({
      kind: 'payment',
      order: { outTradeNo: no, state: 'paid', amountFen: 9900, merchantId: '1900009191', appId: 'wxd678efh567hg6787' },
    });
    const q = await pay.queryOrder(no);
    expect(q).toMatchObject({
      state: 'paid',
      providerState: 'SUCCESS',
      amountFen: 9900,
      merchantId: '1900009191',
      appId: 'wxd678efh567hg6787',
    });
    expect(q?.providerTradeId).toMatch(/^4200\d{24}$/);
    expect(q?.paidAt).toBeInstanceOf(Date);
    expect(wx.control.badSignatures).toEqual([]);
  });

  it('JSAPI: openid from the web authorisation code, prepay_id and a paySign the merchant key made', async () => {
    const openid = await pay.openidFromCode(wx.oauthCode('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o'));
    expect(openid).toBe('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
    expect((await errorOf(pay.openidFromCode('used-or-made-up'))).code).toBe('40029');
    const no = orderNo('WJ');
    const o = await pay.createOrder({
      method: 'wechat_jsapi',
      outTradeNo: no,
      amountFen: 100,
      description: '体验卡',
      notifyUrl: `${receiver.base}/wechat`,
      openid,
    });
    if (o.method !== 'wechat_jsapi') throw new Error('wrong method');
    expect(o.prepayId).toBe(wx.orders.get(no)?.prepayId);
    const p = o.payParams;
    const merchantPublic = crypto.createPublicKey(wx.config().merchantPrivateKey);
    expect(
      rsaSha256Verify(`${p.appId}\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`, p.paySign, merchantPublic),
    ).toBe(true);
    expect(p.package).toBe(`prepay_id=${o.prepayId}`);
    expect(wx.orders.get(no)?.openid).toBe(openid);
  });

  it('duplicate, forged, other-merchant, other-amount and replayed notifications reach the receiver as such', async () => {
    const { no } = await native(5000);
    const before = receiver.got.length;
    const dup = await wx.pay(no, { times: 5 });
    expect(dup.map((d) => d.status)).toEqual([204, 204, 204, 204, 204]);
    const forged = await wx.notify(no, { forge: true });
    expect(forged[0].status).toBe(500);
    expect(JSON.parse(forged[0].body)).toMatchObject({ code: 'FAIL' });
    const stale = await wx.notify(no, { timestampOffsetSec: -600 });
    expect(stale[0].status).toBe(500);
    await wx.notify(no, { merchantId: '1230000109' });
    await wx.notify(no, { amountFen: 1 });
    const results = receiver.got.slice(before).map((g) => g.result);
    expect(results.slice(0, 5).every((r) => typeof r === 'object' && r.kind === 'payment')).toBe(true);
    expect(results.slice(5, 7)).toEqual(['signature', 'stale']);
    // Verified (the provider did sign them): the order code compares merchant and amount with the order.
    expect(results[7]).toMatchObject({ order: { merchantId: '1230000109', amountFen: 5000 } });
    expect(results[8]).toMatchObject({ order: { merchantId: '1900009191', amountFen: 1 } });
  });

  it('close: an unpaid order closes, an unknown one is not found, a query says so', async () => {
    const { no } = await native();
    expect(await pay.closeOrder(no)).toBe('closed');
    expect(await pay.queryOrder(no)).toMatchObject({ state: 'closed', providerState: 'CLOSED' });
    expect(await pay.closeOrder('NOSUCHORDER123')).toBe('not_found');
    expect(await pay.queryOrder('NOSUCHORDER123')).toBeNull();
    const paid = await native();
    await wx.pay(paid.no, { silent: true });
    expect((await errorOf(pay.closeOrder(paid.no))).code).toBe('ORDERPAID');
  });

  it('refunds: part then the rest, processing then success, notified; the order ends refunded', async () => {
    const { no } = await native(1000);
    await wx.pay(no, { silent: true });
    const r1 = await pay.refund({
      outTradeNo: no,
      outRefundNo: `${no}R1`,
      refundFen: 300,
      totalFen: 1000,
      reason: '会员申请',
      notifyUrl: `${receiver.base}/wechat`,
    });
    expect(r1).toMatchObject({ state: 'processing', refundFen: 300, outTradeNo: no });
    await expect
      .poll(async () => (await pay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R1` }))?.state)
      .toBe('success');
    await expect
      .poll(() =>
        receiver.got.some(
          (g) =>
            typeof g.result === 'object' && g.result.kind === 'refund' && g.result.refund.outRefundNo === `${no}R1`,
        ),
      )
      .toBe(true);
    // The same refund number again is the same refund, not a second one.
    expect(
      await pay.refund({ outTradeNo: no, outRefundNo: `${no}R1`, refundFen: 300, totalFen: 1000, reason: '会员申请' }),
    ).toMatchObject({ state: 'success', refundFen: 300 });
    const over = await pay.refund({
      outTradeNo: no,
      outRefundNo: `${no}R2`,
      refundFen: 800,
      totalFen: 1000,
      reason: '超额',
    });
    expect(over).toMatchObject({ state: 'refused', providerState: 'INVALID_REQUEST' });
    expect(over.reason).toContain('可退金额');
    await pay.refund({ outTradeNo: no, outRefundNo: `${no}R3`, refundFen: 700, totalFen: 1000, reason: '余下' });
    await expect
      .poll(async () => (await pay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R3` }))?.state)
      .toBe('success');
    expect(await pay.queryOrder(no)).toMatchObject({ state: 'refunded', providerState: 'REFUND' });
    expect(await pay.queryRefund({ outTradeNo: no, outRefundNo: 'NOSUCHREFUND' })).toBeNull();
  });

  it('refused refunds: at once (balance short) and later (closed), with the reason', async () => {
    const { no } = await native(1000);
    await wx.pay(no, { silent: true });
    wx.control.refuse = 'now';
    const now = await pay.refund({
      outTradeNo: no,
      outRefundNo: `${no}R1`,
      refundFen: 1000,
      totalFen: 1000,
      reason: '退卡',
    });
    expect(now).toMatchObject({
      state: 'refused',
      providerState: 'NOT_ENOUGH',
      reason: '基本账户余额不足，请充值后重新发起',
    });
    wx.control.refuse = 'later';
    const later = await pay.refund({
      outTradeNo: no,
      outRefundNo: `${no}R2`,
      refundFen: 1000,
      totalFen: 1000,
      reason: '退卡',
    });
    expect(later.state).toBe('processing');
    await expect
      .poll(async () => (await pay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R2` }))?.state)
      .toBe('refused');
    wx.control.refuse = null;
    expect(await pay.queryOrder(no)).toMatchObject({ state: 'paid' });
  });

  it("the day's trade bill: requested, downloaded, SHA1 checked, parsed; a day without one is empty", async () => {
    const { no } = await native(2500);
    await wx.pay(no, { silent: true });
    await pay.refund({ outTradeNo: no, outRefundNo: `${no}R`, refundFen: 500, totalFen: 2500, reason: '部分退款' });
    await expect
      .poll(async () => (await pay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R` }))?.state)
      .toBe('success');
    const rows = await pay.downloadBill(today());
    const mine = rows.filter((r) => r.outTradeNo === no);
    expect(mine.map((r) => [r.kind, r.amountFen, r.outRefundNo])).toEqual([
      ['pay', 2500, null],
      ['refund', 500, `${no}R`],
    ]);
    expect(mine[0].providerTradeId).toBe(wx.orders.get(no)?.transactionId);
    expect(await pay.downloadBill('2001-01-01')).toEqual([]);
    wx.setBill('2001-01-02', [
      { outTradeNo: 'ELSEWHERE1', tradeId: '4200999', amountFen: 12345, kind: 'pay', time: '2001-01-02 08:00:00' },
    ]);
    expect(await pay.downloadBill('2001-01-02')).toEqual([
      {
        outTradeNo: 'ELSEWHERE1',
        providerTradeId: '4200999',
        amountFen: 12345,
        kind: 'pay',
        outRefundNo: null,
        at: new Date('2001-01-02T00:00:00Z'),
      },
    ]);
  });

  it('a wrong merchant key is refused with SIGN_ERROR (401) and nothing is created', async () => {
    const other = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const bad = new WechatPay({ ...wx.config(), merchantPrivateKey: other, outbound: { allow: wx.allow } });
    const no = orderNo('WB');
    const e = await errorOf(
      bad.createOrder({
        method: 'wechat_native',
        outTradeNo: no,
        amountFen: 1,
        description: 'x',
        notifyUrl: `${receiver.base}/wechat`,
      }),
    );
    expect(e).toMatchObject({ kind: 'provider', code: 'SIGN_ERROR', httpStatus: 401 });
    expect(e.message).toMatch(/签名错误/);
    expect(wx.orders.has(no)).toBe(false);
    expect(wx.control.badSignatures).toContain('POST /v3/pay/transactions/native');
  });

  it('an answer not signed by the platform key is refused', async () => {
    const { no } = await native();
    wx.control.forgeAnswers = true;
    try {
      expect(await errorOf(pay.queryOrder(no))).toMatchObject({ kind: 'signature' });
      // Not even "not found" is believed unsigned-by-WeChat (it would let an order be closed).
      expect(await errorOf(pay.queryOrder('NOSUCHORDER123'))).toMatchObject({ kind: 'signature' });
    } finally {
      wx.control.forgeAnswers = false;
    }
  });

  it('every request goes through the outbound gate: 127.0.0.1 unlisted is refused', async () => {
    const gated = new WechatPay({ ...wx.config(), outbound: { allow: [] } });
    expect(await errorOf(gated.queryOrder('X1234567'))).toMatchObject({ kind: 'transport' });
  });

  it('the pay page pays and notifies (for browser tests)', async () => {
    const { no } = await native(100);
    const page = await fetch(wx.payPageUrl(no));
    expect(await page.text()).toContain('确认支付');
    const after = await fetch(wx.payPageUrl(no), { method: 'POST' });
    expect(await after.text()).toContain('支付成功');
    expect(await pay.queryOrder(no)).toMatchObject({ state: 'paid' });
    expect(wx.deliveries.filter((d) => d.outTradeNo === no).map((d) => d.status)).toEqual([204]);
  });
});

describe('Alipay adapter against the stand-in', () => {
  let ali: AlipayStandIn;
  let alipay: Alipay;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    ali = await startAlipayStandIn();
    alipay = new Alipay({ ...ali.config(), outbound: { allow: ali.allow, timeoutMs: 5000 } });
    receiver = await startReceiver({ '/alipay': () => alipay });
  });
  afterAll(async () => {
    await ali.close();
    await receiver.close();
  });

  const precreate = async (amountFen = 9900) => {
    const no = orderNo('AP');
    const o = await alipay.createOrder({
      method: 'alipay_precreate',
      outTradeNo: no,
      amountFen,
      description: '10次卡',
      notifyUrl: `${receiver.base}/alipay`,
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });
    return { no, o };
  };

  it('precreate: qr_code, unknown until scanned, unpaid, paid and notified, paid by query', async () => {
    const { no, o } = await precreate(9900);
    expect(o).toEqual({ method: 'alipay_precreate', qrCode: ali.payPageUrl(no) });
    expect(await alipay.queryOrder(no)).toBeNull();
    ali.scan(no);
    expect(await alipay.queryOrder(no)).toMatchObject({
      state: 'unpaid',
      providerState: 'WAIT_BUYER_PAY',
      amountFen: 9900,
    });
    const [d] = await ali.pay(no);
    expect(d).toMatchObject({ status: 200, body: 'success' });
    expect(receiver.got.at(-1)?.result).toMatchObject({
      kind: 'payment',
      order: {
        outTradeNo: no,
        state: 'paid',
        amountFen: 9900,
        merchantId: '2088000000000001',
        appId: '2021000000000001',
      },
    });
    const q = await alipay.queryOrder(no);
    expect(q).toMatchObject({ state: 'paid', providerState: 'TRADE_SUCCESS', amountFen: 9900 });
    expect(q?.providerTradeId).toBe(ali.orders.get(no)?.tradeNo);
    expect(ali.control.badSignatures).toEqual([]);
  });

  it('WAP: the signed URL opens the gateway page, 确认支付 pays and notifies', async () => {
    const no = orderNo('AW');
    const o = await alipay.createOrder({
      method: 'alipay_wap',
      outTradeNo: no,
      amountFen: 50000,
      description: '充值 500 元',
      notifyUrl: `${receiver.base}/alipay`,
      returnUrl: 'https://studio.example/m/orders',
    });
    if (o.method !== 'alipay_wap') throw new Error('wrong method');
    expect(o.redirectUrl.startsWith(`${ali.base}/gateway.do?`)).toBe(true);
    const page = await fetch(o.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('确认支付');
    expect(await alipay.queryOrder(no)).toMatchObject({ state: 'unpaid', amountFen: 50000 });
    const done = await (await fetch(o.redirectUrl, { method: 'POST' })).text();
    expect(done).toContain('支付成功');
    expect(done).toContain('https://studio.example/m/orders');
    expect(await alipay.queryOrder(no)).toMatchObject({ state: 'paid' });
    expect(ali.deliveries.filter((d) => d.outTradeNo === no).map((d) => d.body)).toEqual(['success']);
    // A changed URL (another amount) fails the gateway's signature check.
    const tampered = o.redirectUrl.replace(encodeURIComponent('"500.00"'), encodeURIComponent('"0.01"'));
    expect(tampered).not.toBe(o.redirectUrl);
    expect((await fetch(tampered)).status).toBe(400);
  });

  it('duplicate, forged, other-seller and other-amount notifications', async () => {
    const { no } = await precreate(5000);
    const before = receiver.got.length;
    expect((await ali.pay(no, { times: 4 })).map((d) => d.body)).toEqual(['success', 'success', 'success', 'success']);
    expect((await ali.notify(no, { forge: true }))[0].body).toBe('fail');
    await ali.notify(no, { merchantId: '2088999999999999', appId: '2021999999999999' });
    await ali.notify(no, { amountFen: 1 });
    const results = receiver.got.slice(before).map((g) => g.result);
    expect(results[4]).toBe('signature');
    expect(results[5]).toMatchObject({ order: { merchantId: '2088999999999999', appId: '2021999999999999' } });
    expect(results[6]).toMatchObject({ order: { amountFen: 1 } });
  });

  it('close: never scanned is not found (and the QR stops working), scanned closes', async () => {
    const a = await precreate();
    expect(await alipay.closeOrder(a.no)).toBe('not_found');
    expect(await (await fetch(ali.payPageUrl(a.no), { method: 'POST' })).text()).toContain('订单已关闭');
    const b = await precreate();
    ali.scan(b.no);
    expect(await alipay.closeOrder(b.no)).toBe('closed');
    expect(await alipay.queryOrder(b.no)).toMatchObject({ state: 'closed', providerState: 'TRADE_CLOSED' });
    const c = await precreate();
    await ali.pay(c.no, { silent: true });
    expect(await errorOf(alipay.closeOrder(c.no))).toMatchObject({ kind: 'provider', code: 'ACQ.TRADE_STATUS_ERROR' });
  });

  it('refunds: part, the same number again, the rest; refused ones with the reason; the order ends refunded', async () => {
    const { no } = await precreate(1000);
    await ali.pay(no, { silent: true });
    expect(
      await alipay.refund({
        outTradeNo: no,
        outRefundNo: `${no}R1`,
        refundFen: 300,
        totalFen: 1000,
        reason: '会员申请',
      }),
    ).toMatchObject({ state: 'success', refundFen: 300 });
    expect(await alipay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R1` })).toMatchObject({
      state: 'success',
      refundFen: 300,
      providerState: 'REFUND_SUCCESS',
    });
    // Repeat: fund_change N is no answer yet (processing): the query settles it. Still one refund of 300.
    expect(
      await alipay.refund({
        outTradeNo: no,
        outRefundNo: `${no}R1`,
        refundFen: 300,
        totalFen: 1000,
        reason: '会员申请',
      }),
    ).toMatchObject({ state: 'processing', providerState: 'FUND_CHANGE_N' });
    expect(ali.orders.get(no)?.refundedFen).toBe(300);
    ali.control.refuse = { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' };
    expect(
      await alipay.refund({ outTradeNo: no, outRefundNo: `${no}R2`, refundFen: 700, totalFen: 1000, reason: '余下' }),
    ).toMatchObject({ state: 'refused', providerState: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', reason: '卖家余额不足' });
    // Queried: 10000 without refund_status is not final (no refund known): null, never 'refused'.
    expect(await alipay.queryRefund({ outTradeNo: no, outRefundNo: `${no}R2` })).toBeNull();
    ali.control.refuse = null;
    expect(
      await alipay.refund({ outTradeNo: no, outRefundNo: `${no}R3`, refundFen: 701, totalFen: 1000, reason: '超额' }),
    ).toMatchObject({ state: 'refused', providerState: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL' });
    expect(
      await alipay.refund({ outTradeNo: no, outRefundNo: `${no}R4`, refundFen: 700, totalFen: 1000, reason: '余下' }),
    ).toMatchObject({ state: 'success' });
    expect(await alipay.queryOrder(no)).toMatchObject({ state: 'refunded', providerState: 'TRADE_CLOSED' });
    expect(await alipay.queryRefund({ outTradeNo: 'NOSUCHORDER1', outRefundNo: 'X' })).toBeNull();
  });

  it("the day's bill: a GBK zip, then a plain CSV; a day without one is empty", async () => {
    const { no } = await precreate(2500);
    await ali.pay(no, { silent: true });
    await alipay.refund({ outTradeNo: no, outRefundNo: `${no}R`, refundFen: 500, totalFen: 2500, reason: '部分退款' });
    for (const plain of [false, true]) {
      ali.control.plainBill = plain;
      const mine = (await alipay.downloadBill(today())).filter((r) => r.outTradeNo === no);
      expect(mine.map((r) => [r.kind, r.amountFen, r.outRefundNo, r.providerTradeId])).toEqual([
        ['pay', 2500, null, ali.orders.get(no)?.tradeNo],
        ['refund', 500, `${no}R`, ali.orders.get(no)?.tradeNo],
      ]);
    }
    ali.control.plainBill = false;
    expect(await alipay.downloadBill('2001-01-01')).toEqual([]);
    ali.setBill('2001-01-02', [{ outTradeNo: 'ELSEWHERE2', tradeId: '2001010222001', amountFen: 100, kind: 'pay' }]);
    expect(await alipay.downloadBill('2001-01-02')).toEqual([
      {
        outTradeNo: 'ELSEWHERE2',
        providerTradeId: '2001010222001',
        amountFen: 100,
        kind: 'pay',
        outRefundNo: null,
        at: new Date('2001-01-02T04:00:00Z'),
      },
    ]);
  });

  it('a wrong app key is refused with isv.invalid-signature', async () => {
    const other = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const bad = new Alipay({ ...ali.config(), appPrivateKey: other, outbound: { allow: ali.allow } });
    const e = await errorOf(bad.queryOrder('ANY123'));
    expect(e).toMatchObject({ kind: 'provider', code: 'isv.invalid-signature' });
    expect(e.message).toMatch(/验签出错/);
    expect(ali.control.badSignatures).toContain('alipay.trade.query');
  });

  it('an answer not signed by Alipay is refused, "not found" included', async () => {
    const { no } = await precreate();
    ali.control.forgeAnswers = true;
    try {
      expect(await errorOf(alipay.queryOrder(no))).toMatchObject({ kind: 'signature' });
    } finally {
      ali.control.forgeAnswers = false;
    }
  });

  it('every request goes through the outbound gate', async () => {
    const gated = new Alipay({ ...ali.config(), outbound: { allow: [] } });
    expect(await errorOf(gated.queryOrder('X1'))).toMatchObject({ kind: 'transport' });
  });
});
