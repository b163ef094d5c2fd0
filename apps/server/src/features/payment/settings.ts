import crypto from 'node:crypto';
import {
  PayMsg,
  PROVIDER_LABEL as CONTRACT_PROVIDER_LABEL,
  WECHAT_KEY_MODE_LABEL,
  type WechatKeyMode,
  type PaySetting,
  type ParsedReqOf,
  type updatePaySetting,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { AppDeps, CallCtx } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { checkOutboundTarget, OutboundRefused } from '../../lib/outbound.ts';
import { Alipay } from './providers/alipay.ts';
import { PaymentProviderError, type PaymentProvider, type ProviderName } from './providers/types.ts';
import { WechatPay } from './providers/wechatpay.ts';
import { paySettingRow, putPaySetting } from './repository.ts';

/** A store's WeChat Pay account as kept (secrets included: never answered, never logged). */
export interface WechatSetting {
  enabled: boolean;
  mchId: string;
  appId: string;
  apiV3Key: string;
  serialNo: string;
  privateKey: string;
  /** The 微信支付公钥 (PEM) and its id (PUB_KEY_ID_...): empty for a merchant on certificates only. */
  platformPublicKey: string;
  platformPublicKeyId: string;
  /** WeChat Pay platform certificates (PEM, one or more, issue 42): empty for a merchant on the public key only. */
  platformCertificates: string;
  appSecret: string;
  baseUrl: string;
  oauthBaseUrl: string;
}
export interface AlipaySetting {
  enabled: boolean;
  appId: string;
  sellerId: string;
  privateKey: string;
  alipayPublicKey: string;
  gateway: string;
}
export interface StoredPaySetting {
  wechat: WechatSetting;
  alipay: AlipaySetting;
  topupAmounts: number[];
}

const EMPTY_WECHAT: WechatSetting = {
  enabled: false,
  mchId: '',
  appId: '',
  apiV3Key: '',
  serialNo: '',
  privateKey: '',
  platformPublicKey: '',
  platformPublicKeyId: '',
  platformCertificates: '',
  appSecret: '',
  baseUrl: '',
  oauthBaseUrl: '',
};
const EMPTY_ALIPAY: AlipaySetting = {
  enabled: false,
  appId: '',
  sellerId: '',
  privateKey: '',
  alipayPublicKey: '',
  gateway: '',
};

export const PROVIDER_LABEL: Record<ProviderName, string> = CONTRACT_PROVIDER_LABEL;

function parseJson<T extends object>(text: string | null | undefined, empty: T): T {
  if (!text) return { ...empty };
  try {
    return { ...empty, ...(JSON.parse(text) as Partial<T>) };
  } catch {
    return { ...empty };
  }
}

/** The store's settings as kept (defaults when none were saved). */
export async function loadPaySetting(ex: Executor, storeId: number): Promise<StoredPaySetting> {
  const row = await paySettingRow(ex, storeId);
  const amounts = parseJson<{ a: unknown }>(`{"a":${row?.topupAmounts ?? '[]'}}`, { a: [] }).a;
  return {
    wechat: parseJson(row?.wechat, EMPTY_WECHAT),
    alipay: parseJson(row?.alipay, EMPTY_ALIPAY),
    topupAmounts: Array.isArray(amounts) ? amounts.filter((n): n is number => Number.isSafeInteger(n) && n > 0) : [],
  };
}

/** The PEM certificates of a text (one or more BEGIN/END CERTIFICATE blocks). */
export function certificatesOf(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/**
 * Which of WeChat Pay's keys the setting holds: the 微信支付公钥 (with its id), platform certificates,
 * or both (a merchant switching from certificates to the public key: WeChat Pay signs with either).
 */
export function wechatKeyMode(w: WechatSetting): WechatKeyMode {
  const publicKey = Boolean(w.platformPublicKey && w.platformPublicKeyId);
  const certificates = certificatesOf(w.platformCertificates).length > 0;
  if (publicKey && certificates) return 'switching';
  if (publicKey) return 'public_key';
  return certificates ? 'certificate' : 'none';
}

/** Each platform certificate's serial (what Wechatpay-Serial names) and expiry (store-readable). */
function certificateList(w: WechatSetting) {
  return certificatesOf(w.platformCertificates).flatMap((pem) => {
    try {
      const c = new crypto.X509Certificate(pem);
      return [{ serialNo: c.serialNumber.toUpperCase(), expiresAt: new Date(c.validTo).toISOString().slice(0, 10) }];
    } catch {
      return [];
    }
  });
}

/** What the manager sees: every field but the secrets, which are answered as 已设置 only. */
export function publicSetting(s: StoredPaySetting): PaySetting {
  const w = s.wechat;
  const a = s.alipay;
  const wSecrets = {
    apiV3Key: Boolean(w.apiV3Key),
    privateKey: Boolean(w.privateKey),
    platformPublicKey: Boolean(w.platformPublicKey),
    appSecret: Boolean(w.appSecret),
  };
  const aSecrets = { privateKey: Boolean(a.privateKey), alipayPublicKey: Boolean(a.alipayPublicKey) };
  return {
    wechat: {
      enabled: w.enabled,
      mchId: w.mchId,
      appId: w.appId,
      serialNo: w.serialNo,
      platformPublicKeyId: w.platformPublicKeyId,
      keyMode: wechatKeyMode(w),
      platformCertificates: certificateList(w),
      baseUrl: w.baseUrl,
      oauthBaseUrl: w.oauthBaseUrl,
      secretsSet: wSecrets.apiV3Key && wSecrets.privateKey && wechatKeyMode(w) !== 'none',
      secrets: wSecrets,
    },
    alipay: {
      enabled: a.enabled,
      appId: a.appId,
      sellerId: a.sellerId,
      gateway: a.gateway,
      secretsSet: aSecrets.privateKey && aSecrets.alipayPublicKey,
      secrets: aSecrets,
    },
    topupAmounts: s.topupAmounts,
  };
}

export async function queryPaySettings(ctx: CallCtx): Promise<PaySetting> {
  return publicSetting(await loadPaySetting(ctx.db, ctx.store.id));
}

type Outbound = Pick<AppDeps, 'config'>;

/** The WeChat Pay adapter of a setting (throws PaymentProviderError 'config' when a key does not parse). */
export function wechatOf(w: WechatSetting, deps: Outbound): WechatPay {
  return new WechatPay({
    mchid: w.mchId,
    appid: w.appId,
    apiV3Key: w.apiV3Key,
    merchantSerialNo: w.serialNo,
    merchantPrivateKey: w.privateKey,
    // The public key by its id (sent as Wechatpay-Serial), and each certificate by its own serial.
    platformKeys: [
      ...(w.platformPublicKey && w.platformPublicKeyId
        ? [{ id: w.platformPublicKeyId, pem: w.platformPublicKey }]
        : []),
      ...certificatesOf(w.platformCertificates).map((pem) => ({ pem })),
    ],
    publicKeyId: w.platformPublicKey && w.platformPublicKeyId ? w.platformPublicKeyId : undefined,
    appSecret: w.appSecret || undefined,
    apiBase: w.baseUrl || undefined,
    oauthBase: w.oauthBaseUrl || undefined,
    outbound: { allow: deps.config.outboundAllowHosts },
  });
}

export function alipayOf(a: AlipaySetting, deps: Outbound): Alipay {
  return new Alipay({
    appId: a.appId,
    appPrivateKey: a.privateKey,
    alipayPublicKey: a.alipayPublicKey,
    gateway: a.gateway || undefined,
    outbound: { allow: deps.config.outboundAllowHosts },
  });
}

/** The adapter of an enabled provider of the store, or null when it is off (or its keys no longer parse). */
export function providerOf(s: StoredPaySetting, name: ProviderName, deps: Outbound): PaymentProvider | null {
  try {
    if (name === 'wechat') return s.wechat.enabled ? wechatOf(s.wechat, deps) : null;
    return s.alipay.enabled ? alipayOf(s.alipay, deps) : null;
  } catch (e) {
    if (e instanceof PaymentProviderError) return null;
    throw e;
  }
}

const WECHAT_REQUIRED: [keyof WechatSetting, string][] = [
  ['mchId', '商户号'],
  ['appId', 'AppID'],
  ['apiV3Key', 'APIv3 密钥'],
  ['serialNo', '商户证书序列号'],
  ['privateKey', '商户 API 私钥'],
];
const ALIPAY_REQUIRED: [keyof AlipaySetting, string][] = [
  ['appId', 'AppID'],
  ['privateKey', '应用私钥'],
  ['alipayPublicKey', '支付宝公钥'],
];

/** Fields given (not undefined); empty secrets mean "keep", empty plain fields clear. */
function merge<T extends object>(old: T, given: Partial<T> | undefined, secrets: (keyof T)[]): T {
  const out = { ...old };
  for (const [k, v] of Object.entries(given ?? {}) as [keyof T, T[keyof T]][]) {
    if (v === undefined) continue;
    if (secrets.includes(k) && v === '') continue;
    out[k] = v;
  }
  return out;
}

async function checkAddress(url: string, deps: Outbound) {
  if (!url) return;
  try {
    await checkOutboundTarget(url, deps.config.outboundAllowHosts);
  } catch (e) {
    if (e instanceof OutboundRefused) throw badRequest(e.message);
    throw e;
  }
}

/** Saves the settings: keys that do not parse and addresses the outbound gate refuses are a 400. */
export async function savePaySettings(ctx: CallCtx, input: ParsedReqOf<typeof updatePaySetting>) {
  const old = await loadPaySetting(ctx.db, ctx.store.id);
  const { removePlatformCertificates, ...wechatInput } = input.wechat ?? {};
  const wechat = merge(old.wechat, wechatInput, [
    'apiV3Key',
    'privateKey',
    'platformPublicKey',
    'platformCertificates',
    'appSecret',
  ]);
  if (removePlatformCertificates) wechat.platformCertificates = '';
  const alipay = merge(old.alipay, input.alipay, ['privateKey', 'alipayPublicKey']);
  wechat.baseUrl = wechat.baseUrl.replace(/\/+$/, '');
  wechat.oauthBaseUrl = wechat.oauthBaseUrl.replace(/\/+$/, '');
  const topupAmounts = input.topupAmounts ? [...new Set(input.topupAmounts)] : old.topupAmounts;
  await checkAddress(wechat.baseUrl, ctx);
  await checkAddress(wechat.oauthBaseUrl, ctx);
  await checkAddress(alipay.gateway, ctx);
  if (wechat.enabled) {
    for (const [k, label] of WECHAT_REQUIRED) if (!wechat[k]) throw badRequest(PayMsg.missing(label));
    if (Buffer.byteLength(wechat.apiV3Key, 'utf8') !== 32) throw badRequest(PayMsg.apiV3Key);
    // The 微信支付公钥 comes with its id; either it or a platform certificate (or both, while switching).
    if (wechat.platformPublicKey && !wechat.platformPublicKeyId) throw badRequest(PayMsg.missing('微信支付公钥 ID'));
    if (wechat.platformPublicKeyId && !wechat.platformPublicKey) throw badRequest(PayMsg.missing('微信支付公钥'));
    if (wechat.platformCertificates && !certificatesOf(wechat.platformCertificates).length)
      throw badRequest(PayMsg.platformCertificate);
    if (wechatKeyMode(wechat) === 'none') throw badRequest(PayMsg.platformKeyNeeded);
    for (const pem of certificatesOf(wechat.platformCertificates)) {
      try {
        new crypto.X509Certificate(pem);
      } catch {
        throw badRequest(PayMsg.platformCertificate);
      }
    }
    try {
      wechatOf(wechat, ctx);
    } catch (e) {
      if (!(e instanceof PaymentProviderError)) throw e;
      throw badRequest(e.message.includes('私钥') ? PayMsg.merchantKey : PayMsg.platformKey);
    }
  }
  if (alipay.enabled) {
    for (const [k, label] of ALIPAY_REQUIRED) if (!alipay[k]) throw badRequest(PayMsg.missing(label));
    try {
      alipayOf(alipay, ctx);
    } catch (e) {
      if (!(e instanceof PaymentProviderError)) throw e;
      throw badRequest(e.message.includes('私钥') ? PayMsg.alipayPrivateKey : PayMsg.alipayPublicKey);
    }
  }
  const before = publicSetting(old);
  const after = publicSetting({ wechat, alipay, topupAmounts });
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await putPaySetting(tx, ctx.store.id, {
      wechat: JSON.stringify(wechat),
      alipay: JSON.stringify(alipay),
      topupAmounts: JSON.stringify(topupAmounts),
    });
    // The entry holds what the page shows (secrets as 已设置 only) and whether a secret was replaced.
    const replaced = [
      ...(['apiV3Key', 'privateKey', 'platformPublicKey', 'platformCertificates', 'appSecret'] as const)
        .filter((k) => input.wechat?.[k])
        .map((k) => `微信支付 ${k}`),
      ...(['privateKey', 'alipayPublicKey'] as const).filter((k) => input.alipay?.[k]).map((k) => `支付宝 ${k}`),
    ];
    audit(tx, {
      kind: 'settings',
      target: '在线收款',
      summary: replaced.length ? `保存在线收款设置（更换密钥：${replaced.join('、')}）` : '保存在线收款设置',
      before: { 微信支付: before.wechat, 支付宝: before.alipay, 充值金额: before.topupAmounts },
      after: { 微信支付: after.wechat, 支付宝: after.alipay, 充值金额: after.topupAmounts },
    });
  });
  return null;
}

/**
 * 测试连接: asks the provider about an order number nobody made. A signed "no such order" (or any
 * signed answer) means the keys and addresses work; anything else says why, in Chinese.
 */
export async function testPayConnection(ctx: CallCtx, provider: ProviderName) {
  const s = await loadPaySetting(ctx.db, ctx.store.id);
  const label = PROVIDER_LABEL[provider];
  const enabled = provider === 'wechat' ? s.wechat.enabled : s.alipay.enabled;
  if (!enabled) throw conflict(PayMsg.notEnabled(label));
  let p: PaymentProvider;
  try {
    p = provider === 'wechat' ? wechatOf(s.wechat, ctx) : alipayOf(s.alipay, ctx);
  } catch (e) {
    if (e instanceof PaymentProviderError) return { ok: false, message: PayMsg.connectionFailed(label, e.message) };
    throw e;
  }
  const probe = `TEST${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  try {
    if (p instanceof WechatPay) {
      // Each way WeChat Pay may sign for this store (public key, certificate, both while switching) is
      // asked once and verified: the message names the keys that signed.
      const used = await p.checkKeys(probe);
      const names = used.map((id) => (id === s.wechat.platformPublicKeyId ? `微信支付公钥 ${id}` : `平台证书 ${id}`));
      return {
        ok: true,
        message: PayMsg.connectionKeys(
          label,
          `${WECHAT_KEY_MODE_LABEL[wechatKeyMode(s.wechat)]}（${names.join('、')}）`,
        ),
      };
    }
    await p.queryOrder(probe);
    return { ok: true, message: PayMsg.connectionOk(label) };
  } catch (e) {
    if (e instanceof PaymentProviderError) {
      ctx.log.warn({ storeId: ctx.store.id, provider, kind: e.kind, code: e.code }, 'payment connection test failed');
      return { ok: false, message: PayMsg.connectionFailed(label, e.message) };
    }
    throw e;
  }
}
