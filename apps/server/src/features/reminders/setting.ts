import {
  NotifyMsg,
  SMS_DAILY_CAP_DEFAULT,
  type NotifyKind,
  type NotifySetting,
  type ParsedReqOf,
  type SmsTemplate,
  type updateNotifySetting,
  type WechatTemplate,
  WECHAT_AUTHORIZE_BASE,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/errors.ts';
import { checkOutboundTarget, OutboundRefused, type AllowedHost } from '../../lib/outbound.ts';
import { storedSmsSetting } from '../messaging/public.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';

/** The store setting holding the reminders' setting (the service account's secret included). */
const KEY = 'notifySetting';

/** The setting as kept on the server. */
export interface StoredNotifySetting {
  classReminderHours: number;
  quietFrom: string;
  quietTo: string;
  wechat: { appId: string; appSecret: string; baseUrl: string; authorizeBaseUrl: string; templates: WechatTemplate[] };
  sms: { templates: SmsTemplate[] };
}

export const NOTIFY_DEFAULT: StoredNotifySetting = {
  classReminderHours: 2,
  quietFrom: '22:00',
  quietTo: '08:00',
  wechat: { appId: '', appSecret: '', baseUrl: '', authorizeBaseUrl: '', templates: [] },
  sms: { templates: [] },
};

export const WECHAT_API_DEFAULT = 'https://api.weixin.qq.com';

export async function loadNotifySetting(ex: Executor, storeId: number): Promise<StoredNotifySetting> {
  const raw = await getSetting(ex, storeId, KEY);
  if (!raw) return structuredClone(NOTIFY_DEFAULT);
  try {
    const v = JSON.parse(raw) as Partial<StoredNotifySetting>;
    return {
      ...NOTIFY_DEFAULT,
      ...v,
      wechat: { ...NOTIFY_DEFAULT.wechat, ...v.wechat },
      sms: { ...NOTIFY_DEFAULT.sms, ...v.sms },
    };
  } catch {
    return structuredClone(NOTIFY_DEFAULT);
  }
}

/** The service account, when the store set one (AppID and AppSecret). */
export const wechatAccount = (s: StoredNotifySetting) =>
  s.wechat.appId && s.wechat.appSecret
    ? { appId: s.wechat.appId, appSecret: s.wechat.appSecret, baseUrl: s.wechat.baseUrl || WECHAT_API_DEFAULT }
    : null;

/**
 * WeChat's web authorisation of the store's service account for the members' page (snsapi_base):
 * its AppID (null: none set) and the page's address.
 */
export const wechatAuthorize = (s: StoredNotifySetting) => ({
  appId: wechatAccount(s)?.appId ?? null,
  authorizeUrl: `${s.wechat.authorizeBaseUrl || WECHAT_AUTHORIZE_BASE}/connect/oauth2/authorize`,
});

export const wechatTemplateOf = (s: StoredNotifySetting, kind: NotifyKind) =>
  s.wechat.templates.find((t) => t.kind === kind && t.templateId) ?? null;

/**
 * The kind's SMS template. A queue promotion without one of its own takes the promotion template of
 * the SMS setting (门店设置 → 短信, before reminders existed), with the course and time.
 */
export async function smsTemplateOf(
  ex: Executor,
  storeId: number,
  s: StoredNotifySetting,
  kind: NotifyKind,
): Promise<SmsTemplate | null> {
  const own = s.sms.templates.find((t) => t.kind === kind && t.templateId);
  if (own) return own;
  if (kind !== 'promoted') return null;
  const sms = await storedSmsSetting(ex, storeId);
  return sms?.promotionTemplateId ? { kind, templateId: sms.promotionTemplateId, params: ['course', 'time'] } : null;
}

/** What the manager sees: everything but the AppSecret, answered as set or not; the SMS provider and its cap. */
export async function publicNotifySetting(ex: Executor, storeId: number): Promise<NotifySetting> {
  const s = await loadNotifySetting(ex, storeId);
  const sms = await storedSmsSetting(ex, storeId);
  return {
    classReminderHours: s.classReminderHours,
    quietFrom: s.quietFrom,
    quietTo: s.quietTo,
    wechat: {
      appId: s.wechat.appId,
      appSecretSet: Boolean(s.wechat.appSecret),
      baseUrl: s.wechat.baseUrl,
      authorizeBaseUrl: s.wechat.authorizeBaseUrl,
      templates: s.wechat.templates,
    },
    sms: {
      provider: sms?.provider ?? 'none',
      dailyCap: sms?.dailyCap ?? SMS_DAILY_CAP_DEFAULT,
      templates: s.sms.templates,
    },
  };
}

/** The API address, checked by the outbound gate before saving (outside the transaction: DNS). */
export async function checkWechatBase(baseUrl: string, allow: readonly AllowedHost[]): Promise<void> {
  if (!baseUrl) return;
  try {
    await checkOutboundTarget(baseUrl, allow);
  } catch (e) {
    if (e instanceof OutboundRefused) throw badRequest(e.message);
    throw e;
  }
}

/** Saves the setting (an empty AppSecret keeps the stored one). */
export async function saveNotifySetting(
  ex: Executor,
  storeId: number,
  input: ParsedReqOf<typeof updateNotifySetting>,
): Promise<void> {
  const current = await loadNotifySetting(ex, storeId);
  const appSecret = input.wechat.appSecret || current.wechat.appSecret;
  if (input.wechat.appId && !appSecret) throw badRequest(NotifyMsg.secretRequired);
  const value: StoredNotifySetting = {
    classReminderHours: input.classReminderHours,
    quietFrom: input.quietFrom,
    quietTo: input.quietTo,
    wechat: {
      appId: input.wechat.appId,
      appSecret: input.wechat.appId ? appSecret : '',
      baseUrl: input.wechat.baseUrl.replace(/\/+$/, ''),
      authorizeBaseUrl: input.wechat.authorizeBaseUrl.replace(/\/+$/, ''),
      templates: input.wechat.templates.filter((t) => t.templateId),
    },
    sms: { templates: input.sms.templates.filter((t) => t.templateId) },
  };
  await putSetting(ex, storeId, KEY, JSON.stringify(value));
  audit(ex, {
    kind: 'settings',
    target: '消息提醒',
    after: {
      上课提醒: `课前${value.classReminderHours}小时`,
      免打扰: `${value.quietFrom}-${value.quietTo}`,
      公众号: value.wechat.appId || '未设置',
      微信模板: value.wechat.templates.length,
      短信模板: value.sms.templates.length,
    },
  });
}
