import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowHosts } from '../src/lib/outbound.ts';
import type { App } from './harness.ts';

// ---- local stand-ins of the two providers: each checks the request's signature by its own
// reading of the provider's guide (not the adapter's code) and answers as the provider does.

export const SECRET = { tencent: 'tencent-secret-key-0123', aliyun: 'aliyun-access-secret-0123' };

export interface Received {
  provider: string;
  mobile: string;
  code: string;
  signatureOk: boolean;
  templateId: string;
  /** Tencent: the parameters in order; Aliyun: the named variables. */
  params: unknown;
  signName: string;
  /** What the stand-in answered: 'OK', the provider's error code, or `HTTP <status>`. */
  answered: string;
}

/** An answer to give instead of success: the provider's error code and message, or an HTTP status with no JSON. */
export type ScriptedAnswer = { code: string; message: string } | { status: number };

function verifyTc3(req: http.IncomingMessage, body: string): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m = auth.match(
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/(\w+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/,
  );
  if (!m) return false;
  const [, , date, service, signed, signature] = m;
  const headers = signed.split(';');
  const canonicalHeaders = headers.map((h) => `${h}:${String(req.headers[h]).toLowerCase()}\n`).join('');
  const hash = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signed}\n${hash(body)}`;
  const ts = String(req.headers['x-tc-timestamp']);
  if (new Date(Number(ts) * 1000).toISOString().slice(0, 10) !== date) return false;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${date}/${service}/tc3_request\n${hash(canonical)}`;
  let k: Buffer = crypto.createHmac('sha256', `TC3${SECRET.tencent}`).update(date).digest();
  k = crypto.createHmac('sha256', k).update(service).digest();
  k = crypto.createHmac('sha256', k).update('tc3_request').digest();
  return crypto.createHmac('sha256', k).update(toSign).digest('hex') === signature;
}

function verifyAliyun(url: URL): boolean {
  const q = url.searchParams;
  // The common parameters of the RPC style, by Aliyun's guide.
  if (q.get('SignatureMethod') !== 'HMAC-SHA1' || q.get('SignatureVersion') !== '1.0') return false;
  if (q.get('AccessKeyId') !== 'LTAIstandin' || q.get('Format') !== 'JSON' || q.get('Version') !== '2017-05-25') {
    return false;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(q.get('Timestamp') ?? '') || !q.get('SignatureNonce'))
    return false;
  const params = [...url.searchParams.entries()].filter(([k]) => k !== 'Signature');
  const enc = (s: string) =>
    encodeURIComponent(s)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%7E/g, '~');
  const query = params
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
  const toSign = `GET&%2F&${enc(query)}`;
  const want = crypto.createHmac('sha1', `${SECRET.aliyun}&`).update(toSign).digest('base64');
  return want === url.searchParams.get('Signature');
}

/**
 * A local SMS provider stand-in on 127.0.0.1 (Tencent at /tencent/, Aliyun at /aliyun/) that the
 * app (when given) may send to; `received` lists every text it was sent, in order.
 */
export async function startSmsStandIn(app?: App) {
  const received: Received[] = [];
  /** Answers to give, in order, to the next well-signed requests (each provider its own). */
  const scripted: Record<'tencent' | 'aliyun', ScriptedAnswer[]> = { tencent: [], aliyun: [] };
  /** Aliyun refuses a SignatureNonce used before (a replayed request). */
  const nonces = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      res.setHeader('content-type', 'application/json');
      if (url.pathname.startsWith('/tencent')) {
        const p = JSON.parse(body) as {
          PhoneNumberSet: string[];
          TemplateParamSet: string[];
          TemplateId: string;
          SignName: string;
        };
        const ok = verifyTc3(req, body) && req.headers['x-tc-action'] === 'SendSms';
        const next = ok ? scripted.tencent.shift() : undefined;
        received.push({
          provider: 'tencent',
          mobile: p.PhoneNumberSet[0],
          code: p.TemplateParamSet[0],
          signatureOk: ok,
          templateId: p.TemplateId,
          params: p.TemplateParamSet,
          signName: p.SignName,
          answered: !ok
            ? 'AuthFailure.SignatureFailure'
            : !next
              ? 'OK'
              : 'code' in next
                ? next.code
                : `HTTP ${next.status}`,
        });
        if (!ok) {
          res.end(
            JSON.stringify({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: '签名错误' } } }),
          );
          return;
        }
        if (next && 'status' in next) {
          res.statusCode = next.status;
          res.setHeader('content-type', 'text/html');
          return res.end('<html><body>Service Unavailable</body></html>');
        }
        if (next) {
          return res.end(JSON.stringify({ Response: { Error: { Code: next.code, Message: next.message } } }));
        }
        res.end(
          JSON.stringify({ Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }], RequestId: 'x' } }),
        );
        return;
      }
      const nonce = url.searchParams.get('SignatureNonce') ?? '';
      const signed = verifyAliyun(url) && url.searchParams.get('Action') === 'SendSms';
      const replayed = signed && nonces.has(nonce);
      nonces.add(nonce);
      const ok = signed && !replayed;
      const next = ok ? scripted.aliyun.shift() : undefined;
      const params = JSON.parse(url.searchParams.get('TemplateParam') ?? '{}') as Record<string, string>;
      const refusal = !signed
        ? { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' }
        : replayed
          ? { Code: 'SignatureNonceUsed', Message: 'Specified signature nonce was used already.' }
          : next && 'code' in next
            ? { Code: next.code, Message: next.message }
            : null;
      received.push({
        provider: 'aliyun',
        mobile: url.searchParams.get('PhoneNumbers') ?? '',
        code: params.code,
        signatureOk: ok,
        templateId: url.searchParams.get('TemplateCode') ?? '',
        params,
        signName: url.searchParams.get('SignName') ?? '',
        answered: refusal ? refusal.Code : next && 'status' in next ? `HTTP ${next.status}` : 'OK',
      });
      if (next && 'status' in next) {
        res.statusCode = next.status;
        res.setHeader('content-type', 'text/html');
        return res.end('<html><body>Service Unavailable</body></html>');
      }
      res.end(JSON.stringify(refusal ?? { Code: 'OK', Message: 'OK', BizId: `biz${received.length}`, RequestId: 'x' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  app?.deps.config.outboundAllowHosts.push(...parseAllowHosts(`127.0.0.1:${port}`));
  const setting = (provider: 'tencent' | 'aliyun', secret?: string) => ({
    provider,
    keyId: provider === 'tencent' ? 'AKIDstandin' : 'LTAIstandin',
    ...(secret !== undefined ? { secret } : {}),
    signName: '悦动健身',
    templateId: provider === 'tencent' ? '1234567' : 'SMS_123',
    appId: provider === 'tencent' ? '1400000000' : '',
    region: '',
    endpoint: `${base}/${provider}/`,
    promotionTemplateId: '',
  });
  return {
    base,
    received,
    setting,
    /** The next well-signed requests to `provider` get these answers, in order (then success again). */
    answerNext: (provider: 'tencent' | 'aliyun', ...answers: ScriptedAnswer[]) => scripted[provider].push(...answers),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
