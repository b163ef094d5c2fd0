import { afterAll, beforeAll } from 'vitest';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { parseAllowHosts } from '../src/lib/outbound.ts';
import { updateMemberPage, updatePaySetting } from '@studio/contract';
import type { App, Client } from './harness.ts';

// ---- local stand-ins of WeChat Pay API v3 and the Alipay openapi gateway. Each signs, verifies and
// encrypts by its own reading of the provider's documentation (nothing here comes from the
// adapters), keeps orders in memory and offers test controls: pay (and notify), refuse refunds,
// serve a day's bill, forge answers, and a pay page with a 确认支付 button for browser tests.

/** One notification the stand-in sent, and what the app answered. */
export interface Delivery {
  outTradeNo: string;
  event: string;
  status: number;
  body: string;
  /** WeChat: the key its signature names (Wechatpay-Serial). */
  serial?: string;
}

/** How pay() / notify() deliver: N copies at once, after a delay, forged, or with other values. */
export interface NotifyOptions {
  times?: number;
  delayMs?: number;
  /** Signed with a key that is not the provider's. */
  forge?: boolean;
  /** WeChat: another mchid / appid in the resource; Alipay: another seller_id / app_id. */
  merchantId?: string;
  appId?: string;
  amountFen?: number;
  /** WeChat: the notification's timestamp moved by this many seconds (a replayed old one). */
  timestampOffsetSec?: number;
  /** Don't notify at all (pay only). */
  silent?: boolean;
}

/** A line of a bill a test sets by hand (reconciliation differences). */
export interface StandInBillRow {
  outTradeNo: string;
  tradeId: string;
  amountFen: number;
  kind: 'pay' | 'refund';
  outRefundNo?: string;
  /** Beijing time "YYYY-MM-DD HH:mm:ss"; defaults to noon of the bill's day. */
  time?: string;
}

const yuan = (fen: number) =>
  `${fen < 0 ? '-' : ''}${Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`;
const fenOf = (s: string) => {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
};
/** Beijing wall time, "YYYY-MM-DD HH:mm:ss". */
const bjTime = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
const rfc3339 = (ms: number) => `${bjTime(ms).replace(' ', 'T')}+08:00`;
const randomAlnum = (n: number) => {
  const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.randomBytes(n), (b) => a[b % a.length]).join('');
};
const digits = (n: number) => Array.from(crypto.randomBytes(n), (b) => String(b % 10)).join('');
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function rsaKeys() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** POSTs a notification to the app (the provider's side: no outbound gate here). */
function postTo(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function payPage(
  title: string,
  amountFen: number,
  description: string,
  state: 'open' | 'paid' | 'closed',
  back?: string,
) {
  const body =
    state === 'open'
      ? `<form method="post"><button type="submit" style="font-size:20px;padding:12px 48px">确认支付</button></form>`
      : state === 'paid'
        ? `<p id="result">支付成功</p>${back ? `<p><a href="${escapeHtml(back)}">返回商家</a></p>` : ''}`
        : `<p id="result">订单已关闭</p>`;
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;text-align:center;padding:24px"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(description)}</p><p style="font-size:32px">￥${yuan(amountFen)}</p>${body}</body></html>`;
}

async function listen(server: http.Server, app?: App) {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const allow = parseAllowHosts(`127.0.0.1:${port}`);
  app?.deps.config.outboundAllowHosts.push(...allow);
  return { base: `http://127.0.0.1:${port}`, allow, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A DER element: tag, length, content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}
const derOid = (oid: number[]) => {
  const [a, b, ...rest] = oid;
  const bytes = [a * 40 + b];
  for (const v of rest) {
    const parts = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) parts.unshift((x & 0x7f) | 0x80);
    bytes.push(...parts);
  }
  return der(0x06, Buffer.from(bytes));
};
const derTime = (ms: number) =>
  der(0x17, Buffer.from(`${new Date(ms).toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));

/**
 * A self-signed X.509 certificate (PEM) of an RSA key, as WeChat Pay's platform certificates are
 * (X.509 v3, SHA256withRSA), with a 20-byte serial number: its uppercase hex is what `Wechatpay-Serial`
 * names. Built by hand (DER) since node:crypto parses certificates but does not make them.
 */
function selfSignedCertificate(keys: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject }) {
  const serial = crypto.randomBytes(20);
  serial[0] = (serial[0] & 0x7f) | 0x10; // positive, 20 bytes
  const sha256WithRsa = der(0x30, derOid([1, 2, 840, 113549, 1, 1, 11]), der(0x05));
  const name = der(
    0x30,
    der(0x31, der(0x30, derOid([2, 5, 4, 6]), der(0x13, Buffer.from('CN')))),
    der(0x31, der(0x30, derOid([2, 5, 4, 10]), der(0x0c, Buffer.from('Tenpay.com stand-in')))),
    der(0x31, der(0x30, derOid([2, 5, 4, 3]), der(0x0c, Buffer.from('Tenpay.com Root CA stand-in')))),
  );
  const now = Date.now();
  const tbs = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    sha256WithRsa,
    name,
    der(0x30, derTime(now - 86_400_000), derTime(now + 5 * 365 * 86_400_000)),
    name,
    keys.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = crypto.sign('sha256', tbs, keys.privateKey);
  const cert = der(0x30, tbs, sha256WithRsa, der(0x03, Buffer.from([0]), signature));
  const b64 = cert
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return {
    pem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    serialNo: serial.toString('hex').toUpperCase(),
  };
}

/**
 * WeChat Pay's keys of a merchant: a 微信支付公钥 only (new merchants), platform certificates only (older
 * ones), or both while the merchant switches from certificates to the public key (WeChat then signs an
 * answer with the key the request's `Wechatpay-Serial` names, a notification with either).
 */
export type WechatKeyMode = 'public_key' | 'certificate' | 'switching';

// ============================== WeChat Pay API v3 ==============================

interface WxOrder {
  appid: string;
  mchid: string;
  outTradeNo: string;
  description: string;
  totalFen: number;
  notifyUrl: string;
  tradeType: 'NATIVE' | 'JSAPI';
  openid: string;
  /** REVOKED (已撤销) and PAYERROR (支付失败) are set by a test (`setState`): ends like CLOSED. */
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND' | 'REVOKED' | 'PAYERROR';
  transactionId: string;
  successTime: number | null;
  prepayId: string;
  refundedFen: number;
}

interface WxRefund {
  outRefundNo: string;
  refundId: string;
  outTradeNo: string;
  transactionId: string;
  refundFen: number;
  totalFen: number;
  /** ABNORMAL (退款异常): the money could not reach the payer's route; the merchant handles it, it may end SUCCESS. */
  status: 'PROCESSING' | 'SUCCESS' | 'CLOSED' | 'ABNORMAL';
  createTime: number;
  successTime: number | null;
  notifyUrl: string;
}

/** Starts a WeChat Pay v3 stand-in (pay API, bill download, OAuth) on 127.0.0.1. */
export async function startWechatPayStandIn(
  opts: { app?: App; mchid?: string; appid?: string; keys?: WechatKeyMode } = {},
) {
  const mchid = opts.mchid ?? '1900009191';
  const appid = opts.appid ?? 'wxd678efh567hg6787';
  const appSecret = randomAlnum(32);
  const apiV3Key = randomAlnum(32);
  const merchant = rsaKeys();
  const merchantSerialNo = crypto.randomBytes(20).toString('hex').toUpperCase();
  const platform = rsaKeys();
  const platformKeyId = `PUB_KEY_ID_01${digits(30)}`;
  const certificateKeys = rsaKeys();
  const certificate = selfSignedCertificate(certificateKeys);
  const stranger = rsaKeys();
  /** Each answer's and notification's signer: the 微信支付公钥 (by its id) or the platform certificate (by its serial). */
  const publicKeySigner = { key: platform.privateKey, serial: platformKeyId };
  const certificateSigner = { key: certificateKeys.privateKey, serial: certificate.serialNo };
  /** The Wechatpay-Serial a request named, by its answer. */
  const askedSerial = new WeakMap<http.ServerResponse, string>();
  let notified = 0;
  const orders = new Map<string, WxOrder>();
  const refunds = new Map<string, WxRefund>();
  const bills = new Map<string, StandInBillRow[]>();
  const billFiles = new Map<string, string>();
  const oauthCodes = new Map<string, string>();
  const deliveries: Delivery[] = [];
  const control = {
    refuse: null as null | 'now' | 'later',
    refuseMessage: '基本账户余额不足，请充值后重新发起',
    settleRefunds: 'immediately' as 'immediately' | 'manual',
    /** Which of WeChat Pay's keys the merchant has (a test may move it: certificate -> switching -> public_key). */
    keys: (opts.keys ?? 'public_key') as WechatKeyMode,
    /** The Wechatpay-Serial header of each request (none: ''). */
    requestSerials: [] as string[],
    /** Refund numbers whose query fails (500 SYSTEM_ERROR, as WeChat answers an outage). */
    failRefundQueries: new Set<string>(),
    forgeAnswers: false,
    /** Every request whose signature did not check (method and path). */
    badSignatures: [] as string[],
  };
  let base = '';

  // 签名生成: Authorization = WECHATPAY2-SHA256-RSA2048 with mchid, nonce_str, timestamp, serial_no and
  // signature over "method\nurl\ntimestamp\nnonce\nbody\n" (the url as requested: path and query).
  const verifyRequest = (req: http.IncomingMessage, body: string) => {
    const auth = String(req.headers.authorization ?? '');
    if (!auth.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return false;
    const fields = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (fields.mchid !== mchid || fields.serial_no !== merchantSerialNo) return false;
    if (!/^\d+$/.test(fields.timestamp ?? '') || Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300)
      return false;
    const message = [req.method, req.url, fields.timestamp, fields.nonce_str, body].join('\n') + '\n';
    const v = crypto.createVerify('RSA-SHA256');
    v.update(message);
    return v.verify(merchant.publicKey, fields.signature ?? '', 'base64');
  };

  // 签名验证 (the other side): the answer's signature over "timestamp\nnonce\nbody\n".
  // Which key signs: the merchant's only one; while switching, an answer the key its request named
  // (the certificate when it named none), a notification either (here: by turns).
  const signerOf = (requested?: string) => {
    if (control.keys === 'certificate') return certificateSigner;
    if (control.keys === 'public_key') return publicKeySigner;
    if (requested === undefined) return notified++ % 2 === 0 ? publicKeySigner : certificateSigner;
    return requested === platformKeyId ? publicKeySigner : certificateSigner;
  };
  const signedHeaders = (
    text: string,
    signer: { key: crypto.KeyObject; serial: string },
    tsOffset = 0,
    forge = false,
  ) => {
    const ts = String(Math.floor(Date.now() / 1000) + tsOffset);
    const nonce = randomAlnum(32);
    const s = crypto.createSign('RSA-SHA256');
    s.update(`${ts}\n${nonce}\n${text}\n`);
    return {
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': s.sign(forge ? stranger.privateKey : signer.key, 'base64'),
      'Wechatpay-Serial': signer.serial,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    };
  };

  const answer = (res: http.ServerResponse, status: number, payload?: object) => {
    const text = payload === undefined ? '' : JSON.stringify(payload);
    res.writeHead(status, {
      ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      'Request-ID': crypto.randomUUID(),
      ...signedHeaders(text, signerOf(askedSerial.get(res) ?? ''), 0, control.forgeAnswers),
    });
    res.end(text);
  };
  const err = (res: http.ServerResponse, status: number, code: string, message: string) =>
    answer(res, status, { code, message });

  const transaction = (o: WxOrder) => ({
    appid: o.appid,
    mchid: o.mchid,
    out_trade_no: o.outTradeNo,
    ...(o.transactionId ? { transaction_id: o.transactionId } : {}),
    trade_type: o.tradeType,
    trade_state: o.state,
    trade_state_desc: {
      NOTPAY: '未支付',
      SUCCESS: '支付成功',
      CLOSED: '已关闭',
      REFUND: '转入退款',
      REVOKED: '已撤销',
      PAYERROR: '支付失败',
    }[o.state],
    ...(o.successTime ? { bank_type: 'OTHERS', success_time: rfc3339(o.successTime) } : {}),
    payer: o.openid ? { openid: o.openid } : {},
    amount: { total: o.totalFen, payer_total: o.totalFen, currency: 'CNY', payer_currency: 'CNY' },
  });

  const refundJson = (r: WxRefund) => ({
    refund_id: r.refundId,
    out_refund_no: r.outRefundNo,
    transaction_id: r.transactionId,
    out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(r.successTime ? { success_time: rfc3339(r.successTime) } : {}),
    create_time: rfc3339(r.createTime),
    status: r.status,
    amount: {
      total: r.totalFen,
      refund: r.refundFen,
      payer_total: r.totalFen,
      payer_refund: r.refundFen,
      currency: 'CNY',
    },
  });

  // 回调报文解密 (the other side): AEAD_AES_256_GCM, key = APIv3 key, 12-char nonce, associated data,
  // ciphertext = base64(encrypted || 16-byte tag).
  const encrypt = (plaintext: string, associatedData: string) => {
    const nonce = randomAlnum(12);
    const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
    c.setAAD(Buffer.from(associatedData));
    const enc = Buffer.concat([c.update(plaintext, 'utf8'), c.final(), c.getAuthTag()]);
    return {
      original_type: associatedData,
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: enc.toString('base64'),
      associated_data: associatedData,
      nonce,
    };
  };

  const deliver = async (
    url: string,
    outTradeNo: string,
    event: string,
    make: () => [string, Record<string, string>],
    o: NotifyOptions,
  ) => {
    if (o.delayMs) await sleep(o.delayMs);
    const sent = await Promise.all(
      Array.from({ length: o.times ?? 1 }, async () => {
        const [body, headers] = make();
        const r = await postTo(url, body, { 'content-type': 'application/json', ...headers });
        const d: Delivery = { outTradeNo, event, status: r.status, body: r.body, serial: headers['Wechatpay-Serial'] };
        deliveries.push(d);
        return d;
      }),
    );
    return sent;
  };

  const notifyOf = (o: WxOrder, n: NotifyOptions = {}) =>
    deliver(
      o.notifyUrl,
      o.outTradeNo,
      'TRANSACTION.SUCCESS',
      () => {
        const t = transaction(o);
        const resource = encrypt(
          JSON.stringify({
            ...t,
            mchid: n.merchantId ?? o.mchid,
            appid: n.appId ?? o.appid,
            amount: { ...t.amount, total: n.amountFen ?? o.totalFen, payer_total: n.amountFen ?? o.totalFen },
          }),
          'transaction',
        );
        const body = JSON.stringify({
          id: crypto.randomUUID(),
          create_time: rfc3339(Date.now()),
          resource_type: 'encrypt-resource',
          event_type: 'TRANSACTION.SUCCESS',
          summary: '支付成功',
          resource,
        });
        return [body, signedHeaders(body, signerOf(), n.timestampOffsetSec, n.forge)];
      },
      n,
    );

  const REFUND_EVENT = {
    SUCCESS: ['REFUND.SUCCESS', '退款成功'],
    CLOSED: ['REFUND.CLOSED', '退款关闭'],
    ABNORMAL: ['REFUND.ABNORMAL', '退款异常'],
  } as const;
  const notifyRefund = (r: WxRefund, n: NotifyOptions = {}) => {
    if (!r.notifyUrl || r.status === 'PROCESSING' || n.silent) return Promise.resolve([] as Delivery[]);
    const [event, summary] = REFUND_EVENT[r.status];
    return deliver(
      r.notifyUrl,
      r.outTradeNo,
      event,
      () => {
        const j = refundJson(r);
        const resource = encrypt(
          JSON.stringify({ mchid: n.merchantId ?? mchid, ...j, refund_status: j.status, status: undefined }),
          'refund',
        );
        const body = JSON.stringify({
          id: crypto.randomUUID(),
          create_time: rfc3339(Date.now()),
          resource_type: 'encrypt-resource',
          event_type: event,
          summary,
          resource,
        });
        return [body, signedHeaders(body, signerOf(), n.timestampOffsetSec, n.forge)];
      },
      n,
    );
  };

  /**
   * A refund's end: SUCCESS, CLOSED (refused), or ABNORMAL (退款异常, from PROCESSING only; it then ends
   * SUCCESS or CLOSED later, as when the merchant handles it on the 商户平台). Notified unless `silent`.
   */
  const settle = (r: WxRefund, outcome: 'SUCCESS' | 'CLOSED' | 'ABNORMAL', n: NotifyOptions = {}) => {
    if (r.status !== 'PROCESSING' && (r.status !== 'ABNORMAL' || outcome === 'ABNORMAL'))
      return Promise.resolve([] as Delivery[]);
    const o = orders.get(r.outTradeNo);
    if (outcome === 'ABNORMAL') r.status = 'ABNORMAL';
    else if (outcome === 'CLOSED' || !o) {
      r.status = 'CLOSED';
      if (o) o.refundedFen -= r.refundFen;
    } else {
      r.status = 'SUCCESS';
      r.successTime = Date.now();
      o.state = 'REFUND';
    }
    return notifyRefund(r, n);
  };
  /** Order queries to watch (`watchQuery`): when asked, and (held) answered only once released. */
  const watched = new Map<string, { asked: () => void; answered: () => void; release: Promise<void> }>();

  const pay = async (outTradeNo: string, n: NotifyOptions = {}) => {
    const o = orders.get(outTradeNo);
    if (!o) throw new Error(`stand-in: no WeChat order ${outTradeNo}`);
    if (o.state !== 'NOTPAY' && o.state !== 'SUCCESS' && o.state !== 'REFUND')
      throw new Error(`stand-in: WeChat order ${outTradeNo} is ${o.state}`);
    if (o.state === 'NOTPAY') {
      o.state = 'SUCCESS';
      o.transactionId = `4200${digits(24)}`;
      o.successTime = Date.now();
    }
    return n.silent ? [] : notifyOf(o, n);
  };

  const billText = (date: string) => {
    const rows: StandInBillRow[] = bills.get(date) ?? [
      ...[...orders.values()]
        .filter((o) => o.successTime && bjTime(o.successTime).startsWith(date))
        .map((o) => ({
          outTradeNo: o.outTradeNo,
          tradeId: o.transactionId,
          amountFen: o.totalFen,
          kind: 'pay' as const,
          time: bjTime(o.successTime ?? 0),
        })),
      ...[...refunds.values()]
        .filter((r) => r.status === 'SUCCESS' && r.successTime && bjTime(r.successTime).startsWith(date))
        .map((r) => ({
          outTradeNo: r.outTradeNo,
          tradeId: r.transactionId,
          amountFen: r.refundFen,
          kind: 'refund' as const,
          outRefundNo: r.outRefundNo,
          time: bjTime(r.successTime ?? 0),
        })),
    ];
    if (!rows.length) return null;
    const head =
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
    const lines = rows.map((r) => {
      const refund = r.kind === 'refund';
      const o = orders.get(r.outTradeNo);
      const f = [
        r.time ?? `${date} 12:00:00`,
        appid,
        mchid,
        '0',
        '',
        r.tradeId,
        r.outTradeNo,
        o?.openid ?? '',
        o?.tradeType ?? 'NATIVE',
        refund ? 'REFUND' : 'SUCCESS',
        'OTHERS',
        'CNY',
        refund ? '0.00' : yuan(r.amountFen),
        '0.00',
        refund ? `50${digits(27)}` : '0',
        refund ? (r.outRefundNo ?? '') : '0',
        refund ? yuan(r.amountFen) : '0.00',
        '0.00',
        refund ? 'ORIGINAL' : '',
        refund ? 'SUCCESS' : '',
        o?.description ?? '商品',
        '',
        '0.00000',
        '0.60%',
        refund ? '0.00' : yuan(r.amountFen),
        refund ? yuan(r.amountFen) : '0.00',
        '',
      ];
      return f.map((x) => `\`${x}`).join(',');
    });
    const paid = rows.filter((r) => r.kind === 'pay').reduce((s, r) => s + r.amountFen, 0);
    const back = rows.filter((r) => r.kind === 'refund').reduce((s, r) => s + r.amountFen, 0);
    const summary = [
      '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
      [String(rows.length), yuan(paid), yuan(back), '0.00', '0.00000', yuan(paid), yuan(back)]
        .map((x) => `\`${x}`)
        .join(','),
    ];
    return [head, ...lines, ...summary].join('\r\n') + '\r\n';
  };

  const api = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string) => {
    const serial = String(req.headers['wechatpay-serial'] ?? '');
    control.requestSerials.push(serial);
    askedSerial.set(res, serial);
    // 微信支付公钥: a Wechatpay-Serial that is not the merchant's public key id is refused (INVALID_REQUEST);
    // a merchant on certificates only is answered with its certificate whatever the request names.
    if (serial && control.keys !== 'certificate' && serial !== platformKeyId) {
      return err(res, 400, 'INVALID_REQUEST', 'Wechatpay-Serial 与商户的微信支付公钥 ID 不符');
    }
    if (!verifyRequest(req, body)) {
      control.badSignatures.push(`${req.method} ${url.pathname}`);
      return err(res, 401, 'SIGN_ERROR', '签名错误，请检查后再试');
    }
    const json = (body ? JSON.parse(body) : {}) as Record<string, any>;
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && (m = /^\/v3\/pay\/transactions\/(native|jsapi)$/.exec(p))) {
      const jsapi = m[1] === 'jsapi';
      if (json.mchid !== mchid || json.appid !== appid)
        return err(res, 400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
      const total = json.amount?.total;
      if (!Number.isSafeInteger(total) || total <= 0 || !json.out_trade_no || !json.notify_url || !json.description) {
        return err(res, 400, 'PARAM_ERROR', '参数错误');
      }
      if (jsapi && !json.payer?.openid)
        return err(
          res,
          400,
          'PARAM_ERROR',
          '输入源“/body/payer/openid”映射到字段“用户标识”必填性规则校验失败，此字段为必填项',
        );
      const old = orders.get(json.out_trade_no);
      if (old && (old.state !== 'NOTPAY' || old.totalFen !== total)) {
        return old.state === 'SUCCESS'
          ? err(res, 400, 'ORDERPAID', '该订单已支付')
          : err(res, 400, 'INVALID_REQUEST', '201 商户订单号重复');
      }
      const o: WxOrder = old ?? {
        appid,
        mchid,
        outTradeNo: json.out_trade_no,
        description: json.description,
        totalFen: total,
        notifyUrl: json.notify_url,
        tradeType: jsapi ? 'JSAPI' : 'NATIVE',
        openid: jsapi ? json.payer.openid : '',
        state: 'NOTPAY',
        transactionId: '',
        successTime: null,
        prepayId: `wx${digits(8)}${randomAlnum(24)}`,
        refundedFen: 0,
      };
      orders.set(o.outTradeNo, o);
      return answer(
        res,
        200,
        jsapi ? { prepay_id: o.prepayId } : { code_url: `${base}/wechat/pay/${encodeURIComponent(o.outTradeNo)}` },
      );
    }
    if (req.method === 'GET' && (m = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(p))) {
      const o = orders.get(decodeURIComponent(m[1]));
      if (!o || url.searchParams.get('mchid') !== mchid) return err(res, 404, 'ORDER_NOT_EXIST', '订单不存在');
      const w = watched.get(o.outTradeNo);
      if (w) {
        watched.delete(o.outTradeNo);
        w.asked();
        await w.release;
        res.once('finish', w.answered);
      }
      return answer(res, 200, transaction(o));
    }
    if (req.method === 'POST' && (m = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(p))) {
      const o = orders.get(decodeURIComponent(m[1]));
      if (!o) return err(res, 404, 'ORDER_NOT_EXIST', '订单不存在');
      if (o.state === 'SUCCESS' || o.state === 'REFUND') return err(res, 400, 'ORDERPAID', '该订单已支付');
      // An order that ended otherwise (撤销, 支付失败) is not closed again: 订单已关闭.
      if (o.state === 'REVOKED' || o.state === 'PAYERROR') return err(res, 400, 'ORDER_CLOSED', '订单已关闭');
      o.state = 'CLOSED';
      return answer(res, 204);
    }
    if (req.method === 'POST' && p === '/v3/refund/domestic/refunds') {
      const o = orders.get(json.out_trade_no);
      if (!o) return err(res, 404, 'RESOURCE_NOT_EXISTS', '订单不存在');
      const existing = refunds.get(json.out_refund_no);
      if (existing) return answer(res, 200, refundJson(existing));
      if (o.state !== 'SUCCESS' && o.state !== 'REFUND')
        return err(res, 400, 'INVALID_REQUEST', '订单未支付，不能退款');
      const refund = json.amount?.refund;
      if (json.amount?.total !== o.totalFen) return err(res, 400, 'PARAM_ERROR', '订单金额与原订单不符');
      if (!Number.isSafeInteger(refund) || refund <= 0 || o.refundedFen + refund > o.totalFen) {
        return err(res, 400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
      }
      if (control.refuse === 'now') return err(res, 403, 'NOT_ENOUGH', control.refuseMessage);
      const r: WxRefund = {
        outRefundNo: json.out_refund_no,
        refundId: `50${digits(27)}`,
        outTradeNo: o.outTradeNo,
        transactionId: o.transactionId,
        refundFen: refund,
        totalFen: o.totalFen,
        status: 'PROCESSING',
        createTime: Date.now(),
        successTime: null,
        notifyUrl: json.notify_url ?? '',
      };
      o.refundedFen += refund;
      refunds.set(r.outRefundNo, r);
      answer(res, 200, refundJson(r));
      if (control.settleRefunds === 'immediately') void settle(r, control.refuse === 'later' ? 'CLOSED' : 'SUCCESS');
      return;
    }
    if (req.method === 'GET' && (m = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(p))) {
      if (control.failRefundQueries.has(decodeURIComponent(m[1]))) return err(res, 500, 'SYSTEM_ERROR', '系统错误');
      const r = refunds.get(decodeURIComponent(m[1]));
      if (!r) return err(res, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
      return answer(res, 200, refundJson(r));
    }
    if (req.method === 'GET' && p === '/v3/bill/tradebill') {
      const text = billText(url.searchParams.get('bill_date') ?? '');
      if (!text) return err(res, 400, 'NO_STATEMENT_EXIST', '账单不存在');
      const token = randomAlnum(24);
      billFiles.set(token, text);
      return answer(res, 200, {
        download_url: `${base}/v3/billdownload/file?token=${token}`,
        hash_type: 'SHA1',
        hash_value: crypto.createHash('sha1').update(text, 'utf8').digest('hex'),
      });
    }
    if (req.method === 'GET' && p === '/v3/billdownload/file') {
      const text = billFiles.get(url.searchParams.get('token') ?? '');
      if (!text) return err(res, 404, 'RESOURCE_NOT_EXISTS', '账单不存在');
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(text);
    }
    return err(res, 404, 'NOT_FOUND', '接口不存在');
  };

  const server = http.createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (url.pathname.startsWith('/v3/')) return api(req, res, url, body);
      if (url.pathname === '/sns/oauth2/access_token') {
        const q = url.searchParams;
        res.setHeader('content-type', 'application/json');
        const openid = oauthCodes.get(q.get('code') ?? '');
        if (q.get('appid') !== appid || q.get('secret') !== appSecret) {
          return res.end(JSON.stringify({ errcode: 40125, errmsg: 'invalid appsecret' }));
        }
        if (q.get('grant_type') !== 'authorization_code' || !openid) {
          return res.end(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }));
        }
        oauthCodes.delete(q.get('code') ?? '');
        return res.end(
          JSON.stringify({
            access_token: randomAlnum(40),
            expires_in: 7200,
            refresh_token: randomAlnum(40),
            openid,
            scope: 'snsapi_base',
          }),
        );
      }
      const page = /^\/wechat\/pay\/([^/]+)$/.exec(url.pathname);
      const o = page ? orders.get(decodeURIComponent(page[1])) : undefined;
      if (!o) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('not found');
      }
      if (req.method === 'POST' && o.state === 'NOTPAY') await pay(o.outTradeNo);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        payPage(
          '微信支付',
          o.totalFen,
          o.description,
          o.state === 'NOTPAY' ? 'open' : o.state === 'SUCCESS' || o.state === 'REFUND' ? 'paid' : 'closed',
        ),
      );
    });
  });
  const l = await listen(server, opts.app);
  base = l.base;

  return {
    base: l.base,
    allow: l.allow,
    close: l.close,
    orders,
    refunds,
    deliveries,
    control,
    /** The adapter settings that reach this stand-in (plain values: the stand-in knows no adapter). */
    config: () => ({
      mchid,
      appid,
      apiV3Key,
      merchantSerialNo,
      merchantPrivateKey: merchant.privatePem,
      /** What the merchant holds of WeChat Pay's keys in its mode. */
      platformKeys: [
        ...(control.keys === 'certificate' ? [] : [{ id: platformKeyId, pem: platform.publicPem }]),
        ...(control.keys === 'public_key' ? [] : [{ pem: certificate.pem }]),
      ],
      publicKeyId: control.keys === 'certificate' ? undefined : platformKeyId,
      publicKey: { id: platformKeyId, pem: platform.publicPem },
      certificate: { serialNo: certificate.serialNo, pem: certificate.pem },
      appSecret,
      apiBase: l.base,
      oauthBase: l.base,
    }),
    /** The member pays: the order is paid and the notification sent (unless `silent`). */
    pay,
    /** An unpaid order ends at WeChat without us: 已撤销 (REVOKED) or 支付失败 (PAYERROR). */
    setState: (outTradeNo: string, state: 'REVOKED' | 'PAYERROR') => {
      const o = orders.get(outTradeNo);
      if (!o || o.state !== 'NOTPAY') throw new Error(`stand-in: no unpaid WeChat order ${outTradeNo}`);
      o.state = state;
    },
    /** Sends the payment notification again (or forged, or changed), the order unchanged. */
    notify: (outTradeNo: string, n: NotifyOptions = {}) => {
      const o = orders.get(outTradeNo);
      if (!o) throw new Error(`stand-in: no WeChat order ${outTradeNo}`);
      return notifyOf(o, n);
    },
    /**
     * Settles a refund left PROCESSING (control.settleRefunds = 'manual'): success, refused (true or
     * 'CLOSED'), or 'ABNORMAL' (退款异常, which a later call ends SUCCESS or CLOSED); notified unless silent.
     */
    settleRefund: (
      outRefundNo: string,
      outcome: boolean | 'SUCCESS' | 'CLOSED' | 'ABNORMAL' = false,
      n: NotifyOptions = {},
    ) => {
      const r = refunds.get(outRefundNo);
      if (!r) throw new Error(`stand-in: no WeChat refund ${outRefundNo}`);
      return settle(r, outcome === true ? 'CLOSED' : outcome === false ? 'SUCCESS' : outcome, n);
    },
    /**
     * Watches the next query of an order: `asked` resolves when it arrives; with `hold`, its answer waits
     * until `release()` (a test kills the app meanwhile: it asked and never heard); `answered` resolves
     * once the answer has been written out whole.
     */
    watchQuery: (outTradeNo: string, o: { hold?: boolean } = {}) => {
      let asked!: () => void;
      let answered!: () => void;
      let release: () => void = () => {};
      const w = {
        asked: new Promise<void>((r) => (asked = r)),
        answered: new Promise<void>((r) => (answered = r)),
        release: () => release(),
      };
      watched.set(outTradeNo, {
        asked,
        answered,
        release: o.hold ? new Promise<void>((r) => (release = r)) : Promise.resolve(),
      });
      return w;
    },
    /** The day's bill as given (instead of the one made from the orders paid and refunded that day). */
    setBill: (date: string, rows: StandInBillRow[]) => bills.set(date, rows),
    /** A web-authorisation code for this openid (one use). */
    oauthCode: (openid: string) => {
      const code = randomAlnum(32);
      oauthCodes.set(code, openid);
      return code;
    },
    payPageUrl: (outTradeNo: string) => `${l.base}/wechat/pay/${encodeURIComponent(outTradeNo)}`,
  };
}

// ============================== Alipay openapi ==============================

interface AliOrder {
  outTradeNo: string;
  subject: string;
  totalFen: number;
  notifyUrl: string;
  returnUrl: string;
  /** null: the QR / page was never opened, so Alipay has no trade yet. */
  status: null | 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string;
  createdAt: number;
  paidAt: number | null;
  refundedFen: number;
  refunds: Map<string, { amountFen: number; at: number }>;
  /** Accepted, not paid yet (control.refundsPending): fund_change N, the query without refund_status. */
  pending: Map<string, number>;
}

/** GBK bytes of a string, from Node's own GBK decoder run backwards (no encoder ships with Node). */
let gbkTable: Map<string, number[]> | undefined;
function gbk(s: string): Buffer {
  if (!gbkTable) {
    gbkTable = new Map();
    const dec = new TextDecoder('gbk');
    for (let hi = 0x81; hi <= 0xfe; hi++) {
      for (let lo = 0x40; lo <= 0xfe; lo++) {
        if (lo === 0x7f) continue;
        const ch = dec.decode(Uint8Array.of(hi, lo));
        if (ch.length === 1 && ch !== '\uFFFD' && !gbkTable.has(ch)) gbkTable.set(ch, [hi, lo]);
      }
    }
  }
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0x3f;
    out.push(...(c < 0x80 ? [c] : (gbkTable.get(ch) ?? [0x3f])));
  }
  return Buffer.from(out);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A zip archive (deflated entries, GBK names as Alipay writes them) with node:zlib and a CRC-32. */
function zip(files: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = gbk(f.name);
    const packed = zlib.deflateRawSync(f.data);
    const crc = crc32(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Starts an Alipay openapi gateway stand-in (gateway.do, WAP page, bill file) on 127.0.0.1. */
export async function startAlipayStandIn(opts: { app?: App; appId?: string; sellerId?: string } = {}) {
  const appId = opts.appId ?? '2021000000000001';
  const sellerId = opts.sellerId ?? '2088000000000001';
  const appKeys = rsaKeys();
  const alipayKeys = rsaKeys();
  const stranger = rsaKeys();
  const orders = new Map<string, AliOrder>();
  const bills = new Map<string, StandInBillRow[]>();
  const billFiles = new Map<string, Buffer>();
  /** Pending refunds that ended without paying: asked for again, refused with this. */
  const failedRefunds = new Map<string, { subCode: string; subMsg: string }>();
  const deliveries: Delivery[] = [];
  const control = {
    refuse: null as null | { subCode: string; subMsg: string },
    /**
     * Refunds accepted but not paid at once: the refund answers 10000 with fund_change N and its query
     * 10000 without refund_status (not received or not done yet), until settleRefund() pays or fails it.
     */
    refundsPending: false,
    forgeAnswers: false,
    /** Serve the bill as a plain CSV instead of the zip. */
    plainBill: false,
    badSignatures: [] as string[],
  };
  let base = '';

  // 自行实现签名: all parameters but sign and the empty ones, sorted by name (ASCII), "k=v" joined by &,
  // SHA256withRSA, base64. Requests sign sign_type too; notifications leave sign and sign_type out.
  const content = (p: Record<string, string>, leaveOut: string[]) =>
    Object.entries(p)
      .filter(([k, v]) => !leaveOut.includes(k) && v !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
  const sign = (text: string, key: crypto.KeyObject) =>
    crypto.createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');
  const verifyRequest = (p: Record<string, string>) => {
    if (p.app_id !== appId || p.sign_type !== 'RSA2' || !p.sign) return false;
    return crypto
      .createVerify('RSA-SHA256')
      .update(content(p, ['sign']), 'utf8')
      .verify(appKeys.publicKey, p.sign, 'base64');
  };

  // The answer: {"<method>_response": {...}, "sign": "..."} with sign over the node's exact JSON text.
  const answer = (res: http.ServerResponse, method: string, node: object, signed = true) => {
    const name = `${method.replace(/\./g, '_')}_response`;
    const text = JSON.stringify(node);
    const sig = signed
      ? `,"sign":"${sign(text, control.forgeAnswers ? stranger.privateKey : alipayKeys.privateKey)}"`
      : '';
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    res.end(`{"${name}":${text}${sig}}`);
  };
  const ok = (res: http.ServerResponse, method: string, fields: object) =>
    answer(res, method, { code: '10000', msg: 'Success', ...fields });
  const bad = (res: http.ServerResponse, method: string, subCode: string, subMsg: string) =>
    answer(res, method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

  const notifyParams = (o: AliOrder, n: NotifyOptions) => {
    const total = yuan(n.amountFen ?? o.totalFen);
    const p: Record<string, string> = {
      gmt_create: bjTime(o.createdAt),
      charset: 'utf-8',
      seller_email: 'studio@example.com',
      subject: o.subject,
      sign_type: 'RSA2',
      buyer_id: '2088102177846880',
      invoice_amount: total,
      notify_id: `${digits(34)}`,
      fund_bill_list: JSON.stringify([{ amount: total, fundChannel: 'ALIPAYACCOUNT' }]),
      notify_type: 'trade_status_sync',
      trade_status: o.status ?? 'WAIT_BUYER_PAY',
      receipt_amount: total,
      app_id: n.appId ?? appId,
      buyer_pay_amount: total,
      seller_id: n.merchantId ?? sellerId,
      gmt_payment: bjTime(o.paidAt ?? Date.now()),
      notify_time: bjTime(Date.now()),
      version: '1.0',
      out_trade_no: o.outTradeNo,
      total_amount: total,
      trade_no: o.tradeNo,
      auth_app_id: appId,
      buyer_logon_id: '159****5620',
      point_amount: '0.00',
    };
    p.sign = sign(content(p, ['sign', 'sign_type']), n.forge ? stranger.privateKey : alipayKeys.privateKey);
    return p;
  };

  const notifyOf = async (o: AliOrder, n: NotifyOptions = {}) => {
    if (n.delayMs) await sleep(n.delayMs);
    return Promise.all(
      Array.from({ length: n.times ?? 1 }, async () => {
        const body = new URLSearchParams(notifyParams(o, n)).toString();
        const r = await postTo(o.notifyUrl, body, {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        });
        const d: Delivery = { outTradeNo: o.outTradeNo, event: 'trade_status_sync', status: r.status, body: r.body };
        deliveries.push(d);
        return d;
      }),
    );
  };

  const open = (o: AliOrder) => {
    if (o.status === null) o.status = 'WAIT_BUYER_PAY';
  };

  const pay = async (outTradeNo: string, n: NotifyOptions = {}) => {
    const o = orders.get(outTradeNo);
    if (!o) throw new Error(`stand-in: no Alipay order ${outTradeNo}`);
    if (o.status === 'TRADE_CLOSED') throw new Error(`stand-in: Alipay order ${outTradeNo} is closed`);
    if (o.status !== 'TRADE_SUCCESS') {
      o.status = 'TRADE_SUCCESS';
      o.tradeNo = `${bjTime(Date.now()).slice(0, 10).replace(/-/g, '')}22001${digits(23)}`;
      o.paidAt = Date.now();
    }
    return n.silent ? [] : notifyOf(o, n);
  };

  const billCsv = (date: string, rows: StandInBillRow[]) => {
    const head =
      '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';
    const lines = rows.map((r) => {
      const refund = r.kind === 'refund';
      const o = orders.get(r.outTradeNo);
      const amount = yuan(refund ? -r.amountFen : r.amountFen);
      const time = r.time ?? `${date} 12:00:00`;
      return [
        r.tradeId,
        r.outTradeNo,
        refund ? '退款' : '交易',
        o?.subject ?? '商品',
        o ? bjTime(o.createdAt) : time,
        time,
        '',
        '',
        '',
        '',
        '159****5620',
        amount,
        amount,
        '0.00',
        '0.00',
        '0.00',
        '0.00',
        '0.00',
        '',
        '0.00',
        '0.00',
        refund ? (r.outRefundNo ?? '') : '',
        '0.00',
        '0.00',
        '',
      ]
        .map((x) => `${x}\t`)
        .join(',');
    });
    const d = date.replace(/-/g, '');
    const cn = (s: string) => `${s.slice(0, 4)}年${s.slice(4, 6)}月${s.slice(6, 8)}日`;
    return [
      '#支付宝业务明细查询',
      `#账号：[${sellerId}]`,
      `#起始日期：[${cn(d)} 00:00:00]   终止日期：[${cn(d)} 23:59:59]`,
      '#-----------------------------------------业务明细列表----------------------------------------',
      head,
      ...lines,
      '#-----------------------------------------业务明细列表结束------------------------------------',
      `#交易合计：${rows.filter((r) => r.kind === 'pay').length}笔`,
      `#退款合计：${rows.filter((r) => r.kind === 'refund').length}笔`,
      `#导出时间：[${cn(d)} 23:59:59]`,
    ].join('\r\n');
  };

  const billRows = (date: string): StandInBillRow[] =>
    bills.get(date) ?? [
      ...[...orders.values()]
        .filter((o) => o.paidAt && bjTime(o.paidAt).startsWith(date))
        .map((o) => ({
          outTradeNo: o.outTradeNo,
          tradeId: o.tradeNo,
          amountFen: o.totalFen,
          kind: 'pay' as const,
          time: bjTime(o.paidAt ?? 0),
        })),
      ...[...orders.values()].flatMap((o) =>
        [...o.refunds.entries()]
          .filter(([, r]) => bjTime(r.at).startsWith(date))
          .map(([no, r]) => ({
            outTradeNo: o.outTradeNo,
            tradeId: o.tradeNo,
            amountFen: r.amountFen,
            kind: 'refund' as const,
            outRefundNo: no,
            time: bjTime(r.at),
          })),
      ),
    ];

  const gateway = (res: http.ServerResponse, p: Record<string, string>) => {
    const method = p.method ?? '';
    if (!verifyRequest(p)) {
      control.badSignatures.push(method);
      // Alipay answers a bad signature without signing the answer.
      return answer(
        res,
        method,
        {
          code: '40002',
          msg: 'Invalid Arguments',
          sub_code: 'isv.invalid-signature',
          sub_msg: '验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配',
        },
        false,
      );
    }
    const biz = JSON.parse(p.biz_content || '{}') as Record<string, string>;
    const o = orders.get(biz.out_trade_no ?? '');
    switch (method) {
      case 'alipay.trade.precreate': {
        const total = fenOf(biz.total_amount ?? '');
        if (!biz.out_trade_no || !biz.subject || !(total > 0))
          return bad(res, method, 'ACQ.INVALID_PARAMETER', '参数无效');
        if (o && (o.totalFen !== total || o.status === 'TRADE_SUCCESS' || o.status === 'TRADE_CLOSED')) {
          return bad(res, method, 'ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改');
        }
        const order = o ?? newOrder(biz.out_trade_no, biz.subject, total, p.notify_url ?? '', '');
        return ok(res, method, {
          out_trade_no: order.outTradeNo,
          qr_code: `${base}/alipay/pay/${encodeURIComponent(order.outTradeNo)}`,
        });
      }
      case 'alipay.trade.query':
        if (!o || o.status === null) return bad(res, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        return ok(res, method, {
          trade_no: o.tradeNo,
          out_trade_no: o.outTradeNo,
          buyer_logon_id: '159****5620',
          trade_status: o.status,
          total_amount: yuan(o.totalFen),
          ...(o.paidAt ? { send_pay_date: bjTime(o.paidAt), buyer_pay_amount: yuan(o.totalFen) } : {}),
        });
      case 'alipay.trade.close':
        if (!o || o.status === null) {
          // Never scanned: no trade, but the QR must not work any more either.
          if (o) o.status = 'TRADE_CLOSED';
          return bad(res, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        }
        if (o.status !== 'WAIT_BUYER_PAY') return bad(res, method, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        o.status = 'TRADE_CLOSED';
        return ok(res, method, { trade_no: o.tradeNo, out_trade_no: o.outTradeNo });
      case 'alipay.trade.refund': {
        if (!o || o.status === null) return bad(res, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        const amount = fenOf(biz.refund_amount ?? '');
        const done = o.refunds.get(biz.out_request_no ?? '');
        const fields = (fundChange: 'Y' | 'N') => ({
          trade_no: o.tradeNo,
          out_trade_no: o.outTradeNo,
          buyer_logon_id: '159****5620',
          fund_change: fundChange,
          refund_fee: yuan(o.refundedFen),
          gmt_refund_pay: bjTime(done?.at ?? Date.now()),
        });
        if (done || o.pending.has(biz.out_request_no ?? '')) return ok(res, method, fields('N'));
        const failed = failedRefunds.get(biz.out_request_no ?? '');
        if (failed) return bad(res, method, failed.subCode, failed.subMsg);
        if (!o.paidAt) return bad(res, method, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        if (!biz.out_request_no || !(amount > 0) || o.refundedFen + amount > o.totalFen) {
          return bad(res, method, 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
        }
        if (control.refuse) return bad(res, method, control.refuse.subCode, control.refuse.subMsg);
        if (control.refundsPending) {
          o.pending.set(biz.out_request_no, amount);
          o.refundedFen += amount;
          return ok(res, method, fields('N'));
        }
        o.refunds.set(biz.out_request_no, { amountFen: amount, at: Date.now() });
        o.refundedFen += amount;
        if (o.refundedFen === o.totalFen) o.status = 'TRADE_CLOSED';
        return ok(res, method, fields('Y'));
      }
      case 'alipay.trade.fastpay.refund.query': {
        if (!o || o.status === null) return bad(res, method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        const r = o.refunds.get(biz.out_request_no ?? '');
        return ok(res, method, {
          trade_no: o.tradeNo,
          out_trade_no: o.outTradeNo,
          out_request_no: biz.out_request_no,
          ...(r
            ? {
                total_amount: yuan(o.totalFen),
                refund_amount: yuan(r.amountFen),
                refund_status: 'REFUND_SUCCESS',
                gmt_refund_pay: bjTime(r.at),
              }
            : {}),
        });
      }
      case 'alipay.data.dataservice.bill.downloadurl.query': {
        const rows = billRows(biz.bill_date ?? '');
        if (biz.bill_type !== 'trade' || !rows.length) return bad(res, method, 'isp.bill_not_exist', '账单不存在');
        const csv = billCsv(biz.bill_date, rows);
        const d = biz.bill_date.replace(/-/g, '');
        const file = control.plainBill
          ? gbk(csv)
          : zip([
              { name: `${sellerId}0156_${d}_业务明细.csv`, data: gbk(csv) },
              {
                name: `${sellerId}0156_${d}_业务明细(汇总).csv`,
                data: gbk(`#支付宝业务汇总查询\r\n#账号：[${sellerId}]\r\n`),
              },
            ]);
        const token = randomAlnum(24);
        billFiles.set(token, file);
        return ok(res, method, { bill_download_url: `${base}/alipay/bill/${token}` });
      }
      default:
        return answer(res, method, {
          code: '40002',
          msg: 'Invalid Arguments',
          sub_code: 'isv.invalid-method',
          sub_msg: '不存在的方法名',
        });
    }
  };

  const newOrder = (outTradeNo: string, subject: string, totalFen: number, notifyUrl: string, returnUrl: string) => {
    const o: AliOrder = {
      outTradeNo,
      subject,
      totalFen,
      notifyUrl,
      returnUrl,
      status: null,
      tradeNo: `${bjTime(Date.now()).slice(0, 10).replace(/-/g, '')}22001${digits(23)}`,
      createdAt: Date.now(),
      paidAt: null,
      refundedFen: 0,
      refunds: new Map(),
      pending: new Map(),
    };
    orders.set(outTradeNo, o);
    return o;
  };

  const page = (res: http.ServerResponse, o: AliOrder) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const state = o.status === 'TRADE_CLOSED' && !o.paidAt ? 'closed' : o.paidAt ? 'paid' : 'open';
    res.end(payPage('支付宝', o.totalFen, o.subject, state, o.returnUrl || undefined));
  };

  const server = http.createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (url.pathname === '/gateway.do') {
        const p = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(body)) };
        if (req.method === 'POST' && !url.searchParams.has('method')) return gateway(res, p);
        // The WAP pay step: the member's browser arrives with the signed parameters.
        if (!verifyRequest(p) || p.method !== 'alipay.trade.wap.pay') {
          control.badSignatures.push(p.method ?? '');
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          return res.end('<p>验签出错 (isv.invalid-signature)</p>');
        }
        const biz = JSON.parse(p.biz_content || '{}') as Record<string, string>;
        let o = orders.get(biz.out_trade_no);
        o ??= newOrder(biz.out_trade_no, biz.subject, fenOf(biz.total_amount), p.notify_url ?? '', p.return_url ?? '');
        if (req.method === 'POST' && !o.paidAt && o.status !== 'TRADE_CLOSED') await pay(o.outTradeNo);
        open(o);
        return page(res, o);
      }
      const pageMatch = /^\/alipay\/pay\/([^/]+)$/.exec(url.pathname);
      const o = pageMatch ? orders.get(decodeURIComponent(pageMatch[1])) : undefined;
      if (o) {
        if (req.method === 'POST' && !o.paidAt && o.status !== 'TRADE_CLOSED') await pay(o.outTradeNo);
        open(o);
        return page(res, o);
      }
      const bill = /^\/alipay\/bill\/([^/]+)$/.exec(url.pathname);
      const file = bill ? billFiles.get(bill[1]) : undefined;
      if (file) {
        res.writeHead(200, { 'content-type': control.plainBill ? 'text/csv' : 'application/zip' });
        return res.end(file);
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found');
    });
  });
  const l = await listen(server, opts.app);
  base = l.base;

  return {
    base: l.base,
    allow: l.allow,
    close: l.close,
    orders,
    deliveries,
    control,
    config: () => ({
      appId,
      sellerId,
      appPrivateKey: appKeys.privatePem,
      alipayPublicKey: alipayKeys.publicPem,
      gateway: `${l.base}/gateway.do`,
    }),
    /** The member opens the pay page (scans the QR): Alipay now has the trade, waiting. */
    scan: (outTradeNo: string) => {
      const o = orders.get(outTradeNo);
      if (!o) throw new Error(`stand-in: no Alipay order ${outTradeNo}`);
      open(o);
    },
    pay,
    notify: (outTradeNo: string, n: NotifyOptions = {}) => {
      const o = orders.get(outTradeNo);
      if (!o) throw new Error(`stand-in: no Alipay order ${outTradeNo}`);
      return notifyOf(o, n);
    },
    /**
     * Ends a refund left pending (control.refundsPending): paid (its query then answers REFUND_SUCCESS),
     * or failed (not paid: the query still answers without refund_status, and the refund asked for
     * again with the same number is refused with this sub_code).
     */
    settleRefund: (outRequestNo: string, outcome: 'success' | { subCode: string; subMsg: string }) => {
      const o = [...orders.values()].find((x) => x.pending.has(outRequestNo));
      if (!o) throw new Error(`stand-in: no pending Alipay refund ${outRequestNo}`);
      const amountFen = o.pending.get(outRequestNo) ?? 0;
      o.pending.delete(outRequestNo);
      if (outcome === 'success') {
        o.refunds.set(outRequestNo, { amountFen, at: Date.now() });
        if (o.refundedFen === o.totalFen) o.status = 'TRADE_CLOSED';
      } else {
        o.refundedFen -= amountFen;
        failedRefunds.set(outRequestNo, outcome);
      }
    },
    setBill: (date: string, rows: StandInBillRow[]) => bills.set(date, rows),
    payPageUrl: (outTradeNo: string) => `${l.base}/alipay/pay/${encodeURIComponent(outTradeNo)}`,
  };
}

export type WechatPayStandIn = Awaited<ReturnType<typeof startWechatPayStandIn>>;
export type AlipayStandIn = Awaited<ReturnType<typeof startAlipayStandIn>>;

/** The 在线收款 setting (update/pay/setting) that points a store at both stand-ins, with its top-up amounts. */
export function standInPaySetting(
  wx: Awaited<ReturnType<typeof startWechatPayStandIn>>,
  ali: Awaited<ReturnType<typeof startAlipayStandIn>>,
  topupAmounts = [50000, 100000],
) {
  const w = wx.config();
  const a = ali.config();
  return {
    wechat: {
      enabled: true,
      mchId: w.mchid,
      appId: w.appid,
      apiV3Key: w.apiV3Key,
      serialNo: w.merchantSerialNo,
      privateKey: w.merchantPrivateKey,
      // The 微信支付公钥 and/or the platform certificate, as the stand-in's key mode has them.
      platformPublicKey: w.publicKeyId ? w.publicKey.pem : '',
      platformPublicKeyId: w.publicKeyId ?? '',
      platformCertificates: wx.control.keys === 'public_key' ? '' : w.certificate.pem,
      // On the public key only: certificates kept from before (the switch done) are dropped.
      removePlatformCertificates: wx.control.keys === 'public_key',
      appSecret: w.appSecret,
      baseUrl: w.apiBase,
      oauthBaseUrl: w.oauthBase,
    },
    alipay: {
      enabled: true,
      appId: a.appId,
      sellerId: a.sellerId,
      privateKey: a.appPrivateKey,
      alipayPublicKey: a.alipayPublicKey,
      gateway: a.gateway,
    },
    topupAmounts,
  };
}

/** The studio's public address as the providers see it: forwards each request to the next app instance. */
export async function startGateway(apps: () => App[]) {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const list = apps();
      const app = list[next++ % list.length];
      void app
        .inject({
          method: req.method as 'POST',
          url: req.url ?? '/',
          headers: req.headers as Record<string, string>,
          payload: Buffer.concat(chunks),
        })
        .then((r) => {
          res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'text/plain') });
          res.end(r.rawPayload);
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A store selling through both stand-ins: WeChat Pay and Alipay started, the test gateway as the
 * store's public address (the notifications reach `apps` through it), the store's 在线收款 pointed at
 * the stand-ins by its manager `admin`. `close` stops all three.
 */
export async function startOnlineStore(apps: () => App[], admin: Client, o: { wechatKeys?: WechatKeyMode } = {}) {
  const wx = await startWechatPayStandIn({ app: apps()[0], keys: o.wechatKeys });
  const ali = await startAlipayStandIn({ app: apps()[0] });
  const gateway = await startGateway(apps);
  await admin.ok(updateMemberPage.path, { publicBaseUrl: gateway.base });
  await admin.ok(updatePaySetting.path, standInPaySetting(wx, ali));
  return {
    wx,
    ali,
    gateway,
    close: async () => {
      await gateway.close();
      await wx.close();
      await ali.close();
    },
  };
}
export type OnlineStore = Awaited<ReturnType<typeof startOnlineStore>>;

/** Both stand-ins for the browser suites of one file: started before its tests, stopped after them. */
export function standInsOfFile(): { wx: WechatPayStandIn; ali: AlipayStandIn } {
  const s = {} as { wx: WechatPayStandIn; ali: AlipayStandIn };
  beforeAll(async () => {
    s.wx = await startWechatPayStandIn();
    s.ali = await startAlipayStandIn();
  });
  afterAll(async () => {
    await s.wx?.close();
    await s.ali?.close();
  });
  return s;
}
