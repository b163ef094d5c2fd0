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
export const tooManyTextsToday = (msg: string = MemberMsg.smsCapReached) => tooMany(msg);

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

/**
 * A text the provider did not take, or could not be asked: a 503 to the caller (the message for a
 * login code); `reason` says why in Chinese (the send log), `transient` whether a later try may go
 * (network, the provider's 5xx or system error, its throttling) or not (bad mobile, template,
 * signature, account).
 */
export class SmsSendFailed extends AppError {
  constructor(
    readonly reason: string,
    readonly transient: boolean,
  ) {
    super(503, `${SmsMsg.sendFailed}（${reason.slice(0, 80)}）`);
    this.name = 'SmsSendFailed';
  }
}

const failed = (reason: string, transient = false) => new SmsSendFailed(reason, transient);

/** An answer that is no JSON: the provider's server failing (5xx: try later) or answering garbage. */
const notJson = (who: string, status: number) =>
  failed(
    `${who}接口${status >= 500 ? '暂时不可用' : '回答无法识别'}（HTTP ${status}）`,
    status >= 500 || status === 429,
  );

/**
 * Aliyun's SendSms answer codes (its error-code list) in the staff's words, and whether a later try
 * may go: throttling and system errors pass; the rest need the mobile, template or account fixed.
 */
const ALIYUN_CODES: Record<string, [string, boolean]> = {
  'isv.BUSINESS_LIMIT_CONTROL': ['触发发送频率限制（流控）', true],
  'Throttling.User': ['请求过于频繁（流控）', true],
  'Throttling.Api': ['请求过于频繁（流控）', true],
  'isp.SYSTEM_ERROR': ['阿里云系统错误', true],
  'isp.GATEWAY_ERROR': ['阿里云网关错误', true],
  ServiceUnavailable: ['阿里云服务暂时不可用', true],
  'isv.MOBILE_NUMBER_ILLEGAL': ['手机号码格式错误', false],
  'isv.SMS_TEMPLATE_ILLEGAL': ['短信模板不存在或未通过审核', false],
  'isv.SMS_SIGNATURE_ILLEGAL': ['短信签名不存在或未通过审核', false],
  'isv.TEMPLATE_MISSING_PARAMETERS': ['短信模板变量缺少参数', false],
  'isv.AMOUNT_NOT_ENOUGH': ['阿里云账户余额不足', false],
  'isv.OUT_OF_SERVICE': ['阿里云账户已停机（余额不足）', false],
  'isv.BLACK_KEY_CONTROL_LIMIT': ['模板变量含有禁用关键字', false],
  'isv.DAY_LIMIT_CONTROL': ['该号码今日接收短信已达上限', false],
  SignatureDoesNotMatch: ['AccessKey Secret 不正确（签名不匹配）', false],
  'InvalidAccessKeyId.NotFound': ['AccessKey ID 不存在', false],
};

/** Tencent's SendSms error codes by prefix, in the staff's words, and whether a later try may go. */
const TENCENT_CODES: [string, string, boolean][] = [
  ['RequestLimitExceeded', '请求过于频繁（流控）', true],
  ['LimitExceeded.PhoneNumberThirtySecondLimit', '触发发送频率限制（30秒）', true],
  ['LimitExceeded.PhoneNumberOneHourLimit', '触发发送频率限制（1小时）', true],
  ['LimitExceeded.PhoneNumberDailyLimit', '该号码今日接收短信已达上限', false],
  ['LimitExceeded', '触发发送频率限制', true],
  ['InternalError', '腾讯云系统错误', true],
  ['InvalidParameterValue.IncorrectPhoneNumber', '手机号码格式错误', false],
  ['FailedOperation.TemplateIncorrectOrUnapproved', '短信模板不存在或未通过审核', false],
  ['FailedOperation.SignatureIncorrectOrUnapproved', '短信签名不存在或未通过审核', false],
  ['FailedOperation.InsufficientBalanceInSmsPackage', '腾讯云短信套餐包余量不足', false],
  ['AuthFailure', 'SecretId 或 SecretKey 不正确', false],
];

function tencentFailure(code: string, message: string): SmsSendFailed {
  const known = TENCENT_CODES.find(([prefix]) => code === prefix || code.startsWith(`${prefix}.`));
  return failed(`${known?.[1] ?? message}（${code}）`, known?.[2] ?? false);
}

function aliyunFailure(code: string, message: string): SmsSendFailed {
  const known = ALIYUN_CODES[code];
  return failed(`${known?.[0] ?? message}（${code}）`, known?.[1] ?? false);
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
      let body: {
        Response?: {
          Error?: { Code?: string; Message?: string };
          SendStatusSet?: { Code?: string; Message?: string }[];
        };
      };
      try {
        body = JSON.parse(res.text);
      } catch {
        throw notJson('腾讯云', res.status);
      }
      const err = body.Response?.Error;
      if (err) throw tencentFailure(err.Code ?? '', err.Message ?? 'error');
      const status = body.Response?.SendStatusSet?.[0];
      if (status?.Code !== 'Ok') {
        if (!status && res.status >= 500) throw notJson('腾讯云', res.status);
        throw tencentFailure(status?.Code ?? '', status?.Message ?? `HTTP ${res.status}`);
      }
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
        throw notJson('阿里云', res.status);
      }
      if (body.Code === 'OK') return;
      if (!body.Code && res.status >= 500) throw notJson('阿里云', res.status);
      throw aliyunFailure(body.Code ?? '', body.Message ?? `HTTP ${res.status}`);
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
        throw failed('无法连接短信服务商', true);
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
