// Online payment (issue 28): the store's WeChat Pay / Alipay accounts, card products and top-ups
// members buy on their phone, and their orders (server: features/payment). The providers'
// notifications (POST /pay/notify/wechat/:storeId, /pay/notify/alipay/:storeId) are plain routes
// outside the contract: providers do not speak {code, data, msg}.
import { z } from 'zod';
import { zEmpty, zId, zPage, zPaged } from '../common.ts';
import { MAX_AMOUNT } from '../constants.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { Msg } from '../messages.ts';
import { MEMBER_API } from './member-channel.ts';

/** Messages of online payment. */
export const PayMsg = {
  method: '付款方式只能是 wechat_jsapi、wechat_native、alipay_wap 或 alipay_precreate',
  provider: '支付渠道只能是 wechat 或 alipay',
  notEnabled: (name: string) => `本店暂未开通${name}在线收款`,
  missing: (what: string) => `请填写${what}`,
  apiV3Key: 'APIv3 密钥应为 32 个字符',
  merchantKey: '商户 API 私钥无法读取，请粘贴 apiclient_key.pem 的全部内容',
  platformKey: '微信支付平台公钥无法读取，请粘贴完整的公钥',
  alipayPrivateKey: '支付宝应用私钥无法读取',
  alipayPublicKey: '支付宝公钥无法读取',
  topupAmounts: '充值金额应为 1 到 10 个大于 0 的整数（分）',
  productOrTopup: '请选择要购买的卡种，或要充值的会员卡和金额',
  notOnSale: '该卡种暂不在线上售卖',
  trialOnce: '体验卡每位会员只能购买一次',
  notMoneyCard: '只能给自己的储值卡充值',
  topupAmount: '请选择店长设定的充值金额',
  cardRefunded: '该卡已退卡，不能充值',
  openidNeeded: '微信内支付需要先完成微信授权（code）',
  /** The provider refused or could not be reached (its words after the colon). */
  providerFailed: (reason: string) => `发起支付失败：${reason}`,
  oauthFailed: (reason: string) => `微信授权失败：${reason}`,
  connectionOk: (name: string) => `${name}连接正常，密钥可用`,
  connectionFailed: (name: string, reason: string) => `${name}连接失败：${reason}`,
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
} as const;
export const PAY_ORDER_STATUS_LABEL = {
  created: '待支付',
  paid: '已支付',
  closed: '已关闭',
  refunded: '已退款',
  partially_refunded: '部分退款',
} as const;
export type PayOrderStatus = keyof typeof PAY_ORDER_STATUS_LABEL;
/** Unpaid orders close after this many minutes (here and at the provider). */
export const PAY_ORDER_MINUTES = 15;

const zMethod = z.enum(PAY_ORDER_METHODS, { error: PayMsg.method });
const zProvider = z.enum(['wechat', 'alipay'], { error: PayMsg.provider });
/** A setting's text: trimmed, at most `max` characters; empty = not given. */
const zField = (max: number) =>
  z
    .string()
    .max(max, `内容不能超过${max}个字符`)
    .optional()
    .transform((v) => (v === undefined ? undefined : v.trim()));
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
    baseUrl: z.string(),
    oauthBaseUrl: z.string(),
    /** Every secret is set (APIv3 key, merchant private key, platform public key). */
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
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    wechat: z
      .object({
        enabled: z.boolean().optional(),
        mchId: zField(32),
        appId: zField(32),
        /** Secrets: omitted or empty = kept. */
        apiV3Key: zField(64),
        serialNo: zField(64),
        privateKey: zField(8000),
        platformPublicKey: zField(8000),
        platformPublicKeyId: zField(64),
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
    PayMsg.missing('{项目}'),
    PayMsg.apiV3Key,
    PayMsg.merchantKey,
    PayMsg.platformKey,
    PayMsg.alipayPrivateKey,
    PayMsg.alipayPublicKey,
    ...OUTBOUND_ERRORS,
  ),
});

/** 测试连接: queries a made-up order at the provider; a signed "no such order" means the keys work. */
export const queryPayConnection = defineCall({
  path: `${STORE_API}/query/pay/connection`,
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
  auth: 'member',
  req: z.object({ storeId: z.number().int().optional() }).loose(),
  res: z.object({
    list: z.array(zProductOnSale),
    /** Top-up amounts (fen) the manager lists, for the member's money cards. */
    topupAmounts: z.array(z.number()),
    /** Which providers take payments now. */
    wechat: z.boolean(),
    alipay: z.boolean(),
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
  auth: 'member',
  req: z.object({
    productId: zId('请选择卡种').optional(),
    mcId: zId('请选择会员卡').optional(),
    amount: zFen.optional(),
    method: zMethod,
    /** wechat_jsapi: the code of WeChat's web authorisation (snsapi_base), for the member's openid. */
    wxCode: z.string().max(128).optional(),
    /** alipay_wap: where the browser returns after paying (the members' page). */
    returnUrl: z.string().max(500).optional(),
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
  summary: '会员下单购卡或充值（微信内、微信扫码、支付宝手机网站、支付宝扫码）',
  example: { productId: 1, method: 'wechat_native' },
  errors: [
    ...fails.badRequest(PayMsg.productOrTopup, PayMsg.openidNeeded, PayMsg.topupAmount),
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
  ],
});

/** 我已支付: the order; while unpaid, the provider is asked and a paid order fulfilled at once. */
export const memberQueryOrder = defineCall({
  path: `${MEMBER_API}/query/order`,
  auth: 'member',
  req: z.object({ orderNo: z.string().min(1, '请提供订单号').max(64, '订单号不正确') }),
  res: zPayOrder,
  summary: '查询自己的订单（未支付时向支付渠道查询，已支付则立即发卡）',
  example: { orderNo: 'P1202601011200001234' },
  errors: fails.notFound('订单'),
});

export const memberQueryOrders = defineCall({
  path: `${MEMBER_API}/query/my/orders`,
  auth: 'member',
  req: z.object({ page: zPage() }),
  res: zPaged(zPayOrder),
  summary: '我的订单，新的在前，每页10条',
  example: { page: 1 },
});

export const paymentCalls = [
  queryPaySetting,
  updatePaySetting,
  queryPayConnection,
  memberQueryProducts,
  memberCreateOrder,
  memberQueryOrder,
  memberQueryOrders,
] as const;
