// Alipay adapter, pure parts: a real Alipay notification and a real gateway answer checked with
// Alipay's published keys, the documented string to sign, the bill file.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  Alipay,
  decodeBillText,
  notifySignContent,
  parseAlipayBill,
  rawJsonMember,
  requestSignContent,
  rsa2Verify,
  unzip,
  type AlipayConfig,
} from './alipay.ts';
import { PaymentProviderError, fenToYuan, yuanToFen } from './types.ts';

// Public keys published with Alipay's own Node SDK (github.com/alipay/alipay-sdk-nodejs-all,
// test/fixtures/alipay-notify-sign-public-key-v1.pem and alipay-public-key.pem).
const NOTIFY_PUBLIC_KEY_V1 = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAozecNNRnJMRAjSOjVDq6
WwVWDgUKp3Rs8d55UmSNz6jTOIzJfSwEHETen0gkRgtfH+he8BnCkJKegLTjLOD4
4tyIzHpiYi4Hc4mas/HnNhQ9t3a4sJPOI5zWaPX0q1+OucuA664psRrQoCSCBHr5
5FMC/lqrTHRQ4/+EfbPwuwpD5Q2OumPHLt4OYv9YuE5oJ19/1I/cQM4bWle7s4vN
VZCHLT+UUXYWX4KhSa8NcvyU9+9wjRZVUz6yvLbAcxd2KUeovF8papVO6Tw9tE2I
LxiW0lPTZDCgZ1kDKi5m5k3W0S1w32qEmlxXT//4QFN5Nj7YRmxOc260ts4dfKKQ
RwIDAQAB
-----END PUBLIC KEY-----`;
const GATEWAY_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA6kdjvWNCT+K3qQQgAyv+
8k0+lkrL6+dA+cb9OAX5sZgIxP2ycK51VYxwZgZgHCIWCkB/l/Zqqhye/E6x/nNM
SqRkW3FGpP4/hKWByG3Ah8DXRcUaAvd8aCWHcBpgZqjBp3ADPTcHViI10cGe0mn1
3wGaIZQl6G74CtnY6YQJ/1NkoE+C9Z0VD4xor4oJOZW1/rbc85InBmjU87BWtxmk
IQWWVw+Vwd0EL8oDU9GWNZ1Se9sZf4UHxs+goHh3/JhQly3iKqlt/hgFsip78kvd
eDwoL8gS6RCUi+Bp6j9Ee5Thd+CC61Ilk7iKiUQMMVn6+kdTGcV2XwUBezH2Go4d
lwIDAQAB
-----END PUBLIC KEY-----`;

// An asynchronous notification Alipay sent and signed (the SDK's checkNotifySign test, "verify
// sign should delete sign_type"); fund_bill_list arrives as JSON text in the form.
const REAL_NOTIFICATION: Record<string, string> = {
  app_id: '2018121762595097',
  auth_app_id: '2018121762595097',
  buyer_id: '2088512613526436',
  buyer_logon_id: '152****6706',
  buyer_pay_amount: '0.01',
  charset: 'utf-8',
  fund_bill_list: '[{"amount":"0.01","fundChannel":"PCREDIT"}]',
  gmt_create: '2019-05-23 14:13:56',
  gmt_payment: '2019-05-23 14:17:13',
  invoice_amount: '0.01',
  notify_id: '2019052300222141714026431019971405',
  notify_time: '2019-05-23 14:17:14',
  notify_type: 'trade_status_sync',
  out_trade_no: 'tpxy23962362669658',
  point_amount: '0.00',
  receipt_amount: '0.01',
  seller_email: 'myapp@alitest.com',
  seller_id: '2088331578818800',
  sign: 'T946S2qyNFAXLhAaRgNMmatxH6SO3MyWYFnTamQOgW1iAcheL/Zz+VoizwvEc6mTEwYewvvKS1wNkMQ1oEajMUHv9+cXQ9IFvU/qKS9Ktvw5xHvCaK0fj7LsVcQ7VxfyT3kSvXUDfKDP4cHSPuSZKwM2ybkzr53bIH9OUTpTQd2d3J0rbdf76OoUt+XF9vwqj7OVE7AGjH2HPWp842DgL/YVy4qeA9N2uFKRevT3YUskjaRxuI/E66reNjTMFhbjEqGLKvMcDD4BaQXnibq9ojAj60589fBwzKk3yWsVQmqGfksMQoheVMtZ3lAw4o2ty3TFngbVFFLwgx8FDpBZ9Q==',
  sign_type: 'RSA2',
  subject: 'tpxy2222896485',
  total_amount: '0.01',
  trade_no: '2019052322001426431037869358',
  trade_status: 'TRADE_SUCCESS',
  version: '1.0',
};

// A gateway answer Alipay signed (the SDK's checkResponseSign "normal" test): the sign covers the
// node's text exactly as written, its escaped slashes included.
const REAL_ANSWER =
  '{"alipay_offline_material_image_upload_response":{"code":"10000","msg":"Success","image_id":"akGwYYaFTai3r1uB0ww-1QAAACMAAQQD","image_url":"https:\\/\\/oalipay-dl-django.alicdn.com\\/rest\\/1.0\\/image?fileIds=akGwYYaFTai3r1uB0ww-1QAAACMAAQQD&zoom=original"},"sign":"PAb3IueJzGe/pU/fRAPjwIs543Kc/A6D0rz03AMejwr8h8rDc6FhDJDnz3fGLDdQP7ctjtQwwJW3pmdZZcGmp4lb/5YYgtoK6McjnRr4ER/raJLYn1IbpzkowhGow2esA/XeDblIAYUbZjU6ts0IqNncrZrCknDWHpaZXwGuaU7CUBk74xBeMeja7rEEkFlm9MRtiQNYnum/cGVtcDv/aQ8KkPyAD58oJiAzoXv0R6jFhlZtAWv+M0SaOlhTpZh1K6wlP+1Umiqdvqbc1oWdfpv75a+lGTkGHMy8K7/bnAGm20IRsisSv1B5rpJyeGfrVf6tb4MZ7vG4w0rS0c2hfA=="}';

const app = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const config = (over: Partial<AlipayConfig> = {}): AlipayConfig => ({
  appId: '2018121762595097',
  appPrivateKey: app.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  alipayPublicKey: NOTIFY_PUBLIC_KEY_V1,
  outbound: { allow: [] },
  ...over,
});

describe('documented examples', () => {
  it('verifies a real Alipay notification with the published key (sign and sign_type left out)', () => {
    const alipay = new Alipay(config());
    const n = alipay.verifyNotification({ headers: {}, body: new URLSearchParams(REAL_NOTIFICATION).toString() });
    expect(n).toMatchObject({
      kind: 'payment',
      order: {
        outTradeNo: 'tpxy23962362669658',
        state: 'paid',
        amountFen: 1,
        providerTradeId: '2019052322001426431037869358',
        merchantId: '2088331578818800',
        appId: '2018121762595097',
        paidAt: new Date('2019-05-23T06:17:13Z'),
      },
    });
    // Without sign_type it checks the same (sign_type is not signed).
    const { sign_type: _, ...noType } = REAL_NOTIFICATION;
    expect(alipay.verifyParams(noType)).toBe(noType);
  });

  it('refuses the same notification with one value changed (the SDK test "verify fail")', () => {
    const alipay = new Alipay(config());
    const changes: Record<string, string>[] = [
      { trade_no: `11111111${REAL_NOTIFICATION.trade_no}` },
      { total_amount: '100.00' },
      { seller_id: '2088000000000000' },
    ];
    for (const change of changes) {
      expect(() => alipay.verifyParams({ ...REAL_NOTIFICATION, ...change })).toThrow(/签名验证失败/);
    }
    expect(() => alipay.verifyParams({ ...REAL_NOTIFICATION, sign: '' })).toThrow(/缺少签名/);
  });

  it('checks a real gateway answer over the raw text of its node', () => {
    const node = rawJsonMember(REAL_ANSWER, 'alipay_offline_material_image_upload_response') ?? '';
    expect(node.startsWith('{"code":"10000"')).toBe(true);
    expect(node).toContain('https:\\/\\/oalipay');
    const sign = JSON.parse(rawJsonMember(REAL_ANSWER, 'sign') ?? '""') as string;
    expect(rsa2Verify(node, sign, GATEWAY_PUBLIC_KEY)).toBe(true);
    // Re-serialising the node (slashes unescaped) would not check: the raw text matters.
    expect(rsa2Verify(JSON.stringify(JSON.parse(node)), sign, GATEWAY_PUBLIC_KEY)).toBe(false);
  });

  it('the string to sign of 自行实现签名 (opendocs.alipay.com, common/02kf5q): sorted, sign out, sign_type in', () => {
    const biz =
      '{"button":[{"actionParam":"ZFB_HFCZ","actionType":"out","name":"话费充值"},{"name":"查询","subButton":[{"actionParam":"ZFB_YECX","actionType":"out","name":"余额查询"},{"actionParam":"ZFB_LLCX","actionType":"out","name":"流量查询"},{"actionParam":"ZFB_HFCX","actionType":"out","name":"话费查询"}]},{"actionParam":"http://m.alipay.com","actionType":"link","name":"最新优惠"}]}';
    const params = {
      app_id: '2014072300007148',
      method: 'alipay.mobile.public.menu.add',
      charset: 'GBK',
      sign_type: 'RSA2',
      timestamp: '2014-07-24 03:07:50',
      biz_content: biz,
      sign: 'e9zEAe4TTQ4LPLQvETPoLGXTiURcxiAKfMVQ6Hrrsx2hmyIEGvSfAQzbLxHrhyZ48wOJXTsD4FPnt+YGdK57+fP1BCbf9rIVycfjhYCqlFhbTu9pFnZgT55W+xbAFb9y7vL0MyAxwXUXvZtQVqEwW7pURtKilbcBTEW7TAxzgro=',
      version: '1.0',
    };
    expect(requestSignContent(params)).toBe(
      `app_id=2014072300007148&biz_content=${biz}&charset=GBK&method=alipay.mobile.public.menu.add&sign_type=RSA2&timestamp=2014-07-24 03:07:50&version=1.0`,
    );
  });
});

describe('pieces', () => {
  it('notification content leaves out sign, sign_type and empty values', () => {
    expect(notifySignContent({ b: '2', a: '1', sign: 'x', sign_type: 'RSA2', c: '' })).toBe('a=1&b=2');
    expect(requestSignContent({ b: '2', a: '1', sign: 'x', sign_type: 'RSA2', c: '' })).toBe('a=1&b=2&sign_type=RSA2');
  });

  it('signed request parameters check with the app public key', () => {
    const alipay = new Alipay(config({ now: () => Date.UTC(2024, 0, 1, 4, 5, 6) }));
    const p = alipay.signedParams('alipay.trade.query', { out_trade_no: 'O1' });
    expect(p).toMatchObject({
      app_id: '2018121762595097',
      sign_type: 'RSA2',
      charset: 'utf-8',
      timestamp: '2024-01-01 12:05:06',
    });
    expect(rsa2Verify(requestSignContent(p), p.sign, app.publicKey)).toBe(true);
  });

  it('the WAP step is a signed URL to the gateway (nothing sent from here)', async () => {
    const alipay = new Alipay(config({ gateway: 'https://gw.example/gateway.do' }));
    const o = await alipay.createOrder({
      method: 'alipay_wap',
      outTradeNo: 'O9',
      amountFen: 12345,
      description: '10次卡',
      notifyUrl: 'https://studio.example/notify',
      returnUrl: 'https://studio.example/m/orders',
    });
    if (o.method !== 'alipay_wap') throw new Error('wrong method');
    const u = new URL(o.redirectUrl);
    expect(`${u.origin}${u.pathname}`).toBe('https://gw.example/gateway.do');
    const p = Object.fromEntries(u.searchParams);
    expect(JSON.parse(p.biz_content)).toMatchObject({
      out_trade_no: 'O9',
      total_amount: '123.45',
      product_code: 'QUICK_WAP_WAY',
    });
    expect(p.method).toBe('alipay.trade.wap.pay');
    expect(rsa2Verify(requestSignContent(p), p.sign, app.publicKey)).toBe(true);
  });

  it('keys as the console shows them (bare base64) are accepted', () => {
    const bare = (s: string) => s.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const a = new Alipay(
      config({
        appPrivateKey: bare(app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
        alipayPublicKey: bare(NOTIFY_PUBLIC_KEY_V1),
      }),
    );
    expect(a.verifyParams(REAL_NOTIFICATION)).toBe(REAL_NOTIFICATION);
    expect(() => new Alipay(config({ appPrivateKey: 'nope' }))).toThrow(/应用私钥/);
    expect(() => new Alipay(config({ alipayPublicKey: 'nope' }))).toThrow(/支付宝公钥/);
  });

  it('answers the text success / fail', () => {
    const a = new Alipay(config());
    expect(a.notifyAnswer(true)).toEqual({ status: 200, contentType: 'text/plain', body: 'success' });
    expect(a.notifyAnswer(false).body).toBe('fail');
  });

  it('money: yuan strings to fen and back, exactly', () => {
    expect(yuanToFen('0.01', 'alipay')).toBe(1);
    expect(yuanToFen('123.4', 'alipay')).toBe(12340);
    expect(yuanToFen('-30.50', 'alipay')).toBe(-3050);
    expect(yuanToFen('19.99', 'alipay')).toBe(1999);
    expect(() => yuanToFen('1.234', 'alipay')).toThrow(PaymentProviderError);
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(100000)).toBe('1000.00');
  });

  it('rawJsonMember finds top-level members only, whatever the order', () => {
    const text = '{"sign":"S","x_response":{"sign":"inner","a":[1,{"b":"}"}]},"n":12}';
    expect(rawJsonMember(text, 'x_response')).toBe('{"sign":"inner","a":[1,{"b":"}"}]}');
    expect(rawJsonMember(text, 'sign')).toBe('"S"');
    expect(rawJsonMember(text, 'n')).toBe('12');
    expect(rawJsonMember(text, 'a')).toBeUndefined();
  });

  it('decodes GBK bills and reads the detail lines between the # lines', () => {
    expect(decodeBillText(Buffer.from([0xbd, 0xbb, 0xd2, 0xd7]))).toBe('交易');
    const csv = [
      '#支付宝业务明细查询',
      '#账号：[2088000000000001]',
      '#-----------------------------------------业务明细列表----------------------------------------',
      '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注',
      '2024010122001\t,O1\t,交易\t,10次卡\t,2024-01-01 09:59:00\t,2024-01-01 10:00:00\t,,,,,159****5620\t,99.00\t,99.00\t,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,\t,0.00,0.00,',
      '2024010122001\t,O1\t,退款\t,10次卡\t,2024-01-01 09:59:00\t,2024-01-01 11:00:00\t,,,,,159****5620\t,-30.50\t,-30.50\t,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,R1\t,0.00,0.00,',
      '#-----------------------------------------业务明细列表结束------------------------------------',
      '#交易合计：1笔',
    ].join('\r\n');
    expect(parseAlipayBill(csv)).toEqual([
      {
        outTradeNo: 'O1',
        providerTradeId: '2024010122001',
        amountFen: 9900,
        kind: 'pay',
        outRefundNo: null,
        at: new Date('2024-01-01T02:00:00Z'),
      },
      {
        outTradeNo: 'O1',
        providerTradeId: '2024010122001',
        amountFen: 3050,
        kind: 'refund',
        outRefundNo: 'R1',
        at: new Date('2024-01-01T03:00:00Z'),
      },
    ]);
  });

  it('unzip reads stored and deflated entries (UTF-8 flagged names)', () => {
    const entry = (name: string, data: Buffer, deflate: boolean, offset: number) => {
      const packed = deflate ? zlib.deflateRawSync(data) : data;
      const n = Buffer.from(name);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(0x800, 6);
      local.writeUInt16LE(deflate ? 8 : 0, 8);
      local.writeUInt32LE(packed.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(n.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(0x800, 8);
      central.writeUInt16LE(deflate ? 8 : 0, 10);
      central.writeUInt32LE(packed.length, 20);
      central.writeUInt32LE(data.length, 24);
      central.writeUInt16LE(n.length, 28);
      central.writeUInt32LE(offset, 42);
      return { local: Buffer.concat([local, n, packed]), central: Buffer.concat([central, n]) };
    };
    const a = entry('明细.csv', Buffer.from('hello'), true, 0);
    const b = entry('b.txt', Buffer.from('plain'), false, a.local.length);
    const cd = Buffer.concat([a.central, b.central]);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(2, 8);
    end.writeUInt16LE(2, 10);
    end.writeUInt32LE(cd.length, 12);
    end.writeUInt32LE(a.local.length + b.local.length, 16);
    const files = unzip(Buffer.concat([a.local, b.local, cd, end]));
    expect(files.map((f) => [f.name, f.data.toString()])).toEqual([
      ['明细.csv', 'hello'],
      ['b.txt', 'plain'],
    ]);
    expect(() => unzip(Buffer.from('not a zip at all, not at all, really not a zip'))).toThrow(PaymentProviderError);
  });
});
