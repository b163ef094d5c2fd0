// Online payment on the members' page: what is on sale, my orders, ordering and 我已支付, and how
// this phone pays (inside WeChat: JSAPI; another browser: WeChat's QR or Alipay's page).
import {
  memberCreateOrder,
  SELLER_CODE,
  memberQueryOrder,
  memberQueryOrders,
  memberQueryProducts,
  type PayOrder,
  type PayOrderMethod,
  type ReqOf,
  type ResOf,
} from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './api.ts';
import { NOTIFY_STATE_KEY } from './wechat-state.ts';
import { afterWrite } from './invalidations.ts';
import { keys } from './query-keys.ts';

export type Shop = ResOf<typeof memberQueryProducts>;
export type Product = Shop['list'][number];
export type CreatedOrder = ResOf<typeof memberCreateOrder>;

/** 购卡: the cards on sale, the top-up amounts and the ways to pay (a failure is a toast). */
export function useShop() {
  return useQuery({
    queryKey: keys.shop,
    queryFn: ({ signal }) => call(memberQueryProducts, {}, { signal }),
    meta: { errorToast: true },
  });
}

/** 我的订单, one page (a failure is a toast). */
export function useMyOrders(page: number) {
  return useQuery({
    queryKey: keys.orders.page(page),
    queryFn: ({ signal }) => call(memberQueryOrders, { page }, { signal }),
    meta: { errorToast: true },
  });
}

/** Orders a card or a top-up; 我的订单 shows it 待支付. */
export function useCreateOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: ReqOf<typeof memberCreateOrder>) => call(memberCreateOrder, { seller: sellerCode(), ...req }),
    onSuccess: () => afterWrite(qc, 'order'),
  });
}

/** 我已支付: the order as it stands (the server asks the provider while unpaid and issues the card when paid). */
export function useCheckOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (orderNo: string) => call(memberQueryOrder, { orderNo }),
    onSuccess: (o) => afterWrite(qc, o.status === 'created' ? 'order' : 'paid'),
  });
}

/** Yuan of fen, as the page shows money: 300.00 元. */
export const yuanText = (fen: number) => `${(fen / 100).toFixed(2)} 元`;

/** Each status in the member's words, with its tag colour. */
export const STATUS: Record<PayOrder['status'], { text: string; color: string }> = {
  created: { text: '待支付', color: 'warning' },
  paid: { text: '已支付', color: 'success' },
  closed: { text: '已关闭', color: 'default' },
  refunded: { text: '已退款', color: 'default' },
  partially_refunded: { text: '部分退款', color: 'primary' },
  // 异常订单 in the member's words: paid, the card not issued (or not topped up); the store refunds it.
  exception: { text: '已付款，待门店退款', color: 'danger' },
};

export const METHOD_TEXT: Record<PayOrderMethod, string> = {
  wechat_jsapi: '微信支付',
  wechat_native: '微信扫码支付',
  alipay_wap: '支付宝',
  alipay_precreate: '支付宝扫码',
};

const params = new URLSearchParams(window.location.search);
/** Opened inside WeChat (its built-in browser): pay there with JSAPI. */
export const inWechat = /MicroMessenger/i.test(navigator.userAgent);
/**
 * The code of WeChat's web authorisation (snsapi_base), when WeChat sent the page back with one, and
 * the state it came with (one the server gave this member's session, else the server refuses the
 * code): it gives the server the member's openid for JSAPI. One use. (A code the reminders asked for,
 * with the state kept under NOTIFY_STATE_KEY, binds the member's openid instead: JSAPI then uses the binding.)
 */
const notifyState = (() => {
  try {
    return (JSON.parse(sessionStorage.getItem(NOTIFY_STATE_KEY) ?? 'null') as { state: string } | null)?.state;
  } catch {
    return undefined;
  }
})();
let wx: { wxCode: string; wxState: string } | null =
  inWechat && params.get('code') && params.get('state') && params.get('state') !== notifyState
    ? { wxCode: params.get('code')!, wxState: params.get('state')! }
    : null;
export function takeWxCode(): { wxCode?: string; wxState?: string } {
  const taken = wx ?? {};
  wx = null;
  return taken;
}

/** A way to pay offered on this phone: the method, its name and what happens. */
export interface PayChoice {
  method: PayOrderMethod;
  label: string;
  hint: string;
}

/**
 * The ways to pay on this phone. Inside WeChat: JSAPI once WeChat's authorisation gave a code or the
 * member's openid is bound already (the server uses it), else WeChat's QR (long-press to pay); Alipay's
 * page does not open inside WeChat. Another browser: WeChat's QR to save or long-press, and Alipay's page.
 */
export function payChoices(shop: Pick<Shop, 'wechat' | 'alipay'> & Partial<Pick<Shop, 'wechatPayBound'>>): PayChoice[] {
  const out: PayChoice[] = [];
  if (shop.wechat) {
    out.push(
      inWechat && (wx !== null || shop.wechatPayBound)
        ? { method: 'wechat_jsapi', label: '微信支付', hint: '在微信中直接付款' }
        : {
            method: 'wechat_native',
            label: '微信支付',
            hint: inWechat ? '显示付款二维码，长按识别后付款' : '显示付款二维码，长按保存或截图后用微信“扫一扫”付款',
          },
    );
  }
  if (shop.alipay && !inWechat)
    out.push({ method: 'alipay_wap', label: '支付宝', hint: '跳转到支付宝付款，完成后返回' });
  return out;
}

const PENDING = 'payOrder';

/** What the wait screen shows of an order: set before leaving for Alipay's page, read on return. */
export interface Waiting {
  orderNo: string;
  name: string;
  amount: number;
  expireTime: string;
  /** WeChat's QR to pay (wechat_native). */
  codeUrl: string | null;
}

export function rememberWaiting(w: Waiting): void {
  localStorage.setItem(PENDING, JSON.stringify(w));
}

/** The order this phone left to pay on the provider's page, when the page comes back from it. */
export function takeWaiting(): Waiting | null {
  const text = localStorage.getItem(PENDING);
  localStorage.removeItem(PENDING);
  if (!text) return null;
  try {
    const w = JSON.parse(text) as Waiting;
    return typeof w.orderNo === 'string' ? w : null;
  } catch {
    return null;
  }
}

/** Where Alipay's page sends the phone back: this page, marked as a return from paying. */
export function returnUrl(): string {
  const back = new URLSearchParams({ store: params.get('store') ?? localStorage.getItem('storeId') ?? '', paid: '1' });
  return `${window.location.origin}${window.location.pathname}?${back.toString()}`;
}

/** The page came back from a provider's pay page (Alipay's return_url). */
export const backFromPaying = params.get('paid') === '1';

interface WeixinJSBridge {
  invoke(name: string, args: object, done: (r: { err_msg: string }) => void): void;
}

/** Opens WeChat's pay sheet with the server's JSAPI parameters; answers whether WeChat says it was paid. */
export function payInWechat(pay: NonNullable<CreatedOrder['pay']>): Promise<boolean> {
  const bridge = (window as unknown as { WeixinJSBridge?: WeixinJSBridge }).WeixinJSBridge;
  if (!bridge) return Promise.resolve(false);
  return new Promise((resolve) =>
    bridge.invoke('getBrandWCPayRequest', pay, (r) => resolve(r.err_msg === 'get_brand_wcpay_request:ok')),
  );
}

/**
 * 推广链接: the code of the staff member's link the member opened the page through, kept on the phone
 * (per store) so that a purchase later still counts as that seller's; the server ignores a code it
 * does not know.
 */
const sellerKey = () => `seller:${params.get('store') ?? localStorage.getItem('storeId') ?? ''}`;
const fromLink = params.get('seller');
if (fromLink && SELLER_CODE.test(fromLink)) localStorage.setItem(sellerKey(), fromLink);
export const sellerCode = () => localStorage.getItem(sellerKey()) ?? undefined;
