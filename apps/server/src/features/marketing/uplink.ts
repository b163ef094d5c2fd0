import { MARKETING_STOP_REPLIES } from '@studio/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { storedSmsSetting } from '../messaging/public.ts';
import { withdrawMobile } from './service.ts';
import { uplinkKeyOk } from './token.ts';

const MAX_ID = 2_147_483_647;
/** A provider's push of replies is a small JSON (Aliyun batches some). */
const BODY_LIMIT = 64 * 1024;
const CALL = '/sms/uplink';

type Provider = 'tencent' | 'aliyun';

/** One reply as the providers' documentation gives it: Tencent 短信回复 and Aliyun 上行短信 (HTTP push). */
interface Reply {
  mobile: string;
  text: string;
  sign: string | undefined;
}

/**
 * Tencent (短信回复回调): one JSON object {extend, mobile, nationcode, sign, text, time}; answered
 * {result: 0, errmsg: "OK"}. Aliyun (上行短信 HTTP 批量推送): a JSON array of {phone_number, content,
 * sign_name (optional), dest_code, send_time, sequence_id}; answered {code: 0, msg: "接收成功"} (its
 * SmsUp page; a non-200 answer makes it push again). Either may come as
 * an array; anything else is no reply.
 */
function repliesOf(provider: Provider, body: unknown): Reply[] | null {
  const items = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : null;
  if (!items) return null;
  const out: Reply[] = [];
  for (const raw of items) {
    if (!raw || typeof raw !== 'object') return null;
    const r = raw as Record<string, unknown>;
    const mobile = provider === 'tencent' ? r.mobile : r.phone_number;
    const text = provider === 'tencent' ? r.text : r.content;
    const sign = provider === 'tencent' ? r.sign : r.sign_name;
    if (typeof mobile !== 'string' || typeof text !== 'string') return null;
    if (provider === 'tencent' && r.nationcode !== undefined && String(r.nationcode) !== '86') continue;
    out.push({
      mobile: mobile.replace(/^(\+?86|0086)(?=1\d{10}$)/, ''),
      text,
      sign: typeof sign === 'string' ? sign : undefined,
    });
  }
  return out;
}

const isStop = (text: string) => (MARKETING_STOP_REPLIES as readonly string[]).includes(text.trim().toUpperCase());

const answer = (reply: FastifyReply, provider: Provider, ok: boolean, msg: string, status = 200) =>
  reply
    .code(status)
    .header('content-type', 'application/json')
    .send(provider === 'tencent' ? { result: ok ? 0 : 1, errmsg: ok ? 'OK' : msg } : { code: ok ? 0 : 1, msg });

/**
 * POST /sms/uplink/:provider/:storeId/:key: the provider's push of the texts people sent back
 * (上行短信). Neither provider signs it, so what can be checked is: the address's key (an HMAC of the
 * store the manager copied from 营销短信 into the provider's console), the store's provider being
 * this one, and each reply's signature name being the store's. A reply T, TD or 退订 (trimmed, any
 * case) withdraws the marketing consent of every member and lead of that mobile in the store (短信回复T);
 * other replies are ignored. A plain route in its own context keeping the raw text (providers do not
 * speak {code, data, msg}).
 */
export function registerSmsUplinkRoute(app: FastifyInstance, deps: AppDeps) {
  return app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string; storeId: string; key: string } }>(
      `${CALL}/:provider/:storeId/:key`,
      { bodyLimit: BODY_LIMIT },
      async (req, reply) => {
        const name = req.params.provider;
        const provider: Provider = name === 'aliyun' ? 'aliyun' : 'tencent';
        const storeId = /^\d{1,10}$/.test(req.params.storeId) ? Number(req.params.storeId) : 0;
        const known = (name === 'tencent' || name === 'aliyun') && storeId >= 1 && storeId <= MAX_ID;
        const store = known ? await storeScopeById(deps.db, storeId) : undefined;
        if (!store || !(await uplinkKeyOk(deps.db, storeId, req.params.key))) {
          deps.log.warn({ provider: name }, 'sms reply to an unknown address refused');
          return answer(reply, provider, false, '未知的回调地址', 404);
        }
        const sms = await storedSmsSetting(deps.db, storeId);
        if (sms?.provider !== provider) return answer(reply, provider, false, '本店未使用该短信服务商', 404);
        let body: unknown;
        try {
          body = JSON.parse(typeof req.body === 'string' ? req.body : '');
        } catch {
          return answer(reply, provider, false, '无法识别的内容', 400);
        }
        const replies = repliesOf(provider, body);
        if (!replies) return answer(reply, provider, false, '无法识别的内容', 400);
        for (const r of replies) {
          if (!/^1\d{10}$/.test(r.mobile) || !isStop(r.text)) continue;
          if (r.sign !== undefined && r.sign !== sms.signName) {
            deps.log.warn({ storeId }, 'sms reply with another signature ignored');
            continue;
          }
          await withdrawMobile(deps, store, r.mobile, 'sms_reply', `${CALL}/${provider}`);
        }
        return answer(reply, provider, true, provider === 'tencent' ? 'OK' : '接收成功');
      },
    );
  });
}
