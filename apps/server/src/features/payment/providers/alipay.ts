import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { OutboundRefused, outboundPost, type OutboundAnswer } from '../../../lib/outbound.ts';
import {
  failOf,
  beijingTime,
  fenToYuan,
  fromBeijingTime,
  yuanToFen,
  type BillRow,
  type CreateOrderInput,
  type CreatedOrder,
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
import { decodeText } from '../../../lib/decode-text.ts';

// Alipay openapi (the gateway.do protocol) with node:crypto: RSA2 (SHA256withRSA) over the sorted
// parameters (opendocs.alipay.com 自行实现签名 / 异步通知验签), answers checked over the raw JSON
// of their `<method>_response` node.

export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';
const BILL_MAX_BYTES = 20 * 1024 * 1024;

export interface AlipayConfig {
  appId: string;
  /** The app private key: PEM (PKCS#1 or PKCS#8) or the bare base64 the Alipay console shows. */
  appPrivateKey: string;
  /** Alipay's public key (PEM or bare base64), from the console's 接口加签方式. */
  alipayPublicKey: string;
  gateway?: string;
  outbound: OutboundSettings;
  now?: () => number;
}

const fail = failOf('alipay');

function privateKey(k: string): crypto.KeyObject {
  if (k.includes('-----BEGIN')) return crypto.createPrivateKey(k);
  const der = Buffer.from(k.replace(/\s+/g, ''), 'base64');
  try {
    return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

function publicKey(k: string): crypto.KeyObject {
  if (k.includes('-----BEGIN')) return crypto.createPublicKey(k);
  return crypto.createPublicKey({ key: Buffer.from(k.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
}

const sortedContent = (params: Record<string, string>, exclude: string[]) =>
  Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');

/** What a request's sign covers: every parameter but `sign` and empty ones, sorted by name, k=v joined by &. */
export const requestSignContent = (params: Record<string, string>) => sortedContent(params, ['sign']);

/** What a notification's sign covers: the same, without `sign_type` too. */
export const notifySignContent = (params: Record<string, string>) => sortedContent(params, ['sign', 'sign_type']);

export const rsa2Sign = (content: string, key: crypto.KeyLike) =>
  crypto.sign('sha256', Buffer.from(content, 'utf8'), key).toString('base64');

export function rsa2Verify(content: string, sign: string, key: crypto.KeyLike): boolean {
  try {
    return crypto.verify('sha256', Buffer.from(content, 'utf8'), key, Buffer.from(sign, 'base64'));
  } catch {
    return false;
  }
}

/**
 * The raw text of a top-level JSON member's value (the signed bytes: Alipay signs the node as it
 * wrote it, escapes included, so it must not be re-serialised). undefined when absent.
 */
export function rawJsonMember(text: string, name: string): string | undefined {
  const key = `"${name}"`;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      // A key at depth 1 that is the one we want: the value follows the colon.
      if (depth === 1 && text.startsWith(key, i)) {
        let j = i + key.length;
        while (/\s/.test(text[j])) j++;
        if (text[j] === ':') return valueAt(text, j + 1);
      }
      i = stringEnd(text, i);
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function valueAt(text: string, from: number): string {
  let i = from;
  while (/\s/.test(text[i])) i++;
  const start = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      if (depth === 0) return text.slice(start, i + 1);
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return text.slice(start, i);
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    } else if (c === ',' && depth === 0) return text.slice(start, i).trim();
  }
  return text.slice(start).trim();
}

const TRADE_STATES: Record<string, TradeState> = {
  WAIT_BUYER_PAY: 'unpaid',
  TRADE_SUCCESS: 'paid',
  TRADE_FINISHED: 'paid',
  TRADE_CLOSED: 'closed',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A trade (query answer or notification) in neutral terms; TRADE_CLOSED after a payment is a full refund. */
export function toOrderStatus(t: Record<string, unknown>): OrderStatus {
  const outTradeNo = str(t.out_trade_no);
  const providerState = str(t.trade_status);
  if (!outTradeNo || !providerState) throw fail('malformed', '支付宝的订单信息缺少订单号或状态');
  let state = TRADE_STATES[providerState];
  if (!state) throw fail('malformed', `未知的支付宝交易状态：${providerState}`);
  const paidAt = fromBeijingTime(str(t.gmt_payment) ?? str(t.send_pay_date) ?? '');
  if (state === 'closed' && paidAt) state = 'refunded';
  if (state === 'paid' && str(t.gmt_refund)) state = 'refunded';
  const total = str(t.total_amount);
  return {
    outTradeNo,
    state,
    providerState,
    amountFen: total === null ? null : yuanToFen(total, 'alipay'),
    providerTradeId: str(t.trade_no),
    paidAt,
    merchantId: str(t.seller_id),
    appId: str(t.app_id),
  };
}

/** A minimal zip reader (stored or deflated entries): what the bill archive holds, names decoded. */
export function unzip(buf: Buffer): { name: string; data: Buffer }[] {
  // The end-of-central-directory record: its signature within the last 64 KB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw fail('malformed', '支付宝账单压缩包无法读取');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw fail('malformed', '支付宝账单压缩包目录损坏');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const rawName = buf.subarray(p + 46, p + 46 + nameLen);
    // Bit 11: the name is UTF-8; otherwise Alipay writes it in GBK.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'gbk').decode(rawName);
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataStart, dataStart + compressed);
    if (method !== 0 && method !== 8) throw fail('malformed', '支付宝账单压缩方式不支持');
    out.push({ name, data: method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Bill text: UTF-8 when it is valid UTF-8, else GBK (what Alipay's CSV files are in). */
export const decodeBillText = (data: Buffer): string => decodeText(data);

/** The 业务明细 CSV: '#' lines around a header line and the detail lines; fields padded with tabs. */
export function parseAlipayBill(text: string): BillRow[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() !== '' && !l.startsWith('#'));
  if (start < 0) return [];
  const head = lines[start].split(',').map((h) => h.trim());
  const col = (prefix: string) => head.findIndex((h) => h.startsWith(prefix));
  const idx = {
    tradeNo: col('支付宝交易号'),
    outTradeNo: col('商户订单号'),
    kind: col('业务类型'),
    done: col('完成时间'),
    amount: col('订单金额'),
    refundNo: col('退款批次号'),
  };
  if (Object.values(idx).some((i) => i < 0)) throw fail('malformed', '支付宝账单的表头无法识别');
  const rows: BillRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#') || line.trim() === '') break;
    const f = line.split(',').map((x) => x.trim());
    const refund = f[idx.kind] === '退款';
    const at = fromBeijingTime(f[idx.done]);
    if (!at) throw fail('malformed', `支付宝账单的完成时间无法识别：${f[idx.done]}`);
    rows.push({
      outTradeNo: f[idx.outTradeNo],
      providerTradeId: f[idx.tradeNo],
      amountFen: Math.abs(yuanToFen(f[idx.amount], 'alipay')),
      kind: refund ? 'refund' : 'pay',
      outRefundNo: refund ? f[idx.refundNo] || null : null,
      at,
    });
  }
  return rows;
}

interface Answer {
  /** The response node (`<method>_response`, or `error_response`). */
  node: Record<string, unknown>;
  signed: boolean;
  code: string;
  subCode: string | null;
}

/** The Alipay openapi adapter of one app. */
export class Alipay implements PaymentProvider {
  readonly name = 'alipay' as const;
  private readonly key: crypto.KeyObject;
  private readonly alipayKey: crypto.KeyObject;
  private readonly gateway: string;
  private readonly now: () => number;

  constructor(private readonly config: AlipayConfig) {
    try {
      this.key = privateKey(config.appPrivateKey);
    } catch {
      throw fail('config', '支付宝应用私钥无法读取');
    }
    try {
      this.alipayKey = publicKey(config.alipayPublicKey);
    } catch {
      throw fail('config', '支付宝公钥无法读取');
    }
    this.gateway = config.gateway ?? ALIPAY_GATEWAY;
    this.now = config.now ?? Date.now;
  }

  /** The common parameters plus biz_content, signed. */
  signedParams(method: string, biz: object, extra: Record<string, string> = {}): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.config.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: beijingTime(new Date(this.now())),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(biz),
    };
    return { ...params, sign: rsa2Sign(requestSignContent(params), this.key) };
  }

  private async call(method: string, biz: object, extra?: Record<string, string>): Promise<Answer> {
    const form = new URLSearchParams(this.signedParams(method, biz, extra)).toString();
    let res: OutboundAnswer;
    try {
      res = await outboundPost(this.gateway, form, {
        allow: this.config.outbound.allow,
        timeoutMs: this.config.outbound.timeoutMs ?? 10_000,
        contentType: 'application/x-www-form-urlencoded;charset=utf-8',
      });
    } catch (e) {
      throw fail('transport', e instanceof OutboundRefused ? e.message : '无法连接支付宝，请稍后再试');
    }
    if (res.status !== 200) throw fail('provider', `支付宝网关返回 HTTP ${res.status}`, null, res.status);
    const nodeName = `${method.replace(/\./g, '_')}_response`;
    const raw = rawJsonMember(res.text, nodeName) ?? rawJsonMember(res.text, 'error_response');
    let node: Record<string, unknown>;
    try {
      node = JSON.parse(raw ?? '') as Record<string, unknown>;
    } catch {
      throw fail('malformed', '支付宝的应答无法读取');
    }
    const sign = rawJsonMember(res.text, 'sign');
    let signed = false;
    if (sign !== undefined) {
      if (!rsa2Verify(raw ?? '', JSON.parse(sign) as string, this.alipayKey)) {
        throw fail('signature', '支付宝的应答签名验证失败');
      }
      signed = true;
    }
    const code = str(node.code) ?? '';
    if (code === '10000' && !signed) throw fail('signature', '支付宝的应答未签名');
    return { node, signed, code, subCode: str(node.sub_code) };
  }

  private error(a: Answer, doing: string) {
    const msg = str(a.node.sub_msg) ?? str(a.node.msg) ?? '支付宝返回错误';
    return fail('provider', `${doing}失败：${msg}（${a.subCode ?? a.code}）`, a.subCode ?? a.code);
  }

  /** Only a signed answer may say "no such trade" (it decides whether an order may be closed). */
  private notFound(a: Answer) {
    return a.signed && a.code === '40004' && a.subCode === 'ACQ.TRADE_NOT_EXIST';
  }

  async createOrder(input: CreateOrderInput): Promise<CreatedOrder> {
    if (input.method !== 'alipay_wap' && input.method !== 'alipay_precreate') {
      throw fail('config', `支付宝不支持的付款方式：${input.method}`);
    }
    const biz = {
      out_trade_no: input.outTradeNo,
      total_amount: fenToYuan(input.amountFen),
      subject: input.description.slice(0, 256),
      ...(input.expiresAt ? { time_expire: beijingTime(input.expiresAt) } : {}),
    };
    if (input.method === 'alipay_wap') {
      // The member's browser takes this URL to the gateway: nothing is sent from here.
      const params = this.signedParams(
        'alipay.trade.wap.pay',
        { ...biz, product_code: 'QUICK_WAP_WAY', ...(input.quitUrl ? { quit_url: input.quitUrl } : {}) },
        { notify_url: input.notifyUrl, ...(input.returnUrl ? { return_url: input.returnUrl } : {}) },
      );
      return { method: 'alipay_wap', redirectUrl: `${this.gateway}?${new URLSearchParams(params)}` };
    }
    const a = await this.call('alipay.trade.precreate', biz, { notify_url: input.notifyUrl });
    if (a.code !== '10000') throw this.error(a, '支付宝下单');
    const qrCode = str(a.node.qr_code);
    if (!qrCode) throw fail('malformed', '支付宝下单的应答缺少 qr_code');
    return { method: 'alipay_precreate', qrCode };
  }

  async queryOrder(outTradeNo: string): Promise<OrderStatus | null> {
    const a = await this.call('alipay.trade.query', { out_trade_no: outTradeNo });
    if (this.notFound(a)) return null;
    if (a.code !== '10000') throw this.error(a, '查询支付宝订单');
    return toOrderStatus(a.node);
  }

  async closeOrder(outTradeNo: string): Promise<'closed' | 'not_found'> {
    const a = await this.call('alipay.trade.close', { out_trade_no: outTradeNo });
    if (this.notFound(a)) return 'not_found';
    if (a.code !== '10000') throw this.error(a, '关闭支付宝订单');
    return 'closed';
  }

  async refund(input: RefundInput): Promise<RefundStatus> {
    const a = await this.call('alipay.trade.refund', {
      out_trade_no: input.outTradeNo,
      refund_amount: fenToYuan(input.refundFen),
      out_request_no: input.outRefundNo,
      refund_reason: input.reason.slice(0, 256),
    });
    if (a.code === '10000') {
      // fund_change Y: this request moved the money now. N is no refusal: the refund is pending, or
      // this repeats one already done; only the refund query (at least 10 s later, as documented)
      // tells which. The settling job asks.
      if (a.node.fund_change === 'Y') {
        return {
          outTradeNo: input.outTradeNo,
          outRefundNo: input.outRefundNo,
          state: 'success',
          providerState: 'REFUND_SUCCESS',
          refundFen: input.refundFen,
          providerRefundId: str(a.node.trade_no),
          reason: null,
          successAt: fromBeijingTime(str(a.node.gmt_refund_pay) ?? '') ?? new Date(this.now()),
        };
      }
      return { ...this.refusedOf(input, 'FUND_CHANGE_N', null), state: 'processing' };
    }
    // A signed business refusal (40004) is the refund's answer; system errors are retried with the same number.
    if (a.signed && a.code === '40004' && a.subCode !== 'ACQ.SYSTEM_ERROR') {
      return this.refusedOf(input, a.subCode ?? a.code, str(a.node.sub_msg) ?? '支付宝拒绝了退款');
    }
    throw this.error(a, '支付宝退款');
  }

  private refusedOf(input: RefundInput, providerState: string, reason: string | null): RefundStatus {
    return {
      outTradeNo: input.outTradeNo,
      outRefundNo: input.outRefundNo,
      state: 'refused',
      providerState,
      refundFen: input.refundFen,
      providerRefundId: null,
      reason,
      successAt: null,
    };
  }

  async queryRefund(input: { outTradeNo: string; outRefundNo: string }): Promise<RefundStatus | null> {
    const a = await this.call('alipay.trade.fastpay.refund.query', {
      out_trade_no: input.outTradeNo,
      out_request_no: input.outRefundNo,
      query_options: ['gmt_refund_pay'],
    });
    if (this.notFound(a)) return null;
    if (a.code !== '10000') throw this.error(a, '查询支付宝退款');
    // 10000 only says the query worked. Without refund_status the refund has not succeeded (yet):
    // not received, or still being processed. That is no refusal: Alipay's documented way on is to
    // ask for the refund again with the same out_request_no, which answers a refusal (40004) if
    // there is one. So it is "no refund known": the settling job asks for it again.
    if (a.node.refund_status !== 'REFUND_SUCCESS') return null;
    const amount = str(a.node.refund_amount);
    return {
      outTradeNo: str(a.node.out_trade_no) ?? input.outTradeNo,
      outRefundNo: str(a.node.out_request_no) ?? input.outRefundNo,
      state: 'success',
      providerState: 'REFUND_SUCCESS',
      refundFen: amount === null ? null : yuanToFen(amount, 'alipay'),
      providerRefundId: str(a.node.trade_no),
      reason: null,
      successAt: fromBeijingTime(str(a.node.gmt_refund_pay) ?? ''),
    };
  }

  async downloadBill(billDate: string): Promise<BillRow[]> {
    const a = await this.call('alipay.data.dataservice.bill.downloadurl.query', {
      bill_type: 'trade',
      bill_date: billDate,
    });
    if (a.signed && a.subCode === 'isp.bill_not_exist') return [];
    if (a.code !== '10000') throw this.error(a, '申请支付宝账单');
    const url = str(a.node.bill_download_url);
    if (!url) throw fail('malformed', '支付宝账单应答缺少下载地址');
    let file: OutboundAnswer;
    try {
      file = await outboundPost(url, '', {
        allow: this.config.outbound.allow,
        timeoutMs: this.config.outbound.timeoutMs ?? 30_000,
        method: 'GET',
        maxBytes: BILL_MAX_BYTES,
      });
    } catch (e) {
      throw fail('transport', e instanceof OutboundRefused ? e.message : '无法下载支付宝账单，请稍后再试');
    }
    if (file.status !== 200) throw fail('provider', `下载支付宝账单失败（HTTP ${file.status}）`, null, file.status);
    if (file.truncated) throw fail('malformed', '支付宝账单过大，未能完整下载');
    if (file.bytes.readUInt32LE(0) !== 0x04034b50) return parseAlipayBill(decodeBillText(file.bytes));
    const entries = unzip(file.bytes).filter((e) => e.name.toLowerCase().endsWith('.csv'));
    // The archive holds the detail file and a summary (汇总) file: the rows are in the detail.
    const detail = entries.find((e) => e.name.includes('业务明细') && !e.name.includes('汇总')) ?? entries[0];
    return detail ? parseAlipayBill(decodeBillText(detail.data)) : [];
  }

  /** Verifies a notification's form parameters (sign over all but sign and sign_type). */
  verifyParams(params: Record<string, string>): Record<string, string> {
    const sign = params.sign;
    if (!sign) throw fail('signature', '支付宝通知缺少签名');
    if (params.sign_type && params.sign_type !== 'RSA2')
      throw fail('signature', `不支持的签名方式：${params.sign_type}`);
    if (!rsa2Verify(notifySignContent(params), sign, this.alipayKey)) throw fail('signature', '支付宝通知签名验证失败');
    return params;
  }

  verifyNotification(input: RawNotification): VerifiedNotification {
    const params = this.verifyParams(Object.fromEntries(new URLSearchParams(input.body)));
    if (params.trade_status) return { kind: 'payment', order: toOrderStatus(params), raw: params };
    return { kind: 'other', eventType: params.notify_type ?? '', raw: params };
  }

  /** Alipay reads the text `success` (stop retrying) or anything else (`fail`: retry). */
  notifyAnswer(ok: boolean): NotifyAnswer {
    return { status: 200, contentType: 'text/plain', body: ok ? 'success' : 'fail' };
  }
}
