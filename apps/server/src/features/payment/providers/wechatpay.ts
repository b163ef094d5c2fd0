import crypto from 'node:crypto';
import { OutboundRefused, outboundPost, type OutboundAnswer } from '../../../lib/outbound.ts';
import { openidFromOauthCode, WechatOauthFailure } from '../../../lib/wechat-oauth.ts';
import {
  failOf,
  beijingTime,
  fromBeijingTime,
  yuanToFen,
  type BillRow,
  type CreateOrderInput,
  type CreatedOrder,
  type JsapiPayParams,
  type NotifyAnswer,
  type OrderStatus,
  type OutboundSettings,
  type PaymentProvider,
  type RawNotification,
  type RefundInput,
  type RefundStatus,
  type TradeState,
  type VerifiedNotification,
} from './types.ts';

// WeChat Pay API v3 with node:crypto: requests signed SHA256withRSA with the merchant key, answers
// and notifications checked with the platform public key, notification resources opened with
// AEAD_AES_256_GCM under the APIv3 key (pay.weixin.qq.com 签名生成 / 签名验证 / 回调报文解密).

export const WECHATPAY_API_BASE = 'https://api.mch.weixin.qq.com';
export const WECHAT_OAUTH_BASE = 'https://api.weixin.qq.com';
const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
/** Notifications and answers more than this far from our clock are refused (the documented replay window). */
const MAX_SKEW_S = 300;
const BILL_MAX_BYTES = 20 * 1024 * 1024;

export interface WechatPayConfig {
  mchid: string;
  /** The official account (公众号) appid that JSAPI and the member's openid belong to. */
  appid: string;
  /** 32 characters, set in the merchant platform. */
  apiV3Key: string;
  /** Serial number of the merchant API certificate. */
  merchantSerialNo: string;
  /** apiclient_key.pem (PKCS#8 PEM). */
  merchantPrivateKey: string;
  /**
   * WeChat Pay's keys: the platform public key and its id (PUB_KEY_ID_...), or platform
   * certificates (their serial number is the id; taken from the certificate when `id` is left out).
   */
  platformKeys: { id?: string; pem: string }[];
  /**
   * The 微信支付公钥's id (PUB_KEY_ID_...) when the merchant has one: sent as `Wechatpay-Serial` on every
   * request (微信支付公钥使用说明: the request names the key WeChat Pay signs its answer with; while a
   * merchant switches from certificates, an answer follows what the request named, and one naming
   * nothing is signed with a certificate).
   */
  publicKeyId?: string;
  /** For the member's openid (snsapi_base): the official account's AppSecret. */
  appSecret?: string;
  apiBase?: string;
  oauthBase?: string;
  outbound: OutboundSettings;
  /** The clock (tests move it). */
  now?: () => number;
}

const fail = failOf('wechat');

/** The string a request signature covers: method, path with query, timestamp, nonce, body, each line ended by \n. */
export function requestSignMessage(
  method: string,
  pathAndQuery: string,
  timestamp: string,
  nonce: string,
  body: string,
) {
  return `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The string an answer's or a notification's signature covers: timestamp, nonce, body. */
export function answerSignMessage(timestamp: string, nonce: string, body: string) {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export const rsaSha256Sign = (message: string, key: crypto.KeyLike) =>
  crypto.sign('sha256', Buffer.from(message, 'utf8'), key).toString('base64');

export function rsaSha256Verify(message: string, signature: string, key: crypto.KeyLike): boolean {
  try {
    return crypto.verify('sha256', Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The Authorization header of a request. */
export function authorizationHeader(a: {
  mchid: string;
  nonce: string;
  signature: string;
  timestamp: string;
  serialNo: string;
}) {
  return `${AUTH_SCHEMA} mchid="${a.mchid}",nonce_str="${a.nonce}",signature="${a.signature}",timestamp="${a.timestamp}",serial_no="${a.serialNo}"`;
}

/** The JSAPI pay step's parameters, paySign over appId, timeStamp, nonceStr and package (each line ended by \n). */
export function jsapiPayParams(
  appId: string,
  prepayId: string,
  key: crypto.KeyLike,
  timeStamp: string,
  nonceStr: string,
): JsapiPayParams {
  const pkg = `prepay_id=${prepayId}`;
  return {
    appId,
    timeStamp,
    nonceStr,
    package: pkg,
    signType: 'RSA',
    paySign: rsaSha256Sign(`${appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`, key),
  };
}

export interface EncryptedResource {
  algorithm?: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
  original_type?: string;
}

/** Opens a notification resource: base64 ciphertext whose last 16 bytes are the GCM tag. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== undefined && resource.algorithm !== 'AEAD_AES_256_GCM') {
    throw fail('malformed', `不支持的加密算法：${resource.algorithm}`);
  }
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw fail('malformed', '微信支付通知的密文不完整');
  try {
    const d = crypto.createDecipheriv(
      'aes-256-gcm',
      Buffer.from(apiV3Key, 'utf8'),
      Buffer.from(resource.nonce, 'utf8'),
    );
    d.setAuthTag(data.subarray(-16));
    d.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    return Buffer.concat([d.update(data.subarray(0, -16)), d.final()]).toString('utf8');
  } catch {
    throw fail('signature', '微信支付通知无法解密（APIv3 密钥不符或报文被改动）');
  }
}

const header = (headers: RawNotification['headers'], name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === wanted) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
};

/** RFC 3339 with +08:00, as WeChat Pay writes times (time_expire). */
export const rfc3339Beijing = (at: Date) => `${beijingTime(at).replace(' ', 'T')}+08:00`;

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw fail('malformed', '微信支付的应答不是可读的 JSON');
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const date = (v: unknown): Date | null => {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
};

const TRADE_STATES: Record<string, TradeState> = {
  SUCCESS: 'paid',
  REFUND: 'refunded',
  NOTPAY: 'unpaid',
  USERPAYING: 'unpaid',
  // 支付失败: the order can no longer be paid (closed, as CLOSED and REVOKED).
  PAYERROR: 'closed',
  CLOSED: 'closed',
  REVOKED: 'closed',
};

/** A transaction (query answer or decrypted notification resource) in neutral terms. */
export function toOrderStatus(t: Record<string, unknown>): OrderStatus {
  const outTradeNo = str(t.out_trade_no);
  const providerState = str(t.trade_state);
  if (!outTradeNo || !providerState) throw fail('malformed', '微信支付的订单信息缺少订单号或状态');
  const state = TRADE_STATES[providerState];
  if (!state) throw fail('malformed', `未知的微信支付订单状态：${providerState}`);
  return {
    outTradeNo,
    state,
    providerState,
    amountFen: int(obj(t.amount).total),
    providerTradeId: str(t.transaction_id),
    paidAt: date(t.success_time),
    merchantId: str(t.mchid),
    appId: str(t.appid),
  };
}

/** A refund (answer, query or decrypted notification resource) in neutral terms. */
export function toRefundStatus(r: Record<string, unknown>): RefundStatus {
  const outRefundNo = str(r.out_refund_no);
  const providerState = str(r.status) ?? str(r.refund_status);
  if (!outRefundNo || !providerState) throw fail('malformed', '微信支付的退款信息缺少退款单号或状态');
  // ABNORMAL (退款异常) is not a refusal: the money is on its way out and the merchant must act on it.
  const state =
    providerState === 'SUCCESS'
      ? 'success'
      : providerState === 'PROCESSING'
        ? 'processing'
        : providerState === 'ABNORMAL'
          ? 'abnormal'
          : 'refused';
  const reason =
    providerState === 'CLOSED' ? '退款关闭' : providerState === 'ABNORMAL' ? '退款异常，需在商户平台处理' : null;
  return {
    outTradeNo: str(r.out_trade_no),
    outRefundNo,
    state,
    providerState,
    refundFen: int(obj(r.amount).refund),
    providerRefundId: str(r.refund_id),
    reason,
    successAt: date(r.success_time),
  };
}

/** The trade bill's text (fields prefixed with a backtick) as rows; summary lines are skipped. */
export function parseTradeBill(text: string): BillRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = (lines[0] ?? '').split(',').map((h) => h.trim());
  const col = (name: string) => head.indexOf(name);
  const idx = {
    time: col('交易时间'),
    tradeId: col('微信订单号'),
    outTradeNo: col('商户订单号'),
    state: col('交易状态'),
    total: col('订单金额') >= 0 ? col('订单金额') : col('应结订单金额'),
    refund: col('申请退款金额') >= 0 ? col('申请退款金额') : col('退款金额'),
    outRefundNo: col('商户退款单号'),
  };
  if (Object.values(idx).some((i) => i < 0)) throw fail('malformed', '微信支付账单的表头无法识别');
  const rows: BillRow[] = [];
  for (const line of lines.slice(1)) {
    // Data lines start with a backtick; the totals block after them does not.
    if (!line.startsWith('`')) break;
    const f = line
      .slice(1)
      .split(',`')
      .map((x) => x.replace(/,$/, '').trim());
    const refund = f[idx.state] === 'REFUND';
    const at = fromBeijingTime(f[idx.time]);
    if (!at) throw fail('malformed', `微信支付账单的交易时间无法识别：${f[idx.time]}`);
    rows.push({
      outTradeNo: f[idx.outTradeNo],
      providerTradeId: f[idx.tradeId],
      amountFen: Math.abs(yuanToFen(f[refund ? idx.refund : idx.total], 'wechat')),
      kind: refund ? 'refund' : 'pay',
      outRefundNo: refund ? f[idx.outRefundNo] || null : null,
      at,
    });
  }
  return rows;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** Whether the answer carried a signature that checked (a 2xx answer always must). */
  signed: boolean;
  /** The key id that signed it (its Wechatpay-Serial), when signed. */
  serial: string | null;
}

/** The WeChat Pay API v3 adapter of one merchant. */
export class WechatPay implements PaymentProvider {
  readonly name = 'wechat' as const;
  private readonly key: crypto.KeyObject;
  private readonly platform = new Map<string, crypto.KeyObject>();
  private readonly apiBase: string;
  private readonly oauthBase: string;
  private readonly now: () => number;

  constructor(private readonly config: WechatPayConfig) {
    try {
      this.key = crypto.createPrivateKey(config.merchantPrivateKey);
    } catch {
      throw fail('config', '商户 API 私钥无法读取');
    }
    for (const k of config.platformKeys) {
      try {
        const id = k.id ?? new crypto.X509Certificate(k.pem).serialNumber;
        this.platform.set(id.toUpperCase(), crypto.createPublicKey(k.pem));
      } catch {
        throw fail('config', '微信支付平台公钥或平台证书无法读取');
      }
    }
    if (Buffer.byteLength(config.apiV3Key, 'utf8') !== 32) throw fail('config', 'APIv3 密钥应为 32 个字符');
    this.apiBase = (config.apiBase ?? WECHATPAY_API_BASE).replace(/\/+$/, '');
    this.oauthBase = (config.oauthBase ?? WECHAT_OAUTH_BASE).replace(/\/+$/, '');
    this.now = config.now ?? Date.now;
  }

  private nonce() {
    return crypto.randomBytes(16).toString('hex').toUpperCase();
  }

  /** Checks a signature over timestamp, nonce and body with the platform key named by the serial. */
  private checkSignature(get: (name: string) => string | undefined, body: string, what: string): void {
    const ts = get('wechatpay-timestamp');
    const nonce = get('wechatpay-nonce');
    const signature = get('wechatpay-signature');
    const serial = get('wechatpay-serial');
    if (!ts || !nonce || !signature || !serial) throw fail('signature', `${what}缺少签名`);
    const key = this.platform.get(serial.toUpperCase());
    if (!key) throw fail('signature', `${what}的平台公钥编号 ${serial} 未配置`);
    if (!/^\d+$/.test(ts) || Math.abs(this.now() / 1000 - Number(ts)) > MAX_SKEW_S) {
      throw fail('stale', `${what}的时间戳与本机相差超过 5 分钟`);
    }
    if (!rsaSha256Verify(answerSignMessage(ts, nonce, body), signature, key)) {
      throw fail('signature', `${what}签名验证失败`);
    }
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    body: string,
    maxBytes?: number,
    serial: string | null = this.config.publicKeyId ?? null,
  ): Promise<OutboundAnswer> {
    const ts = String(Math.floor(this.now() / 1000));
    const nonce = this.nonce();
    const u = new URL(url);
    const signature = rsaSha256Sign(requestSignMessage(method, `${u.pathname}${u.search}`, ts, nonce, body), this.key);
    try {
      return await outboundPost(url, body, {
        allow: this.config.outbound.allow,
        timeoutMs: this.config.outbound.timeoutMs ?? 10_000,
        method,
        maxBytes,
        headers: {
          accept: 'application/json',
          'user-agent': 'studio-payment/1',
          ...(serial ? { 'wechatpay-serial': serial } : {}),
          authorization: authorizationHeader({
            mchid: this.config.mchid,
            nonce,
            signature,
            timestamp: ts,
            serialNo: this.config.merchantSerialNo,
          }),
        },
      });
    } catch (e) {
      throw fail('transport', e instanceof OutboundRefused ? e.message : '无法连接微信支付，请稍后再试');
    }
  }

  /** One signed call; a 2xx answer must be signed, an error answer is returned (signed or not) for the caller to judge. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
    serial: string | null = this.config.publicKeyId ?? null,
  ): Promise<Answer> {
    const res = await this.send(
      method,
      `${this.apiBase}${path}`,
      payload ? JSON.stringify(payload) : '',
      undefined,
      serial,
    );
    const get = (name: string) => header(res.headers, name);
    let signed = false;
    if (get('wechatpay-signature') !== undefined || (res.status >= 200 && res.status < 300)) {
      this.checkSignature(get, res.text, '微信支付的应答');
      signed = true;
    }
    const body = res.text === '' ? {} : parseJson(res.text);
    return { status: res.status, body, signed, serial: signed ? (get('wechatpay-serial') ?? null) : null };
  }

  /**
   * 测试连接: asks about an order nobody made (any signed answer, "not found" included, means the keys
   * work) once per way WeChat Pay may sign: naming the 微信支付公钥 when there is one, and naming none
   * when there are certificates (while switching, that answer is signed with a certificate). Answers
   * the key ids that signed (each verified); throws PaymentProviderError when an answer does not check.
   */
  async checkKeys(probeNo: string): Promise<string[]> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(probeNo)}?mchid=${encodeURIComponent(this.config.mchid)}`;
    const ways = [
      ...(this.config.publicKeyId ? [this.config.publicKeyId] : []),
      ...(this.config.platformKeys.some((k) => k.id === undefined) ? [null] : []),
    ];
    const seen: string[] = [];
    for (const serial of ways.length ? ways : [null]) {
      const a = await this.call('GET', path, undefined, serial);
      // Signed and meaning it: the order, or "no such order"; anything else (our signature refused…) says why.
      const notFound = a.status === 404 && a.signed && a.body.code === 'ORDER_NOT_EXIST';
      if (!a.signed || (!this.ok(a) && !notFound)) throw this.error(a, '查询微信支付订单');
      if (a.serial && !seen.includes(a.serial)) seen.push(a.serial);
    }
    return seen;
  }

  private error(a: Answer, doing: string) {
    const code = str(a.body.code);
    const message = str(a.body.message);
    return fail(
      'provider',
      `${doing}失败：${message ?? '微信支付返回错误'}${code ? `（${code}）` : ''}`,
      code,
      a.status,
    );
  }

  private ok(a: Answer) {
    return a.status >= 200 && a.status < 300;
  }

  async createOrder(input: CreateOrderInput): Promise<CreatedOrder> {
    if (input.method !== 'wechat_native' && input.method !== 'wechat_jsapi') {
      throw fail('config', `微信支付不支持的付款方式：${input.method}`);
    }
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0)
      throw fail('config', '金额必须是正的整数（分）');
    const jsapi = input.method === 'wechat_jsapi';
    if (jsapi && !input.openid) throw fail('config', '微信内支付需要会员的 openid');
    const a = await this.call('POST', `/v3/pay/transactions/${jsapi ? 'jsapi' : 'native'}`, {
      appid: this.config.appid,
      mchid: this.config.mchid,
      description: input.description.slice(0, 127),
      out_trade_no: input.outTradeNo,
      ...(input.expiresAt ? { time_expire: rfc3339Beijing(input.expiresAt) } : {}),
      notify_url: input.notifyUrl,
      amount: { total: input.amountFen, currency: 'CNY' },
      ...(jsapi ? { payer: { openid: input.openid } } : {}),
    });
    if (!this.ok(a)) throw this.error(a, '微信支付下单');
    if (jsapi) {
      const prepayId = str(a.body.prepay_id);
      if (!prepayId) throw fail('malformed', '微信支付下单的应答缺少 prepay_id');
      const ts = String(Math.floor(this.now() / 1000));
      return {
        method: 'wechat_jsapi',
        prepayId,
        payParams: jsapiPayParams(this.config.appid, prepayId, this.key, ts, this.nonce()),
      };
    }
    const codeUrl = str(a.body.code_url);
    if (!codeUrl) throw fail('malformed', '微信支付下单的应答缺少 code_url');
    return { method: 'wechat_native', codeUrl };
  }

  async queryOrder(outTradeNo: string): Promise<OrderStatus | null> {
    const a = await this.call(
      'GET',
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.config.mchid)}`,
    );
    if (a.status === 404 && a.signed && a.body.code === 'ORDER_NOT_EXIST') return null;
    if (!this.ok(a)) throw this.error(a, '查询微信支付订单');
    return toOrderStatus(a.body);
  }

  async closeOrder(outTradeNo: string): Promise<'closed' | 'not_found'> {
    const a = await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, {
      mchid: this.config.mchid,
    });
    if (a.status === 404 && a.signed && a.body.code === 'ORDER_NOT_EXIST') return 'not_found';
    if (!this.ok(a)) throw this.error(a, '关闭微信支付订单');
    return 'closed';
  }

  async refund(input: RefundInput): Promise<RefundStatus> {
    const a = await this.call('POST', '/v3/refund/domestic/refunds', {
      out_trade_no: input.outTradeNo,
      out_refund_no: input.outRefundNo,
      reason: input.reason.slice(0, 80),
      ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
      amount: { refund: input.refundFen, total: input.totalFen, currency: 'CNY' },
    });
    if (this.ok(a)) return toRefundStatus(a.body);
    // A signed business refusal (balance short, amount wrong, order unknown) is the refund's answer;
    // anything else (our signature, their outage) is an error to retry with the same refund number.
    if (a.signed && [400, 403, 404].includes(a.status) && a.body.code !== 'SIGN_ERROR') {
      return {
        outTradeNo: input.outTradeNo,
        outRefundNo: input.outRefundNo,
        state: 'refused',
        providerState: str(a.body.code) ?? String(a.status),
        refundFen: input.refundFen,
        providerRefundId: null,
        reason: str(a.body.message) ?? '微信支付拒绝了退款',
        successAt: null,
      };
    }
    throw this.error(a, '微信支付退款');
  }

  async queryRefund(input: { outTradeNo: string; outRefundNo: string }): Promise<RefundStatus | null> {
    const a = await this.call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(input.outRefundNo)}`);
    if (a.status === 404 && a.signed && a.body.code === 'RESOURCE_NOT_EXISTS') return null;
    if (!this.ok(a)) throw this.error(a, '查询微信支付退款');
    return toRefundStatus(a.body);
  }

  async downloadBill(billDate: string): Promise<BillRow[]> {
    const a = await this.call('GET', `/v3/bill/tradebill?bill_date=${encodeURIComponent(billDate)}&bill_type=ALL`);
    if (a.status === 400 && a.signed && a.body.code === 'NO_STATEMENT_EXIST') return [];
    if (!this.ok(a)) throw this.error(a, '申请微信支付交易账单');
    const url = str(a.body.download_url);
    const hashType = str(a.body.hash_type);
    const hashValue = str(a.body.hash_value);
    if (!url || !hashValue) throw fail('malformed', '微信支付账单应答缺少下载地址或摘要');
    // The file itself is not signed: its SHA1 from the signed answer vouches for it.
    const file = await this.send('GET', url, '', BILL_MAX_BYTES);
    if (file.status !== 200) throw fail('provider', `下载微信支付账单失败（HTTP ${file.status}）`, null, file.status);
    if (file.truncated) throw fail('malformed', '微信支付账单过大，未能完整下载');
    const algo = (hashType ?? 'SHA1').toLowerCase();
    if (crypto.createHash(algo).update(file.bytes).digest('hex') !== hashValue.toLowerCase()) {
      throw fail('signature', '微信支付账单的摘要不符，文件可能被改动');
    }
    return parseTradeBill(file.text);
  }

  verifyNotification(input: RawNotification): VerifiedNotification {
    this.checkSignature((name) => header(input.headers, name), input.body, '微信支付通知');
    const body = parseJson(input.body);
    const eventType = str(body.event_type) ?? '';
    const resource = obj(body.resource);
    if (typeof resource.ciphertext !== 'string' || typeof resource.nonce !== 'string') {
      throw fail('malformed', '微信支付通知缺少加密资源');
    }
    const plain = parseJson(decryptResource(resource as unknown as EncryptedResource, this.config.apiV3Key));
    if (eventType === 'TRANSACTION.SUCCESS') return { kind: 'payment', order: toOrderStatus(plain), raw: plain };
    if (eventType.startsWith('REFUND.')) {
      const refund = toRefundStatus(plain);
      if (!refund.outTradeNo) throw fail('malformed', '微信支付退款通知缺少订单号');
      return { kind: 'refund', outTradeNo: refund.outTradeNo, refund, raw: plain };
    }
    return { kind: 'other', eventType, raw: plain };
  }

  /** Success: an empty 204; failure: a 5xx with {code:'FAIL', message} (WeChat Pay then retries). */
  notifyAnswer(ok: boolean, message = '处理失败'): NotifyAnswer {
    return ok
      ? { status: 204, contentType: 'text/plain', body: '' }
      : { status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
  }

  /** The member's openid from the code of WeChat's web authorisation (snsapi_base). */
  async openidFromCode(code: string): Promise<string> {
    if (!this.config.appSecret) throw fail('config', '未设置公众号 AppSecret，无法获取会员的 openid');
    try {
      return await openidFromOauthCode({
        baseUrl: this.oauthBase,
        appId: this.config.appid,
        appSecret: this.config.appSecret,
        code,
        allow: this.config.outbound.allow,
        timeoutMs: this.config.outbound.timeoutMs ?? 10_000,
      });
    } catch (e) {
      if (!(e instanceof WechatOauthFailure)) throw e;
      if (e.kind === 'transport') throw fail('transport', e.refused ?? '无法连接微信网页授权，请稍后再试');
      const errcode = e.body.errcode === undefined ? null : String(e.body.errcode);
      throw fail('provider', `微信网页授权失败：${str(e.body.errmsg) ?? '未返回 openid'}`, errcode, e.status);
    }
  }
}
