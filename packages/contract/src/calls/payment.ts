// Online payment (issue 28): the store's WeChat Pay / Alipay accounts, card products and top-ups
// members buy on their phone, and their orders (server: features/payment). The providers'
// notifications (POST /pay/notify/wechat/:storeId, /pay/notify/alipay/:storeId) are plain routes
// outside the contract: providers do not speak {code, data, msg}.
import { z } from 'zod';
import { zDate, zEmpty, zId, zPage, zPaged } from '../common.ts';
import { MAX_AMOUNT } from '../constants.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { Msg } from '../messages.ts';
import { checkRange } from './batch.ts';

import { CardMsg, sellerErrors, zSellerId } from './reference/card.ts';
import { prepaidLimitErrors } from './prepaid-limits.ts';
import { MEMBER_API } from './member-channel.ts';
import { ContractMsg } from './contracts.ts';
import { NotifyMsg, zWechatState } from './reminders.ts';

/** The store's order list covers at most this many days. */
export const PAY_ORDER_LIST_MAX_DAYS = 366;

/** Messages of online payment. */
export const PayMsg = {
  method: '付款方式只能是 wechat_jsapi、wechat_native、alipay_wap 或 alipay_precreate',
  provider: '支付渠道只能是 wechat 或 alipay',
  notEnabled: (name: string) => `本店暂未开通${name}在线收款`,
  missing: (what: string) => `请填写${what}`,
  apiV3Key: 'APIv3 密钥应为 32 个字符',
  merchantKey: '商户 API 私钥无法读取，请粘贴 apiclient_key.pem 的全部内容',
  platformKey: '微信支付平台公钥无法读取，请粘贴完整的公钥',
  platformCertificate: '微信支付平台证书无法读取，请粘贴完整的证书（以 -----BEGIN CERTIFICATE----- 开头）',
  platformKeyNeeded: '请填写微信支付公钥及其 ID，或微信支付平台证书（切换期间两者都填）',
  /** 测试连接 passed: which of WeChat Pay's keys signed the answers. */
  connectionKeys: (name: string, keys: string) => `${name}连接正常，密钥可用；应答验签：${keys}`,
  alipayPrivateKey: '支付宝应用私钥无法读取',
  alipayPublicKey: '支付宝公钥无法读取',
  topupAmounts: '充值金额应为 1 到 10 个大于 0 的整数（分）',
  productOrTopup: '请选择要购买的卡种，或要充值的会员卡和金额',
  notOnSale: '该卡种暂不在线上售卖',
  trialOnce: CardMsg.trialOnce,
  notMoneyCard: '只能给自己的储值卡充值',
  topupAmount: '请选择店长设定的充值金额',
  cardRefunded: '该卡已退卡，不能充值',
  openidNeeded: '微信内支付需要先完成微信授权（code）',
  /** The provider refused or could not be reached (its words after the colon). */
  providerFailed: (reason: string) => `发起支付失败：${reason}`,
  oauthFailed: (reason: string) => `微信授权失败：${reason}`,
  connectionOk: (name: string) => `${name}连接正常，密钥可用`,
  connectionFailed: (name: string, reason: string) => `${name}连接失败：${reason}`,
  deskMethod: '扫码收款的方式只能是 wechat_native（微信）或 alipay_precreate（支付宝）',
  deskAmount: '请填写充值金额（大于 0 的整数，分）',
  status: '订单状态只能是 created、paid、closed、refunded、partially_refunded 或 exception',
  listRange: `线上订单的日期范围最多${PAY_ORDER_LIST_MAX_DAYS}天`,
} as const;

/**
 * Why a paid order could not be fulfilled (异常订单, status `exception`): the member paid, the card could
 * not be issued or the top-up credited. The order keeps the reason; 线上订单 offers 原路退款 (in full).
 */
export const PayExceptionMsg = {
  productGone: '卡种已删除，无法发卡',
  productChanged: '卡种已不能按线上售卖发卡（缺少默认额度或有效天数）',
  memberGone: '会员已不存在',
  cardGone: '会员卡已不存在，无法充值',
  cardRefunded: '会员卡已退卡，无法充值',
  cardTransferred: '会员卡已转给其他会员，无法充值',
  /**
   * A refund the provider refused once its card was closed (退卡) meanwhile: the money can no longer go
   * back on the card, so it goes back to the member through the provider again (issue 42).
   */
  refundFailedCardClosed: '退款失败时会员卡已退卡，钱未能退回卡内：请再次原路退款',
  /** The same, the card changed otherwise meanwhile (e.g. reopened or used): it cannot take the money back. */
  refundFailedCardChanged: '退款失败时会员卡已有变动，钱未能退回卡内：请再次原路退款',
  /** 今日 tells the manager (n orders). */
  today: (n: number) => `有 ${n} 笔线上订单已付款但未能发卡或充值（异常订单），请到 线上订单 原路退款`,
  /** 原路退款 of an 异常订单 is in full only. */
  wholeOnly: (amount: string) => `异常订单只能全额原路退款（${amount}）`,
} as const;

export const PAY_ORDER_METHODS = ['wechat_jsapi', 'wechat_native', 'alipay_wap', 'alipay_precreate'] as const;
export type PayOrderMethod = (typeof PAY_ORDER_METHODS)[number];
/** Order status codes (as stored) and their names on the wire. */
export const PAY_ORDER_STATUS = {
  0: 'created',
  1: 'paid',
  2: 'closed',
  3: 'refunded',
  4: 'partially_refunded',
  5: 'exception',
} as const;
export const PAY_ORDER_STATUS_LABEL = {
  created: '待支付',
  paid: '已支付',
  closed: '已关闭',
  refunded: '已退款',
  partially_refunded: '部分退款',
  exception: '异常订单',
} as const;
export type PayOrderStatus = keyof typeof PAY_ORDER_STATUS_LABEL;
/** Unpaid orders close after this many minutes (here and at the provider). */
export const PAY_ORDER_MINUTES = 15;

/**
 * Which of WeChat Pay's keys the store holds: the 微信支付公钥 (new merchants), platform certificates
 * (older ones), or both while the merchant switches from certificates to the public key (WeChat Pay
 * then signs with either; each answer and notification names its key in Wechatpay-Serial).
 */
export const WECHAT_KEY_MODES = ['none', 'public_key', 'certificate', 'switching'] as const;
export type WechatKeyMode = (typeof WECHAT_KEY_MODES)[number];
export const WECHAT_KEY_MODE_LABEL: Record<WechatKeyMode, string> = {
  none: '未设置微信支付的验签密钥',
  public_key: '微信支付公钥',
  certificate: '平台证书',
  switching: '平台证书切换到微信支付公钥中（两者并用）',
};

const zMethod = z.enum(PAY_ORDER_METHODS, { error: PayMsg.method });
const zProvider = z.enum(['wechat', 'alipay'], { error: PayMsg.provider });
/** A setting's text: trimmed, at most `max` characters; empty = not given. */
const zField = (max: number) =>
  z
    .string()
    .max(max, `内容不能超过${max}个字符`)
    .optional()
    .transform((v) => (v === undefined ? undefined : v.trim()));
/** WeChat Pay's 商户号 and AppID as WeChat gives them (issue 42, item 11): checked on the form and the server. */
export const WECHAT_MCH_ID = '^\\d{10}$';
export const WECHAT_APP_ID = '^wx[0-9a-zA-Z]{16}$';
export const PayIdMsg = {
  mchId: '微信支付商户号应为10位数字',
  appId: '公众号/小程序 AppID 应以 wx 开头，共18位字母或数字',
} as const;
const zChecked = (max: number, pattern: string, error: string) =>
  zField(max).refine((v) => !v || new RegExp(pattern).test(v), { error });

const zFen = z
  .number({ error: PayMsg.topupAmounts })
  .int(PayMsg.topupAmounts)
  .min(1, PayMsg.topupAmounts)
  .max(MAX_AMOUNT, PayMsg.topupAmounts);

export const zPaySetting = z.object({
  wechat: z.object({
    enabled: z.boolean(),
    mchId: z.string(),
    appId: z.string(),
    serialNo: z.string(),
    platformPublicKeyId: z.string(),
    /** Which of WeChat Pay's keys are used to verify (see WECHAT_KEY_MODES). */
    keyMode: z.enum(WECHAT_KEY_MODES),
    /** The platform certificates kept: each one's serial (what Wechatpay-Serial names) and expiry. */
    platformCertificates: z.array(z.object({ serialNo: z.string(), expiresAt: z.string() })),
    baseUrl: z.string(),
    oauthBaseUrl: z.string(),
    /** Every secret is set (APIv3 key, merchant private key, and the public key or a platform certificate). */
    secretsSet: z.boolean(),
    /** Each secret: 已设置 or not (never the value). */
    secrets: z.object({
      apiV3Key: z.boolean(),
      privateKey: z.boolean(),
      platformPublicKey: z.boolean(),
      appSecret: z.boolean(),
    }),
  }),
  alipay: z.object({
    enabled: z.boolean(),
    appId: z.string(),
    /** The merchant's PID (2088...): notifications must name it as seller_id when set. */
    sellerId: z.string(),
    gateway: z.string(),
    secretsSet: z.boolean(),
    secrets: z.object({ privateKey: z.boolean(), alipayPublicKey: z.boolean() }),
  }),
  topupAmounts: z.array(z.number()),
});
export type PaySetting = z.infer<typeof zPaySetting>;

export const queryPaySetting = defineCall({
  path: `${STORE_API}/query/pay/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: zPaySetting,
  summary: '在线收款设置（密钥只回答是否已设置）',
  example: {},
});

const OUTBOUND_ERRORS = [Msg.outboundUrl, Msg.outboundCredentials, Msg.outboundBlocked];

export const updatePaySetting = defineCall({
  path: `${STORE_API}/update/pay/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    wechat: z
      .object({
        enabled: z.boolean().optional(),
        mchId: zChecked(32, WECHAT_MCH_ID, PayIdMsg.mchId),
        appId: zChecked(32, WECHAT_APP_ID, PayIdMsg.appId),
        /** Secrets: omitted or empty = kept. */
        apiV3Key: zField(64),
        serialNo: zField(64),
        privateKey: zField(8000),
        platformPublicKey: zField(8000),
        platformPublicKeyId: zField(64),
        /** WeChat Pay platform certificates (PEM, one or more); omitted or empty = kept. */
        platformCertificates: zField(20000),
        /** Drop the platform certificates (the switch to the public key is done). */
        removePlatformCertificates: z.boolean().optional(),
        appSecret: zField(64),
        baseUrl: zField(300),
        oauthBaseUrl: zField(300),
      })
      .optional(),
    alipay: z
      .object({
        enabled: z.boolean().optional(),
        appId: zField(32),
        sellerId: zField(32),
        privateKey: zField(8000),
        alipayPublicKey: zField(8000),
        gateway: zField(300),
      })
      .optional(),
    topupAmounts: z.array(zFen).max(10, PayMsg.topupAmounts).optional(),
  }),
  res: z.null(),
  summary: '保存在线收款设置（微信支付、支付宝、充值金额；未填的密钥保持不变）',
  example: { topupAmounts: [50000, 100000, 200000] },
  errors: fails.badRequest(
    PayIdMsg.mchId,
    PayIdMsg.appId,
    PayMsg.missing('{项目}'),
    PayMsg.apiV3Key,
    PayMsg.merchantKey,
    PayMsg.platformKey,
    PayMsg.platformCertificate,
    PayMsg.platformKeyNeeded,
    PayMsg.alipayPrivateKey,
    PayMsg.alipayPublicKey,
    ...OUTBOUND_ERRORS,
  ),
});

/** 测试连接: queries a made-up order at the provider; a signed "no such order" means the keys work. */
export const queryPayConnection = defineCall({
  path: `${STORE_API}/query/pay/connection`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ provider: zProvider }),
  res: z.object({ ok: z.boolean(), message: z.string() }),
  summary: '测试在线收款连接（用一个不存在的订单号查询，验证密钥是否可用）',
  example: { provider: 'wechat' },
  errors: fails.conflict(PayMsg.notEnabled('{渠道}')),
});

/** A card product members can buy online. */
export const zProductOnSale = z.object({
  id: z.number(),
  name: z.string(),
  /** The online price, fen. */
  price: z.number(),
  /** What it includes, in words (10次, 500.00元, valid days). */
  summary: z.string(),
  trial: z.number(),
  bigType: z.number(),
  totalCount: z.number(),
  validDays: z.number().nullable(),
});

export const memberQueryProducts = defineCall({
  path: `${MEMBER_API}/query/products`,
  kind: 'read',
  auth: 'member',
  req: z.object({ storeId: z.number().int().optional() }).loose(),
  res: z.object({
    list: z.array(zProductOnSale),
    /** Top-up amounts (fen) the manager lists, for the member's money cards. */
    topupAmounts: z.array(z.number()),
    /** Which providers take payments now. */
    wechat: z.boolean(),
    alipay: z.boolean(),
    /** The member's openid for WeChat Pay is bound: 微信内支付 needs no new authorisation (no wxCode). */
    wechatPayBound: z.boolean(),
  }),
  summary: '线上售卖的卡种、充值金额和可用的支付方式',
  example: {},
});

export const zPayOrder = z.object({
  orderNo: z.string(),
  status: z.enum(Object.keys(PAY_ORDER_STATUS_LABEL) as [PayOrderStatus, ...PayOrderStatus[]]),
  kind: z.enum(['card', 'topup']),
  /** The product's name, or 充值. */
  name: z.string(),
  amount: z.number(),
  refunded: z.number(),
  method: zMethod,
  /** The card issued (or topped up), once paid. */
  memberCardId: z.number().nullable(),
  createTime: z.string(),
  expireTime: z.string(),
  paidTime: z.string().nullable(),
  closeTime: z.string().nullable(),
});
export type PayOrder = z.infer<typeof zPayOrder>;

export const memberCreateOrder = defineCall({
  path: `${MEMBER_API}/create/order`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    productId: zId('请选择卡种').optional(),
    mcId: zId('请选择会员卡').optional(),
    amount: zFen.optional(),
    method: zMethod,
    /**
     * wechat_jsapi: the code of WeChat's web authorisation (snsapi_base), for the member's openid; may be
     * left out when the member's openid is bound (wechatPayBound), which is then used.
     */
    wxCode: z.string().max(128).optional(),
    /** With wxCode: the state WeChat's authorisation sent back with it (one memberWechatState gave this session). */
    wxState: zWechatState.optional(),
    /** alipay_wap: where the browser returns after paying (the members' page). */
    returnUrl: z.string().max(500).optional(),
    /** The seller's code of the link the member came through (推广链接); an unknown one is ignored. */
    seller: z.string().max(32).optional(),
    /**
     * A card (productId): the member read the contract (memberContractPreview) and signs it before
     * paying: the tick (我已阅读并同意) and the code texted to them (memberSendContractCode).
     */
    agree: z.boolean().optional(),
    signCode: z.string().trim().max(10).optional(),
  }),
  res: z.object({
    orderNo: z.string(),
    amount: z.number(),
    expireTime: z.string(),
    /** wechat_jsapi: the parameters for WeixinJSBridge getBrandWCPayRequest. */
    pay: z
      .object({
        appId: z.string(),
        timeStamp: z.string(),
        nonceStr: z.string(),
        package: z.string(),
        signType: z.string(),
        paySign: z.string(),
      })
      .nullable(),
    /** wechat_native: code_url; alipay_precreate: qr_code (shown as a QR). */
    codeUrl: z.string().nullable(),
    /** alipay_wap: the gateway URL the phone opens. */
    payUrl: z.string().nullable(),
  }),
  summary:
    '会员下单购卡或充值（微信内、微信扫码、支付宝手机网站、支付宝扫码）；购卡须先签署合同：勾选我已阅读并同意（agree），并填写短信验证码（signCode）',
  example: { productId: 1, method: 'wechat_native', agree: true, signCode: '123456' },
  errors: [
    ...fails.badRequest(
      PayMsg.productOrTopup,
      PayMsg.openidNeeded,
      PayMsg.topupAmount,
      NotifyMsg.stateExpired,
      ContractMsg.agree,
      ContractMsg.code,
      ContractMsg.badCode,
    ),
    ...fails.notFound('卡种', '会员卡'),
    ...fails.conflict(
      PayMsg.notEnabled('{渠道}'),
      PayMsg.notOnSale,
      PayMsg.trialOnce,
      PayMsg.notMoneyCard,
      PayMsg.cardRefunded,
      PayMsg.providerFailed('{原因}'),
      PayMsg.oauthFailed('{原因}'),
    ),
    ...prepaidLimitErrors,
  ],
});

/** 我已支付: the order; while unpaid, the provider is asked and a paid order fulfilled at once. */
export const memberQueryOrder = defineCall({
  path: `${MEMBER_API}/query/order`,
  kind: 'read',
  auth: 'member',
  req: z.object({ orderNo: z.string().min(1, '请提供订单号').max(64, '订单号不正确') }),
  res: zPayOrder,
  summary: '查询自己的订单（未支付时向支付渠道查询，已支付则立即发卡）',
  example: { orderNo: 'P1202601011200001234' },
  errors: fails.notFound('订单'),
});

export const memberQueryOrders = defineCall({
  path: `${MEMBER_API}/query/my/orders`,
  kind: 'read',
  auth: 'member',
  req: z.object({ page: zPage() }),
  res: zPaged(zPayOrder),
  summary: '我的订单，新的在前，每页10条',
  example: { page: 1 },
});

// The desk's 扫码收款 (a QR the member scans at the counter) and the store's online orders.

const zOrderNo = z.string().min(1, '请提供订单号').max(64, '订单号不正确');
/** A card product (on sale online) or a top-up of the member's money card: exactly one of the two. */
const DESK_METHODS = ['wechat_native', 'alipay_precreate'] as const;

export const createPayOrder = defineCall({
  path: `${STORE_API}/create/pay/order`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  idFields: ['mid', 'productId', 'sellerId'],
  req: z.object({
    mid: zId('请选择会员'),
    productId: zId('请选择卡种').optional(),
    mcId: zId('请选择会员卡').optional(),
    /** A top-up's amount, fen (the desk may take any amount, as at the counter). */
    amount: z
      .number({ error: PayMsg.deskAmount })
      .int(PayMsg.deskAmount)
      .min(1, PayMsg.deskAmount)
      .max(MAX_AMOUNT, PayMsg.deskAmount)
      .optional(),
    method: z.enum(DESK_METHODS, { error: PayMsg.deskMethod }),
    /** 销售员 (absent: who is signed in): the sales commission counts them. */
    sellerId: zSellerId(),
  }),
  res: z.object({
    orderNo: z.string(),
    amount: z.number(),
    expireTime: z.string(),
    /** wechat_native: code_url; alipay_precreate: qr_code (shown as a QR for the member to scan). */
    codeUrl: z.string(),
  }),
  summary: '前台扫码收款（为会员下单购卡或充值，会员用微信或支付宝扫码支付；销售员默认当前登录员工）',
  example: { mid: 1, productId: 1, method: 'wechat_native', sellerId: 2 },
  errors: [
    ...sellerErrors,
    ...fails.badRequest(PayMsg.productOrTopup),
    ...fails.notFound('会员', '卡种', '会员卡'),
    ...fails.conflict(
      PayMsg.notEnabled('{渠道}'),
      PayMsg.notOnSale,
      PayMsg.trialOnce,
      PayMsg.notMoneyCard,
      PayMsg.cardRefunded,
      PayMsg.providerFailed('{原因}'),
    ),
    ...prepaidLimitErrors,
  ],
});

/** The order (the desk's QR polls it): while unpaid the provider is asked, and a paid order is fulfilled now. */
export const queryPayOrder = defineCall({
  path: `${STORE_API}/query/pay/order`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ orderNo: zOrderNo }),
  res: zPayOrder,
  summary: '查询线上订单（未支付时向支付渠道查询，已支付则立即发卡）',
  example: { orderNo: 'P1202601011200001234' },
  errors: fails.notFound('订单'),
});

/** A refund's status: 退款中, 已退款, 退款失败 (the card put back), 退款异常 (WeChat's ABNORMAL, the manager acts). */
/** The providers' names in staff and member words. */
export const PROVIDER_LABEL = { wechat: '微信支付', alipay: '支付宝' } as const;

export const PAY_REFUND_STATUS = { 0: 'processing', 1: 'success', 2: 'failed', 3: 'abnormal' } as const;
export type PayRefundStatus = (typeof PAY_REFUND_STATUS)[keyof typeof PAY_REFUND_STATUS];
export const PAY_REFUND_STATUS_LABEL: Record<PayRefundStatus, string> = {
  processing: '退款中',
  success: '已退款',
  failed: '退款失败',
  abnormal: '退款异常',
};

/** A refund of an online order as 线上订单 shows it: what the manager must do is in `note`. */
export const zPayRefund = z.object({
  refundNo: z.string(),
  amount: z.number(),
  reason: z.string(),
  status: z.enum(['processing', 'success', 'failed', 'abnormal']),
  /** 退款失败: the provider's reason (the card was put back); 退款异常: what the manager must do. */
  note: z.string().nullable(),
  createTime: z.string(),
  settleTime: z.string().nullable(),
});
export type PayRefund = z.infer<typeof zPayRefund>;

/** An order as the store's list shows it: the member and who took it at the desk (null: the member's own). */
export const zStorePayOrder = zPayOrder.extend({
  memberId: z.number(),
  memberName: z.string(),
  memberMobile: z.string(),
  staffName: z.string().nullable(),
  /** The order's refunds, oldest first. */
  refunds: z.array(zPayRefund),
  /**
   * 异常订单 (paid, not fulfilled; or a refund refused once its card was closed, issue 42): why; stays
   * after its 原路退款 (then the status is refunded).
   */
  exceptionReason: z.string().nullable(),
  /** What the 原路退款 of an 异常订单 pays back (fen, in full only); null for other statuses. */
  exceptionDue: z.number().int().nullable(),
});
export type StorePayOrder = z.infer<typeof zStorePayOrder>;

export const queryPayOrderList = defineCall({
  path: `${STORE_API}/query/pay/order/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({
      fromDate: zDate(Msg.chooseDates),
      toDate: zDate(Msg.chooseDates),
      status: z
        .enum(Object.keys(PAY_ORDER_STATUS_LABEL) as [PayOrderStatus, ...PayOrderStatus[]], {
          error: PayMsg.status,
        })
        .optional(),
      page: zPage(),
    })
    .superRefine((v, ctx) =>
      checkRange(ctx, v.fromDate, v.toDate, 'toDate', PAY_ORDER_LIST_MAX_DAYS, PayMsg.listRange),
    ),
  res: zPaged(zStorePayOrder),
  summary: '线上订单（按下单日期和状态筛选，新的在前，每页20条）',
  example: { fromDate: '2026-11-01', toDate: '2026-11-30', page: 1 },
  errors: fails.badRequest(Msg.rangeOrder, PayMsg.listRange),
});

/** Messages of refunds of online orders. */
export const RefundMsg = {
  amount: '退款金额应为大于 0 的整数（分）',
  reason: '请填写退款原因',
  reasonLong: '退款原因不能超过80个字符',
  notPaid: '该订单未支付，不能退款',
  allRefunded: '该订单已全部退款',
  /** `left`: what may still be refunded, in words (e.g. 99.00 元). */
  tooMuch: (left: string) => `退款金额超过订单可退金额（还可退 ${left}）`,
  cardUsed: '该卡已有消费或预约，不能退卡退款',
  cardRefunded: '该卡已退卡，不能再退款',
  cardChanged: '会员卡刚刚有变动，请刷新后重试',
  topupBalance: '卡内余额不足以退回这笔金额',
  /** The provider refused the refund (its reason after the colon): the card is put back. */
  refused: (reason: string) => `退款失败，会员卡已恢复：${reason}`,
  /** The provider refused the 原路退款 of an 异常订单 (it changed no card): the money is still the store's to pay back. */
  refusedNoCard: (reason: string) => `退款失败，款项仍在本店，可再次原路退款：${reason}`,
  /** 线上订单's note of a refused refund whose card was put back (its reason first). */
  failedPutBack: (reason: string) => `${reason}（会员卡已恢复）`,
  /** 线上订单's note of a refused 原路退款 of an 异常订单 (no card changed). */
  failedNoCard: (reason: string) => `${reason}（款项仍在本店，可再次原路退款）`,
  /** Refused once the card was closed or transferred meanwhile: nothing put back, the order is 异常订单. */
  refusedCardClosed: (reason: string) =>
    `退款失败：${reason}。会员卡已退卡或转卡，钱未能退回卡内，订单已转为异常订单，请在线上订单中再次原路退款`,
  /** 线上订单's note of such a refund (its reason first). */
  failedCardClosed: (reason: string) => `${reason}（会员卡已退卡或转卡，未能恢复；订单已转为异常订单，请再次原路退款）`,
  /** The desk refunds a card order within its cooling-off days only (issue 29); the rest is the manager's. */
  manager: '已过冷静期的退卡和充值订单的退款需要店长操作',
  /** Within the cooling-off days but the card opened (a class taken, a leave begun, a transfer): as at the desk's 退卡. */
  managerOpened: CardMsg.refundOpened,
  /** A card bought online also holds money taken at the desk: that goes back at the desk first (退回充值). */
  deskFirst: (amount: string) => `这张卡还有门店收取的 ${amount}，请先在会员卡的充值记录中退回，再退卡`,
  /**
   * WeChat Pay's ABNORMAL (退款异常): the money could not go back the way it came (e.g. the member's
   * bank card is closed). Not refused (the card stays as the refund left it), not done either.
   */
  abnormal:
    '微信支付退款异常：钱未能原路退回（如会员的银行卡已注销），请到微信支付商户平台处理异常退款（退到会员其他银行卡或商户账户）',
} as const;

/**
 * 店长 refunds an online order, whole or part, through its provider. A card order's refund closes the
 * card (退卡, the card unused) whatever the amount; a top-up order's refund takes the amount off the
 * card's balance. The answer comes once the provider answered: refused → 409 with its reason (the card
 * put back); success or still processing (settled by the provider's notification) → code 0.
 */
export const refundPayOrder = defineCall({
  path: `${STORE_API}/refund/pay/order`,
  kind: 'write',
  auth: 'store',
  // The desk too, for a card bought online and refunded in full within its cooling-off days (issue 29).
  roles: Roles.desk,
  req: z.object({
    orderNo: z.string().min(1, '请提供订单号').max(64, '订单号不正确'),
    amount: z
      .number({ error: RefundMsg.amount })
      .int(RefundMsg.amount)
      .min(1, RefundMsg.amount)
      .max(MAX_AMOUNT, RefundMsg.amount),
    reason: z.string({ error: RefundMsg.reason }).trim().min(1, RefundMsg.reason).max(80, RefundMsg.reasonLong),
  }),
  res: z.null(),
  summary: '线上订单退款（整单或部分，原路退回；卡种订单退卡，充值订单扣回余额）',
  example: { orderNo: 'P1202601011200001234', amount: 9900, reason: '会员搬家，无法继续上课' },
  errors: [
    ...fails.badRequest(RefundMsg.amount, RefundMsg.reason, RefundMsg.reasonLong),
    ...fails.notFound('订单'),
    ...fails.conflict(
      RefundMsg.notPaid,
      RefundMsg.allRefunded,
      RefundMsg.tooMuch('{金额}'),
      RefundMsg.cardUsed,
      RefundMsg.cardRefunded,
      RefundMsg.cardChanged,
      RefundMsg.topupBalance,
      PayExceptionMsg.wholeOnly('{金额}'),
      RefundMsg.deskFirst('{金额}'),
      RefundMsg.refused('{原因}'),
      RefundMsg.refusedNoCard('{原因}'),
      RefundMsg.refusedCardClosed('{原因}'),
      PayMsg.notEnabled('{渠道}'),
    ),
    { status: 403, msg: RefundMsg.manager },
    { status: 403, msg: RefundMsg.managerOpened },
  ],
});

/**
 * Kinds of reconciliation differences: paid at the provider only, paid here only, amounts differ; and
 * the same for refunds (the bill's refund lines against our refunds 已退款 that day, by refund number).
 */
export const RECONCILE_KINDS = [
  'provider_only',
  'local_only',
  'amount',
  'refund_provider_only',
  'refund_local_only',
  'refund_amount',
] as const;
export type ReconcileKind = (typeof RECONCILE_KINDS)[number];
export const RECONCILE_KIND_LABEL: Record<ReconcileKind, string> = {
  provider_only: '渠道有、本店无',
  local_only: '本店有、渠道无',
  amount: '金额不一致',
  refund_provider_only: '渠道已退款、本店未退款',
  refund_local_only: '本店已退款、渠道无退款',
  refund_amount: '退款金额不一致',
};
export const ReconcileMsg = {
  date: '请选择对账日期（今天以前的日子）',
  running: '这一天的对账正在进行，请稍后再看',
  noProvider: '本店还没有开通在线收款，没有账单可对',
  /** A refund 退款失败 here that the bill shows refunded, by what the refusal did here. */
  refusedPutBack: '本店记为退款失败（会员卡已恢复），渠道却已退款，请核实',
  refusedNoCard: '本店记为退款失败（异常订单的原路退款，款项仍在本店），渠道却已退款，请核实',
  refusedStranded: '本店记为退款失败（会员卡未能恢复，订单已转为异常订单），渠道却已退款，请核实',
} as const;

/** One difference between the provider's bill and our orders (fen); `action` says what was done. */
export const zReconcileDifference = z.object({
  orderNo: z.string(),
  kind: z.enum(RECONCILE_KINDS),
  /** The refund's number (refund_* kinds; absent for payments). */
  refundNo: z.string().nullable().optional(),
  /** What we hold: the paid amount (fen), or null when we have no paid order. */
  local: z.number().nullable(),
  /** What the bill says (fen), or null when the bill lacks it. */
  provider: z.number().nullable(),
  /** e.g. 已补发（按渠道查询到账后发卡）; null: listed only, for staff to look into. */
  action: z.string().nullable(),
});
export const zReconcileResult = z.object({
  provider: zProvider,
  date: z.string(),
  /** 'none': not reconciled yet; 'running'; 'done'; 'failed' (error says why). */
  status: z.enum(['none', 'running', 'done', 'failed']),
  matched: z.number(),
  differences: z.array(zReconcileDifference),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type ReconcileResult = z.infer<typeof zReconcileResult>;
/** A day of the providers' bills (one provider, or every one the store takes payments with). */
const zReconcileDay = z.object({ date: zDate(ReconcileMsg.date), provider: zProvider.optional() });
const zReconcileList = z.object({ list: z.array(zReconcileResult) });

/** 对账: the last reconciliation of a day's bill, per provider the store takes payments with. */
export const queryPayReconcile = defineCall({
  path: `${STORE_API}/query/pay/reconcile`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zReconcileDay,
  res: zReconcileList,
  summary: '对账结果（某一天的渠道账单与本店订单逐笔核对：两边都有、渠道有本店无、本店有渠道无、金额不一致）',
  example: { date: '2026-11-26' },
  errors: fails.badRequest(ReconcileMsg.date),
});

/** 重新对账: downloads the day's bill now and matches it again (the morning job does it by itself). */
export const runPayReconcile = defineCall({
  path: `${STORE_API}/run/pay/reconcile`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zReconcileDay,
  res: zReconcileList,
  summary: '立即对账（下载渠道账单重新核对；渠道有本店无的订单经渠道查询确认到账后补发）',
  example: { date: '2026-11-26' },
  errors: [...fails.badRequest(ReconcileMsg.date), ...fails.conflict(ReconcileMsg.running, ReconcileMsg.noProvider)],
});

export const paymentCalls = [
  queryPaySetting,
  updatePaySetting,
  queryPayConnection,
  memberQueryProducts,
  memberCreateOrder,
  memberQueryOrder,
  memberQueryOrders,
  createPayOrder,
  queryPayOrder,
  queryPayOrderList,
  refundPayOrder,
  queryPayReconcile,
  runPayReconcile,
] as const;
