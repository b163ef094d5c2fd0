// WeChat Pay v3 adapter, pure parts: the documented signing string, a documented key and its
// signature, a documented AES-GCM vector, notification checks, the trade bill.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PaymentProviderError } from './types.ts';
import {
  WechatPay,
  answerSignMessage,
  authorizationHeader,
  decryptResource,
  jsapiPayParams,
  parseTradeBill,
  requestSignMessage,
  rsaSha256Sign,
  rsaSha256Verify,
  type WechatPayConfig,
} from './wechatpay.ts';

// The test merchant key, certificate and the signature of "message" published with WeChat Pay's
// own Java SDK (github.com/wechatpay-apiv3/wechatpay-java, core/src/test/resources/merchant_private_key.pem,
// merchant_certificate.pem and core/.../cipher/RSAVerifierTest.java). Test material, not a secret.
const SDK_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCaZzehUwzcxdLg
Gn/UNryHLdX0yBvCqD0p92/BdlCIBi0dmzZzrfc+FF0xK70AP9b2+Ry5q+zXUU+d
PucJmgwABiZ+Lte+4euMxqPCEkdEu9lyiphalpoaOVPbmDNatzq9k5a/P454QRWM
dkLUJZCeoL9bF2Gn/2+wWEw3sL8zFFcOM8Jr1PdOLmAx+h7pf/87jcmXXCm+SZqw
5MtILKQi9zHWujYdMA0IcYNeQaNl1h/NUnungdIHKaaU+17wCXqTcZsipAGoqfqr
Hx/sr30ZszOdHYOvFNiB+rhEldBGSLWwSYE6LFkbP9GdQWKIQCip3E5dLj5ZFkDe
Ov4Hekf9AgMBAAECggEAEsVsqnS90hNMzUj7dHHJHsgQRGeVlGc+tFzsHcGEDd1u
W7SUfKDQN6BjKgiuvBqGyFTFzL7dltnAS5YroWu0fMZCpMGOIhs2N1Go8/2j43PQ
/k9iMVUw2/JPQxmwWJ2BCy4nvA1+hRkohQCVpFQCzn4tdWYUzcdMrUw2y+h1fkCQ
5MJn7iw9QHKQSeFeCl1/xq2PvOtiK/r1LsckyKNSSNgFEfxyWYaKbnK9OH+5rFKQ
QuI+fnAgE6QiLvmW0NqqZUSfqkLKi/FSWI13ns0H6OxjqpLX8VQ6+Cw5qq8fCuv2
gzkVk8A85ZTCQL/q9qDilt9uAE0bE924WU+n2zkBoQKBgQDQvIufN6fKpm27k4yx
RNV23fj9nojewaVqGg/3yuyiAu6w/yFcTXkGMVOicTYraX2mliHTIoyP8ywKGqqa
XS/Kk3tGD1K04KriPiFwWXU54+DmOJEyYoJlmXOm4BoZ1lW0z5HECC9eO/VPSDY+
zQdRYSCTdSHEgYuOGQSLPPwdrQKBgQC9XTrvkUkIthayc+4IhV6m4kT8uwzuoc3f
uaJhFFcpLKqzcpQBH71TYCXfqkucnO0no0sGerBB4HJQoVRK+jsdhNZhcw1JKLau
E+YlCSRLZ62vyzBTzLw1fnFBp82z1VZBujCrMP+DdwXBTsnkRaUtmDEG0s6YsCwd
fayF0PB9kQKBgAHc/P4R2ByV+brH6WSXsbQa7SMObDhY0CovS18x34Tes9S+okSZ
qG/mttFnY01l5qo7AthIoaqTSBxa+pTgKhIL2PjaICnfK4dTeKbxFXvLzfEgJiOl
/3X6ta6Sp4j9gcxYYfu2+v1DWcA4a8uJtvwB+vF2BTQk1+MP1BuOEs4NAoGBAK3y
+HKdOUPBUPQ4vk4hhaMzcz/d67FB/UYo1lrrPm3aVCxnckHeECKIzgG6A58oIEor
HH4lMcgyD5C1wiLl3mvtXKlD8M5lkfoy2VToIukJomk783bnOXTCY/N12+X4cTYL
fS2k4vK24RiD8b25pFRP26ly+MkV/FBS46pBFsmhAoGAOjfl2vGyJo8CRQ/HBLsS
Bw2VQgRvZU7mom1qa2SKA2VlsFz/aiBCcT8XEsTJxkVYkvbdfbyx2Z9kCbI6Y2cz
Z+M/0rQSRv/eOiBW7anBImZMg6WcYNfRfumkuNq+6fcCKKtZuyrd7ZFc0jTcVasI
xNJ1TM6J6kRQdn5O6Ot4ERw=
-----END PRIVATE KEY-----`;
const SDK_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIDrTCCApWgAwIBAgIUXxxy4qiTG3Ki4Tr43ukkces5cRUwDQYJKoZIhvcNAQEL
BQAwZjELMAkGA1UEBhMCQ04xEjAQBgNVBAgMCUd1YW5nZG9uZzERMA8GA1UEBwwI
c2hlbnpoZW4xITAfBgNVBAoMGEludGVybmV0IFdpZGdpdHMgUHR5IEx0ZDENMAsG
A1UEAwwEdGVzdDAeFw0yMjA1MTAwMTU3MTBaFw0yNTA1MDkwMTU3MTBaMGYxCzAJ
BgNVBAYTAkNOMRIwEAYDVQQIDAlHdWFuZ2RvbmcxETAPBgNVBAcMCHNoZW56aGVu
MSEwHwYDVQQKDBhJbnRlcm5ldCBXaWRnaXRzIFB0eSBMdGQxDTALBgNVBAMMBHRl
c3QwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCaZzehUwzcxdLgGn/U
NryHLdX0yBvCqD0p92/BdlCIBi0dmzZzrfc+FF0xK70AP9b2+Ry5q+zXUU+dPucJ
mgwABiZ+Lte+4euMxqPCEkdEu9lyiphalpoaOVPbmDNatzq9k5a/P454QRWMdkLU
JZCeoL9bF2Gn/2+wWEw3sL8zFFcOM8Jr1PdOLmAx+h7pf/87jcmXXCm+SZqw5MtI
LKQi9zHWujYdMA0IcYNeQaNl1h/NUnungdIHKaaU+17wCXqTcZsipAGoqfqrHx/s
r30ZszOdHYOvFNiB+rhEldBGSLWwSYE6LFkbP9GdQWKIQCip3E5dLj5ZFkDeOv4H
ekf9AgMBAAGjUzBRMB0GA1UdDgQWBBQQicr3Vq+2NG2ykH0nxQxsct1RtTAfBgNV
HSMEGDAWgBQQicr3Vq+2NG2ykH0nxQxsct1RtTAPBgNVHRMBAf8EBTADAQH/MA0G
CSqGSIb3DQEBCwUAA4IBAQCH//ZlSAbc6xRlwKwwfbHMsVpAfo/p+Y3397Gi4sR8
RbsW6a3ezXhbiSGiJxDnerx9Cmp4K6U+D3Fl0N9K6CDWfwpGNiZvjmCxtM/wb7dM
u+4U0MXJGBcaePj4mtV/+qPxSWDCQ+PR5OcYRQnac9LfrffTuejQx5aw9FcD7egI
SYfgkZ/wgHyQcZyhh8s6DuigpEaVGMLLoWDZGJ3D+rt4kXk9y5+03KBB2vobyl6P
+PDgaYrlNR/UQMnKMdkgWp7bebmrcXte32/6FAwK3SuHZOSkteDtRCYhYfG5SGSr
go1ujfIK1zIFyPkKKnsgTUPJXwdC7LI+ZqJuWTyVTNj6
-----END CERTIFICATE-----`;
const SDK_TEST_SIGNATURE =
  'Rq+5ZpWV6IHTWE1+9gCrYJKguNgbItpMdlIA+PVCPCdUAKNlohZz7CL7Y8xWDIFJjdGnErMj6Z+Q/h9CF5MV+nAVkqDmBR0uP5pp' +
  'sUEzco4ijvKHsvI2ro4boSW6vSfQs3W8I4QSI9a0/NFIgvj83Fv27LIYZf7deaFWmEwd1fpAeJRCyoKyBeJPdsjVx0//Lqe6' +
  'Wze2zVdliLcBvaHCfpd8+rAVGS+FQDeWgHqJ7n/Zy09LmV1/ghs7pO1mdjdD16SHKlysAD3K5hNGUJX/SHrEXEcu1yO1AOb/' +
  'YvOVkjNh8243rcfXNE5L4ph2XS11vS+2aToKYSOcKUagf0LLaw==';

describe('documented examples', () => {
  it('the request signing string of 签名生成 (pay.weixin.qq.com/wiki/doc/apiv3/wechatpay/wechatpay4_0.shtml)', () => {
    // The guide's example: GET /v3/certificates at 1554208460 with nonce 593BEC0C..., empty body.
    expect(requestSignMessage('GET', '/v3/certificates', '1554208460', '593BEC0C930BF1AFEB40B4A08C8FB242', '')).toBe(
      'GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n',
    );
  });

  it('the Authorization header of the same guide (schema, five fields, one line)', () => {
    const h = authorizationHeader({
      mchid: '1900009191',
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
      signature:
        'uOVRnA4qG/MNnYzdQxJanN+zU+lTgIcnU9BxGw5dKjK+VdEUz2FeIoC+D5sB/LN+nGzX3hfZg6r5wT1pl2ZobmIc6p0ldN7J6yDgUzbX8Uk3sD4a4eZVPTBvqNDoUqcYMlZ9uuDdCvNv4TM3c1WzsXUrExwVkI1XO5jCNbgDJ25nkT/c1gIFvqoogl7MdSFGc4W4xZsqCItnqbypR3RuGIlR9h9vlRsy7zJR9PBI83X8alLDIfR1ukt1P7tMnmogZ0cuDY8cZsd8ZlCgLadmvej58SLsIkVxFJ8XyJTJV0Dxj',
      timestamp: '1554208460',
      serialNo: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C',
    });
    expect(h).toBe(
      'WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="uOVRnA4qG/MNnYzdQxJanN+zU+lTgIcnU9BxGw5dKjK+VdEUz2FeIoC+D5sB/LN+nGzX3hfZg6r5wT1pl2ZobmIc6p0ldN7J6yDgUzbX8Uk3sD4a4eZVPTBvqNDoUqcYMlZ9uuDdCvNv4TM3c1WzsXUrExwVkI1XO5jCNbgDJ25nkT/c1gIFvqoogl7MdSFGc4W4xZsqCItnqbypR3RuGIlR9h9vlRsy7zJR9PBI83X8alLDIfR1ukt1P7tMnmogZ0cuDY8cZsd8ZlCgLadmvej58SLsIkVxFJ8XyJTJV0Dxj",timestamp="1554208460",serial_no="1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C"',
    );
    expect(h).not.toContain('\n');
  });

  it('reproduces the SDK test key signature of "message" (wechatpay-java RSAVerifierTest)', () => {
    expect(rsaSha256Sign('message', SDK_TEST_KEY)).toBe(SDK_TEST_SIGNATURE);
    // And checks it with the certificate, whose serial is the SDK's MERCHANT_CERTIFICATE_SERIAL_NUMBER.
    const cert = new crypto.X509Certificate(SDK_TEST_CERT);
    expect(cert.serialNumber.toUpperCase()).toBe('5F1C72E2A8931B72A2E13AF8DEE92471EB397115');
    expect(rsaSha256Verify('message', SDK_TEST_SIGNATURE, crypto.createPublicKey(SDK_TEST_CERT))).toBe(true);
    expect(rsaSha256Verify('message!', SDK_TEST_SIGNATURE, crypto.createPublicKey(SDK_TEST_CERT))).toBe(false);
  });

  it('opens the SDK AEAD_AES_256_GCM vector (wechatpay-java AeadAesCipherTest, API_V3_KEY of TestConfig)', () => {
    const resource = {
      ciphertext: 'ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=',
      nonce: 'uluk4a9R25RW',
      associated_data: 'associatedData',
    };
    expect(decryptResource(resource, 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb')).toBe('message');
    // Another associated data, nonce or key fails the tag.
    for (const [r, k] of [
      [{ ...resource, associated_data: 'associateddata' }, 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb'],
      [{ ...resource, nonce: 'uluk4a9R25RX' }, 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb'],
      [resource, 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gc'],
    ] as const) {
      expect(() => decryptResource(r, k)).toThrow(PaymentProviderError);
    }
  });
});

// Test keys made now: never files.
const merchant = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: crypto.KeyObject) =>
  k.export({ type: k.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();
const API_V3_KEY = 'k'.repeat(32);
const NOW = 1_700_000_000_000;

const config = (over: Partial<WechatPayConfig> = {}): WechatPayConfig => ({
  mchid: '1900009191',
  appid: 'wxd678efh567hg6787',
  apiV3Key: API_V3_KEY,
  merchantSerialNo: 'ABC123',
  merchantPrivateKey: pem(merchant.privateKey),
  platformKeys: [{ id: 'PUB_KEY_ID_0001', pem: pem(platform.publicKey) }],
  outbound: { allow: [] },
  now: () => NOW,
  ...over,
});

function notification(plain: object, o: { key?: crypto.KeyObject; ts?: number; serial?: string; event?: string } = {}) {
  const nonce = 'abcdefghijkl';
  const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(API_V3_KEY), Buffer.from(nonce));
  c.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([c.update(JSON.stringify(plain)), c.final(), c.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: 'n1',
    event_type: o.event ?? 'TRANSACTION.SUCCESS',
    resource_type: 'encrypt-resource',
    resource: {
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext,
      associated_data: 'transaction',
      nonce,
      original_type: 'transaction',
    },
  });
  const ts = String(o.ts ?? NOW / 1000);
  const sig = rsaSha256Sign(answerSignMessage(ts, 'n0nce', body), o.key ?? platform.privateKey);
  return {
    headers: {
      'wechatpay-timestamp': ts,
      'wechatpay-nonce': 'n0nce',
      'wechatpay-signature': sig,
      'wechatpay-serial': o.serial ?? 'PUB_KEY_ID_0001',
    },
    body,
  };
}

const paid = {
  appid: 'wxd678efh567hg6787',
  mchid: '1900009191',
  out_trade_no: 'O20240101001',
  transaction_id: '4200000001',
  trade_type: 'NATIVE',
  trade_state: 'SUCCESS',
  success_time: '2024-01-01T10:00:00+08:00',
  amount: { total: 9900, payer_total: 9900, currency: 'CNY' },
};

const kindOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof PaymentProviderError ? e.kind : 'other';
  }
  return 'none';
};

describe('notifications', () => {
  const pay = new WechatPay(config());

  it('a signed, encrypted payment notification is believed and decrypted', () => {
    const n = pay.verifyNotification(notification(paid));
    expect(n).toMatchObject({
      kind: 'payment',
      order: {
        outTradeNo: 'O20240101001',
        state: 'paid',
        amountFen: 9900,
        providerTradeId: '4200000001',
        merchantId: '1900009191',
        appId: 'wxd678efh567hg6787',
        paidAt: new Date('2024-01-01T02:00:00Z'),
      },
    });
  });

  it('header names in any case', () => {
    const n = notification(paid);
    const upper = Object.fromEntries(Object.entries(n.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(pay.verifyNotification({ headers: upper, body: n.body }).kind).toBe('payment');
  });

  it('refuses a forged signature, an unknown key id, a changed body, missing headers', () => {
    expect(kindOf(() => pay.verifyNotification(notification(paid, { key: stranger.privateKey })))).toBe('signature');
    expect(kindOf(() => pay.verifyNotification(notification(paid, { serial: 'PUB_KEY_ID_9999' })))).toBe('signature');
    const n = notification(paid);
    expect(kindOf(() => pay.verifyNotification({ ...n, body: n.body.replace('"n1"', '"n2"') }))).toBe('signature');
    expect(kindOf(() => pay.verifyNotification({ headers: {}, body: n.body }))).toBe('signature');
  });

  it('refuses a timestamp more than 5 minutes off, either way; 5 minutes is fine', () => {
    expect(kindOf(() => pay.verifyNotification(notification(paid, { ts: NOW / 1000 - 301 })))).toBe('stale');
    expect(kindOf(() => pay.verifyNotification(notification(paid, { ts: NOW / 1000 + 301 })))).toBe('stale');
    expect(kindOf(() => pay.verifyNotification(notification(paid, { ts: NOW / 1000 - 300 })))).toBe('none');
  });

  it('refuses a resource sealed under another APIv3 key', () => {
    const other = new WechatPay(config({ apiV3Key: 'z'.repeat(32) }));
    expect(kindOf(() => other.verifyNotification(notification(paid)))).toBe('signature');
  });

  it('a refund notification', () => {
    const n = pay.verifyNotification(
      notification(
        {
          mchid: '1900009191',
          out_trade_no: 'O1',
          out_refund_no: 'R1',
          refund_id: '50001',
          refund_status: 'SUCCESS',
          amount: { total: 100, refund: 40 },
        },
        { event: 'REFUND.SUCCESS' },
      ),
    );
    expect(n).toMatchObject({
      kind: 'refund',
      outTradeNo: 'O1',
      refund: { outRefundNo: 'R1', state: 'success', refundFen: 40 },
    });
  });

  it('a refund ABNORMAL (退款异常) is its own state, neither refused nor success; CLOSED is refused', () => {
    const of = (status: string, event: string) =>
      pay.verifyNotification(
        notification(
          {
            mchid: '1900009191',
            out_trade_no: 'O1',
            out_refund_no: 'R2',
            refund_id: '50002',
            refund_status: status,
            amount: { total: 100, refund: 100 },
          },
          { event },
        ),
      );
    expect(of('ABNORMAL', 'REFUND.ABNORMAL')).toMatchObject({
      kind: 'refund',
      refund: { outRefundNo: 'R2', state: 'abnormal', providerState: 'ABNORMAL' },
    });
    expect(of('CLOSED', 'REFUND.CLOSED')).toMatchObject({ refund: { state: 'refused', reason: '退款关闭' } });
  });

  it('platform certificates: the id is the certificate serial', () => {
    const p = new WechatPay(config({ platformKeys: [{ pem: SDK_TEST_CERT }] }));
    const body = '{"id":"x"}';
    const ts = String(NOW / 1000);
    const headers = {
      'wechatpay-timestamp': ts,
      'wechatpay-nonce': 'n',
      'wechatpay-signature': rsaSha256Sign(answerSignMessage(ts, 'n', body), SDK_TEST_KEY),
      'wechatpay-serial': '5F1C72E2A8931B72A2E13AF8DEE92471EB397115',
    };
    // Signature fine, but no resource: malformed, not a signature failure.
    expect(kindOf(() => p.verifyNotification({ headers, body }))).toBe('malformed');
  });

  it('answers: 204 empty on success, 5xx JSON FAIL otherwise', () => {
    expect(pay.notifyAnswer(true)).toEqual({ status: 204, contentType: 'text/plain', body: '' });
    const no = pay.notifyAnswer(false, '验签失败');
    expect(no.status).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(no.body)).toEqual({ code: 'FAIL', message: '验签失败' });
  });
});

describe('pieces', () => {
  it('JSAPI paySign covers appId, timeStamp, nonceStr and package, each line ended by \\n', () => {
    const p = jsapiPayParams(
      'wxd678efh567hg6787',
      'wx201410272009395522657a690389285100',
      merchant.privateKey,
      '1414561699',
      '5K8264ILTKCH16CQ',
    );
    expect(p).toMatchObject({
      package: 'prepay_id=wx201410272009395522657a690389285100',
      signType: 'RSA',
      timeStamp: '1414561699',
    });
    const msg = 'wxd678efh567hg6787\n1414561699\n5K8264ILTKCH16CQ\nprepay_id=wx201410272009395522657a690389285100\n';
    expect(rsaSha256Verify(msg, p.paySign, merchant.publicKey)).toBe(true);
  });

  it('unusable settings are a config error in Chinese', () => {
    expect(() => new WechatPay(config({ merchantPrivateKey: 'nonsense' }))).toThrow(/商户 API 私钥/);
    expect(() => new WechatPay(config({ apiV3Key: 'short' }))).toThrow(/APIv3 密钥/);
    expect(() => new WechatPay(config({ platformKeys: [{ id: 'x', pem: 'bad' }] }))).toThrow(/平台公钥/);
  });

  it('parses the trade bill: backtick fields, pay and refund lines, totals skipped', () => {
    const bill = [
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
      '`2024-01-01 10:00:00,`wx1,`1900009191,`0,`,`4200001,`O1,`oUp,`NATIVE,`SUCCESS,`OTHERS,`CNY,`99.00,`0.00,`0,`0,`0.00,`0.00,`,`,`10次卡, 瑜伽,`,`0.59000,`0.60%,`99.00,`0.00,`',
      '`2024-01-01 11:00:00,`wx1,`1900009191,`0,`,`4200001,`O1,`oUp,`NATIVE,`REFUND,`OTHERS,`CNY,`0.00,`0.00,`5001,`R1,`30.50,`0.00,`ORIGINAL,`SUCCESS,`10次卡,`,`-0.18000,`0.60%,`0.00,`30.50,`',
      '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
      '`2,`99.00,`30.50,`0.00,`0.41000,`99.00,`30.50',
    ].join('\r\n');
    expect(parseTradeBill(bill)).toEqual([
      {
        outTradeNo: 'O1',
        providerTradeId: '4200001',
        amountFen: 9900,
        kind: 'pay',
        outRefundNo: null,
        at: new Date('2024-01-01T02:00:00Z'),
      },
      {
        outTradeNo: 'O1',
        providerTradeId: '4200001',
        amountFen: 3050,
        kind: 'refund',
        outRefundNo: 'R1',
        at: new Date('2024-01-01T03:00:00Z'),
      },
    ]);
    expect(() => parseTradeBill('what,is,this\n`1')).toThrow(PaymentProviderError);
  });
});
