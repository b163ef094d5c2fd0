import crypto from 'node:crypto';
import { LOGIN_CODE, SmsMsg, type SmsSetting } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import { OutboundRefused, outboundPost, type AllowedHost } from '../../lib/outbound.ts';
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

/** The store setting holding its SMS provider, secrets included (kept on the server). */
const KEY = 'smsProvider';

/** What is stored: the setting as staff see it plus the secret. */
type Stored = Omit<SmsSetting, 'promotionTemplateId'> & { promotionTemplateId?: string; secret: string };

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
 * from the member drawer). A provider refusing the connection (blocked address) answers 503 too.
 */
export async function smsSenderOf(
  db: Executor,
  allowHosts: readonly AllowedHost[],
  storeId: number,
  now: () => number = Date.now,
): Promise<(SmsSender & { loginTemplateId: string }) | null> {
  const s = await storedSmsSetting(db, storeId);
  if (!s || s.provider === 'none') return null;
  const sender = (s.provider === 'tencent' ? tencentSender : aliyunSender)(s, allowHosts, now);
  return {
    loginTemplateId: s.templateId,
    promotionTemplateId: s.promotionTemplateId ?? '',
    async send(mobile, message) {
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

/** The setting as staff see it: the secret never leaves the server, only whether one is set. */
export async function loadSmsSetting(ex: Executor, storeId: number): Promise<SmsSetting & { secretSet: boolean }> {
  const s = await storedSmsSetting(ex, storeId);
  if (!s)
    return {
      provider: 'none',
      keyId: '',
      signName: '',
      templateId: '',
      appId: '',
      region: '',
      promotionTemplateId: '',
      endpoint: '',
      secretSet: false,
    };
  const { secret, ...shown } = s;
  return { ...shown, promotionTemplateId: s.promotionTemplateId ?? '', secretSet: secret.length > 0 };
}

/** Saves the setting; an empty `secret` keeps the one stored. */
export async function saveSmsSetting(ex: Executor, storeId: number, input: SmsSetting & { secret?: string }) {
  const current = await storedSmsSetting(ex, storeId);
  const secret = input.secret || current?.secret || '';
  if (input.provider !== 'none' && !secret) throw new AppError(400, SmsMsg.secretRequired);
  const value: Stored = { ...input, secret };
  await putSetting(ex, storeId, KEY, JSON.stringify(value));
}
