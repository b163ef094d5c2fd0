import type { AllowedHost } from '../../../lib/outbound.ts';

// The provider-neutral face of WeChat Pay (API v3) and Alipay (openapi, RSA2): what the order code
// asks of a provider and what it gets back, money in fen, states normalised.

export type ProviderName = 'wechat' | 'alipay';

/** How a member pays: WeChat inside WeChat (JSAPI) or by QR (Native); Alipay in a phone browser (WAP) or by QR (precreate). */
export type PayMethod = 'wechat_jsapi' | 'wechat_native' | 'alipay_wap' | 'alipay_precreate';

/** Where requests may go (the outbound gate's allow-list) and how long one may take. */
export interface OutboundSettings {
  allow: readonly AllowedHost[];
  timeoutMs?: number;
}

export interface CreateOrderInput {
  method: PayMethod;
  /** Our order number (WeChat 6-32 chars, Alipay up to 64: letters, digits, _ - |). */
  outTradeNo: string;
  amountFen: number;
  /** What the member sees as the item (WeChat description, Alipay subject). */
  description: string;
  notifyUrl: string;
  /** After this the provider no longer takes the payment. */
  expiresAt?: Date;
  /** WeChat JSAPI: the member's openid under the configured appid. */
  openid?: string;
  /** Alipay WAP: where the phone browser returns after paying, and where it goes on giving up. */
  returnUrl?: string;
  quitUrl?: string;
}

/** The signed parameters the page hands to WeixinJSBridge `getBrandWCPayRequest`. */
export interface JsapiPayParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: 'RSA';
  paySign: string;
}

export type CreatedOrder =
  | { method: 'wechat_native'; codeUrl: string }
  | { method: 'wechat_jsapi'; prepayId: string; payParams: JsapiPayParams }
  | { method: 'alipay_wap'; redirectUrl: string }
  | { method: 'alipay_precreate'; qrCode: string };

/** paid: money taken; unpaid: not yet (may still be paid); closed: can no longer be paid; refunded: paid, then (some) refunded. */
export type TradeState = 'paid' | 'unpaid' | 'closed' | 'refunded';

/** An order as the provider answered it (a query, or a verified notification). */
export interface OrderStatus {
  outTradeNo: string;
  state: TradeState;
  /** The provider's own word (WeChat trade_state, Alipay trade_status), for logs. */
  providerState: string;
  /** The order's amount in fen as the provider holds it (null when it did not say). */
  amountFen: number | null;
  providerTradeId: string | null;
  paidAt: Date | null;
  /** WeChat mchid / Alipay seller_id, as the provider answered (null when absent). */
  merchantId: string | null;
  /** WeChat appid / Alipay app_id, as the provider answered (null when absent). */
  appId: string | null;
}

export interface RefundInput {
  outTradeNo: string;
  /** Our refund number: the same number again is the same refund (the provider does it once). */
  outRefundNo: string;
  refundFen: number;
  /** The order's whole amount (WeChat asks for it). */
  totalFen: number;
  reason: string;
  /** WeChat only: where the refund result is notified. */
  notifyUrl?: string;
}

/**
 * processing: not settled yet; success: the money went back; refused: it did not and will not (the
 * card is put back); abnormal: WeChat's ABNORMAL (退款异常): the money left the merchant but could not
 * reach the member's original payment route (e.g. a closed bank card): neither back nor refused, the
 * merchant finishes it on the 商户平台 (or the abnormal-refund API), and it may still end SUCCESS.
 * Alipay has no such state.
 */
export type RefundState = 'processing' | 'success' | 'refused' | 'abnormal';

export interface RefundStatus {
  outTradeNo: string | null;
  outRefundNo: string;
  state: RefundState;
  providerState: string;
  refundFen: number | null;
  providerRefundId: string | null;
  /** Why the provider refused (its own message), when it did. */
  reason: string | null;
  successAt: Date | null;
}

/** One line of a provider's trade bill. */
export interface BillRow {
  outTradeNo: string;
  providerTradeId: string;
  amountFen: number;
  kind: 'pay' | 'refund';
  /** Our refund number, for refund lines when the bill has it. */
  outRefundNo: string | null;
  at: Date;
}

/** A notification as it arrived: headers and the raw body (WeChat JSON; Alipay x-www-form-urlencoded). */
export interface RawNotification {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type VerifiedNotification =
  | { kind: 'payment'; order: OrderStatus; raw: Record<string, unknown> }
  | { kind: 'refund'; outTradeNo: string; refund: RefundStatus; raw: Record<string, unknown> }
  | { kind: 'other'; eventType: string; raw: Record<string, unknown> };

/** The HTTP answer a provider wants to a notification (so it stops or keeps retrying). */
export interface NotifyAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** What the order code uses: one per provider account. */
export interface PaymentProvider {
  readonly name: ProviderName;
  createOrder(input: CreateOrderInput): Promise<CreatedOrder>;
  /** null: the provider does not know the order (never created, or Alipay's QR never scanned). */
  queryOrder(outTradeNo: string): Promise<OrderStatus | null>;
  /** 'not_found': nothing to close at the provider. */
  closeOrder(outTradeNo: string): Promise<'closed' | 'not_found'>;
  /** A refusal the provider gives (balance short, trade state) is answered as state 'refused' with its reason. */
  refund(input: RefundInput): Promise<RefundStatus>;
  queryRefund(input: { outTradeNo: string; outRefundNo: string }): Promise<RefundStatus | null>;
  /** The day's trade bill (date YYYY-MM-DD, the provider's day, Beijing time); [] when the provider has none. */
  downloadBill(date: string): Promise<BillRow[]>;
  /** Throws PaymentProviderError unless the signature (and, for WeChat, time and decryption) check. */
  verifyNotification(input: RawNotification): VerifiedNotification;
  notifyAnswer(ok: boolean, message?: string): NotifyAnswer;
}

export type ProviderErrorKind =
  /** A signature that does not check (notification or answer), or an unknown key id. */
  | 'signature'
  /** A notification whose timestamp is more than 5 minutes off. */
  | 'stale'
  /** The provider answered with an error (code and message kept). */
  | 'provider'
  /** An answer we cannot read (not JSON, fields missing, undecryptable). */
  | 'malformed'
  /** The request did not get an answer (network, timeout, refused by the outbound gate). */
  | 'transport'
  /** The settings are unusable (a key that does not parse). */
  | 'config';

/** Every failure of an adapter: a typed kind, a Chinese message staff can read, and the provider's code. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly provider: ProviderName,
    readonly code: string | null = null,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** One provider's error factory: `failOf('wechat')('signature', '签名不符')`. */
export const failOf =
  (provider: ProviderName) =>
  (kind: ProviderErrorKind, msg: string, code: string | null = null, status: number | null = null) =>
    new PaymentProviderError(kind, msg, provider, code, status);

/** "12.30" -> 1230, exactly (no floating point); throws on anything but a plain amount. */
export function yuanToFen(yuan: string, provider: ProviderName): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!m) throw new PaymentProviderError('malformed', `金额格式无法识别：${yuan}`, provider);
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -fen : fen;
}

/** 1230 -> "12.30". */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`bad amount in fen: ${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Beijing wall time of an instant: "YYYY-MM-DD HH:mm:ss" (both providers speak it; UTC+8, no DST). */
export function beijingTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** "YYYY-MM-DD HH:mm:ss" in Beijing time -> the instant. */
export function fromBeijingTime(s: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(s.trim());
  return m ? new Date(`${m[1]}T${m[2]}+08:00`) : null;
}
