import crypto from 'node:crypto';
import { audit } from '../../lib/audit.ts';
import { LOGIN_CODE, MemberMsg, SMS_DAILY_CAP_DEFAULT, SmsMsg, type SmsSetting } from '@studio/contract';
import { reserve, reserved } from '../../auth/rate-limit.ts';
import type { Db, Executor } from '../../db/index.ts';
import { AppError, tooMany } from '../../lib/errors.ts';
import { OutboundRefused, outboundPost, type AllowedHost } from '../../lib/outbound.ts';
import { localDateTime } from '../../lib/time.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';

/**
 * One text message from a template: Tencent takes the template's parameters in order ({1}, {2}...),
 * Aliyun by name (${code}); each message says both.
 */
export interface SmsMessage {
  templateId: string;
  ordered: string[];
  named: Record<string, string>;
}

/** Sends text messages to a mobile through the store's SMS provider. */
export interface SmsSender {
  /** Sends one text, unless the store's texts of today reached its daily cap (then `SmsCapReached`). */
  send(mobile: string, message: SmsMessage): Promise<void>;
  /** The store's template of the waitlist promotion notice ('' when it sends none). */
  promotionTemplateId: string;
}

/** The login code message: Tencent {1} code, {2} minutes valid; Aliyun ${code}. */
export const loginCodeMessage = (templateId: string, code: string): SmsMessage => ({
  templateId,
  ordered: [code, String(LOGIN_CODE.ttlMs / 60_000)],
  named: { code },
});

/** The waitlist promotion notice: Tencent {1} course, {2} start; Aliyun ${course}, ${time}. */
export const promotionMessage = (templateId: string, course: string, time: string): SmsMessage => ({
  templateId,
  ordered: [course, time],
  named: { course, time },
});

type ProviderSender = Pick<SmsSender, 'send'>;

/** A text not sent because the store's daily cap is reached. */
export class SmsCapReached extends Error {
  constructor() {
    super('今日短信已达每天最多发送条数');
    this.name = 'SmsCapReached';
  }
}

/**
 * The store's texts of one local day are one counter (`sms:<store>:<date>`), taken in one upsert per
 * text on any instance, so the cap holds however many ask at once. Its window outlasts any day.
 */
const DAY_COUNTER_WINDOW_MS = 48 * 3600_000;
const dayKey = (store: SmsStore, now: number) => `sms:${store.id}:${localDateTime(store.timezone, now).slice(0, 10)}`;

/** The store a text is sent for: its id and time zone (its day). */
export interface SmsStore {
  id: number;
  timezone: string;
}

/** The refusal of a code request once the store's texts of today reached its cap. */
export const tooManyTextsToday = () => tooMany(MemberMsg.smsCapReached);

/** How many texts the store sent today (its local day): one counter read. */
export function textsToday(db: Db, store: SmsStore, now = Date.now()): Promise<number> {
  return reserved(db, dayKey(store, now), now, DAY_COUNTER_WINDOW_MS);
}

/** How many texts the store sent today (its local day) and whether that reached its cap. */
export async function smsToday(db: Db, store: SmsStore, now = Date.now()) {
  const s = await storedSmsSetting(db, store.id);
  const dailyCap = s?.dailyCap ?? SMS_DAILY_CAP_DEFAULT;
  const sentToday = await textsToday(db, store, now);
  return { sentToday, dailyCap, capReached: s !== null && s.provider !== 'none' && sentToday >= dailyCap };
}

/** The store setting holding its SMS provider, secrets included (kept on the server). */
const KEY = 'smsProvider';

/** What is stored: the setting as staff see it plus the secret. */
type Stored = Omit<SmsSetting, 'promotionTemplateId' | 'dailyCap'> & {
  promotionTemplateId?: string;
  dailyCap?: number;
  secret: string;
};

const DEFAULT_ENDPOINT = { tencent: 'https://sms.tencentcloudapi.com/', aliyun: 'https://dysmsapi.aliyuncs.com/' };
const TIMEOUT_MS = 8000;

const sha256hex = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: crypto.BinaryLike, s: string) => crypto.createHmac('sha256', key).update(s, 'utf8').digest();

/**
 * Tencent Cloud API 3.0 signature (TC3-HMAC-SHA256) of a JSON POST: the canonical request of the
 * content-type and host headers and the payload's SHA-256, the string to sign with the UTC date's
 * credential scope, and the key derived from "TC3" + SecretKey by date, service and "tc3_request".
 */
export function tc3Authorization(o: {
  secretId: string;
  secretKey: string;
  host: string;
  service: string;
  contentType: string;
  timestamp: number;
  payload: string;
}): string {
  const date = new Date(o.timestamp * 1000).toISOString().slice(0, 10);
  const canonical = [
    'POST',
    '/',
    '',
    `content-type:${o.contentType}\nhost:${o.host}\n`,
    'content-type;host',
    sha256hex(o.payload),
  ].join('\n');
  const scope = `${date}/${o.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(o.timestamp), scope, sha256hex(canonical)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${o.secretKey}`, date), o.service), 'tc3_request');
  const signature = crypto.createHmac('sha256', signing).update(toSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${o.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`;
}

/** Aliyun POP percent-encoding: RFC 3986 unreserved characters kept, space as %20, * and ~ per spec. */
export const popEncode = (s: string) =>
  encodeURIComponent(s)
    .replace(/\+/g, '%20')
    .replace(/\*/g, '%2A')
    .replace(/%7E/g, '~')
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Aliyun RPC signature (SignatureVersion 1.0, HMAC-SHA1): the parameters sorted by name and
 * percent-encoded into the canonical query, the string to sign `METHOD&%2F&` + its encoding, signed
 * with AccessKeySecret + "&", base64.
 */
export function aliyunSignature(params: Record<string, string>, secret: string, method: 'GET' | 'POST' = 'GET') {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${popEncode(k)}=${popEncode(params[k])}`)
    .join('&');
  const toSign = `${method}&${popEncode('/')}&${popEncode(query)}`;
  return { query, signature: crypto.createHmac('sha1', `${secret}&`).update(toSign, 'utf8').digest('base64') };
}

function failed(detail: string): AppError {
  return new AppError(503, `${SmsMsg.sendFailed}（${detail.slice(0, 80)}）`);
}

function tencentSender(s: Stored, allow: readonly AllowedHost[], now: () => number): ProviderSender {
  const endpoint = s.endpoint || DEFAULT_ENDPOINT.tencent;
  return {
    async send(mobile, message) {
      const host = new URL(endpoint).host;
      const contentType = 'application/json; charset=utf-8';
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: s.appId,
        SignName: s.signName,
        TemplateId: message.templateId,
        TemplateParamSet: message.ordered,
      });
      const timestamp = Math.floor(now() / 1000);
      const authorization = tc3Authorization({
        secretId: s.keyId,
        secretKey: s.secret,
        host,
        service: 'sms',
        contentType,
        timestamp,
        payload,
      });
      const res = await outboundPost(endpoint, payload, {
        allow,
        timeoutMs: TIMEOUT_MS,
        contentType,
        headers: {
          authorization,
          host,
          'x-tc-action': 'SendSms',
          'x-tc-version': '2021-01-11',
          'x-tc-timestamp': String(timestamp),
          'x-tc-region': s.region || 'ap-guangzhou',
        },
      });
      let body: { Response?: { Error?: { Message?: string }; SendStatusSet?: { Code?: string; Message?: string }[] } };
      try {
        body = JSON.parse(res.text);
      } catch {
        throw failed(`HTTP ${res.status}`);
      }
      const err = body.Response?.Error;
      if (err) throw failed(err.Message ?? 'error');
      const status = body.Response?.SendStatusSet?.[0];
      if (status?.Code !== 'Ok') throw failed(status?.Message ?? `HTTP ${res.status}`);
    },
  };
}

function aliyunSender(s: Stored, allow: readonly AllowedHost[], now: () => number): ProviderSender {
  const endpoint = s.endpoint || DEFAULT_ENDPOINT.aliyun;
  return {
    async send(mobile, message) {
      const params: Record<string, string> = {
        AccessKeyId: s.keyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: mobile,
        RegionId: s.region || 'cn-hangzhou',
        SignName: s.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: message.templateId,
        TemplateParam: JSON.stringify(message.named),
        Timestamp: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      const { query, signature } = aliyunSignature(params, s.secret, 'GET');
      const url = `${endpoint.replace(/\/?$/, '/')}?Signature=${popEncode(signature)}&${query}`;
      const res = await outboundPost(url, '', { allow, timeoutMs: TIMEOUT_MS, method: 'GET' });
      let body: { Code?: string; Message?: string };
      try {
        body = JSON.parse(res.text);
      } catch {
        throw failed(`HTTP ${res.status}`);
      }
      if (body.Code !== 'OK') throw failed(body.Message ?? body.Code ?? `HTTP ${res.status}`);
    },
  };
}

/** The store's SMS setting with its secret (server-side only), or null when none is stored. */
export async function storedSmsSetting(ex: Executor, storeId: number): Promise<Stored | null> {
  const raw = await getSetting(ex, storeId, KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Stored;
    return v.provider === 'tencent' || v.provider === 'aliyun' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The store's SMS sender, or null when it has none (then the desk gives members their login codes
 * from the member drawer). Each text first takes one of the day's slots under the store's cap. A
 * provider refusing the connection (blocked address) answers 503 too.
 */
export async function smsSenderOf(
  db: Db,
  allowHosts: readonly AllowedHost[],
  store: SmsStore,
  now: () => number = Date.now,
): Promise<(SmsSender & { loginTemplateId: string; dailyCap: number }) | null> {
  const s = await storedSmsSetting(db, store.id);
  if (!s || s.provider === 'none') return null;
  const sender = (s.provider === 'tencent' ? tencentSender : aliyunSender)(s, allowHosts, now);
  const dailyCap = s.dailyCap ?? SMS_DAILY_CAP_DEFAULT;
  return {
    loginTemplateId: s.templateId,
    promotionTemplateId: s.promotionTemplateId ?? '',
    dailyCap,
    async send(mobile, message) {
      const at = now();
      if (!(await reserve(db, dayKey(store, at), dailyCap, at, DAY_COUNTER_WINDOW_MS))) throw new SmsCapReached();
      try {
        await sender.send(mobile, message);
      } catch (e) {
        if (e instanceof AppError) throw e;
        if (e instanceof OutboundRefused) throw failed(e.message);
        throw failed((e as Error).message ?? 'network');
      }
    },
  };
}

/** The setting as staff see it: the secret never leaves the server, only whether one is set; today's count. */
export async function loadSmsSetting(db: Db, store: SmsStore) {
  const s = await storedSmsSetting(db, store.id);
  const today = await smsToday(db, store);
  const shown: SmsSetting = s
    ? {
        provider: s.provider,
        keyId: s.keyId,
        signName: s.signName,
        templateId: s.templateId,
        appId: s.appId,
        region: s.region,
        promotionTemplateId: s.promotionTemplateId ?? '',
        endpoint: s.endpoint,
        dailyCap: today.dailyCap,
      }
    : {
        provider: 'none',
        keyId: '',
        signName: '',
        templateId: '',
        appId: '',
        region: '',
        promotionTemplateId: '',
        endpoint: '',
        dailyCap: today.dailyCap,
      };
  return { ...shown, secretSet: (s?.secret.length ?? 0) > 0, sentToday: today.sentToday, capReached: today.capReached };
}

const PROVIDER_WORDS = { none: '不发送', tencent: '腾讯云', aliyun: '阿里云' } as const;

/** Saves the setting; an empty `secret` keeps the one stored. */
export async function saveSmsSetting(ex: Executor, storeId: number, input: SmsSetting & { secret?: string }) {
  const current = await storedSmsSetting(ex, storeId);
  const secret = input.secret || current?.secret || '';
  if (input.provider !== 'none' && !secret) throw new AppError(400, SmsMsg.secretRequired);
  const value: Stored = { ...input, secret };
  await putSetting(ex, storeId, KEY, JSON.stringify(value));
  audit(ex, {
    kind: 'settings',
    target: '短信设置',
    after: { 短信服务商: PROVIDER_WORDS[input.provider], 每天最多发送: input.dailyCap },
  });
}

/** Texts being sent after their call was answered. */
const inFlight = new Set<Promise<void>>();

/**
 * Sends a text after the call has answered: the answer neither waits for the provider nor tells
 * whether a text went out (a code request answers the same for members and strangers). A failure
 * (provider refused, cap reached) is logged; the member asks again or gets a code at the desk.
 */
export function sendInBackground(
  log: { warn: (o: object, msg: string) => void },
  what: string,
  send: () => Promise<void>,
): void {
  const p: Promise<void> = send()
    .catch((err: unknown) => log.warn({ err }, `${what}: text not sent`))
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
}

/** Resolves once every text handed to `sendInBackground` so far is sent or failed (tests, shutdown). */
export async function textsSettled(): Promise<void> {
  while (inFlight.size) await Promise.all([...inFlight]);
}
