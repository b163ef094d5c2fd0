import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowHosts } from '../src/lib/outbound.ts';
import type { App } from './harness.ts';

// ---- a local stand-in of the WeChat official account (服务号) API, by its guide: access tokens from
// /cgi-bin/stable_token (appid and secret checked), template messages that must carry a token it
// issued and has not replaced (40001 otherwise; 42001 once it expired), the web authorisation's page
// (/connect/oauth2/authorize: appid, snsapi_base, a redirect_uri on the account's authorised domain;
// back there with a code and the state) and its code → openid.

export const MP = { appId: 'wxstandin0000001', appSecret: 'standin-app-secret-0123456789ab' };

export interface TemplateReceived {
  touser: string;
  templateId: string;
  data: Record<string, string>;
  token: string;
  /** What the stand-in answered: 0, or the error code (or `HTTP <status>`) it was told to answer. */
  answered: number | string;
}

/** An answer to give a template message instead of success: WeChat's error, or an HTTP status with no JSON. */
export type WechatAnswer = { errcode: number; errmsg: string } | { status: number };

/** One visit of the authorisation page: its query as the browser sent it. */
export interface AuthorizeVisit {
  appid: string;
  redirectUri: string;
  responseType: string;
  scope: string;
  state: string;
}

/** Starts the stand-in on 127.0.0.1 and lets `app` (when given) reach it through the outbound gate. */
export async function startWechatMpStandIn(app?: App) {
  const received: TemplateReceived[] = [];
  /** Tokens issued, newest last; a token stays valid until `expiresIn` or a forced refresh. */
  const valid = new Set<string>();
  const codes = new Map<string, string>();
  /** Tokens past their expiry (answered 42001). */
  const expired = new Set<string>();
  const stats = { tokenRequests: 0, refused: 0 };
  /**
   * `authorisedDomain`: the account's 网页授权域名 (host[:port]) a redirect_uri must be on;
   * `webUser`: the openid of whoever opens the authorisation page (the member in WeChat).
   */
  const state = { expiresIn: 7200, authorisedDomain: '', webUser: '' };
  const scripted: WechatAnswer[] = [];
  const authorizeVisits: AuthorizeVisit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      res.setHeader('content-type', 'application/json');
      const answer = (o: object) => res.end(JSON.stringify(o));
      let json: Record<string, unknown> = {};
      try {
        json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        return answer({ errcode: 47001, errmsg: 'data format error' });
      }
      if (url.pathname === '/cgi-bin/stable_token' && req.method === 'POST') {
        stats.tokenRequests++;
        if (json.grant_type !== 'client_credential') return answer({ errcode: 40002, errmsg: 'invalid grant_type' });
        if (json.appid !== MP.appId) return answer({ errcode: 40013, errmsg: 'invalid appid' });
        if (json.secret !== MP.appSecret) return answer({ errcode: 40125, errmsg: 'invalid appsecret' });
        if (json.force_refresh === true) valid.clear();
        const token = `tok_${crypto.randomBytes(8).toString('hex')}`;
        valid.add(token);
        return answer({ access_token: token, expires_in: state.expiresIn });
      }
      if (url.pathname === '/cgi-bin/message/template/send' && req.method === 'POST') {
        const token = url.searchParams.get('access_token') ?? '';
        if (expired.has(token)) {
          stats.refused++;
          return answer({ errcode: 42001, errmsg: 'access_token expired' });
        }
        if (!valid.has(token)) {
          stats.refused++;
          return answer({ errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
        }
        const data = (json.data ?? {}) as Record<string, { value?: string }>;
        if (typeof json.touser !== 'string' || typeof json.template_id !== 'string') {
          return answer({ errcode: 47003, errmsg: 'argument invalid!' });
        }
        const next = scripted.shift();
        received.push({
          touser: json.touser,
          templateId: json.template_id,
          data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v?.value ?? '')])),
          token,
          answered: !next ? 0 : 'errcode' in next ? next.errcode : `HTTP ${next.status}`,
        });
        if (next && 'status' in next) {
          res.statusCode = next.status;
          res.setHeader('content-type', 'text/html');
          return res.end('<html><body>502 Bad Gateway</body></html>');
        }
        if (next) return answer(next);
        return answer({ errcode: 0, errmsg: 'ok', msgid: received.length });
      }
      if (url.pathname === '/connect/oauth2/authorize' && req.method === 'GET') {
        const p = url.searchParams;
        const visit: AuthorizeVisit = {
          appid: p.get('appid') ?? '',
          redirectUri: p.get('redirect_uri') ?? '',
          responseType: p.get('response_type') ?? '',
          scope: p.get('scope') ?? '',
          state: p.get('state') ?? '',
        };
        authorizeVisits.push(visit);
        let back: URL | null = null;
        try {
          back = new URL(visit.redirectUri);
        } catch {
          back = null;
        }
        // WeChat shows an error page for these (no redirect).
        const refusal =
          visit.appid !== MP.appId
            ? '公众号 appid 错误'
            : visit.responseType !== 'code' || !['snsapi_base', 'snsapi_userinfo'].includes(visit.scope)
              ? 'scope 参数错误或没有 scope 权限'
              : !back || back.host !== state.authorisedDomain
                ? 'redirect_uri 域名与后台配置不一致'
                : !state.webUser
                  ? '请在微信客户端打开链接'
                  : null;
        if (refusal) {
          res.statusCode = 200;
          res.setHeader('content-type', 'text/html; charset=utf-8');
          return res.end(
            `<!doctype html><html lang="zh-CN"><title>出错了</title><main><h1>${refusal}</h1></main></html>`,
          );
        }
        const code = `code_${crypto.randomBytes(6).toString('hex')}`;
        codes.set(code, state.webUser);
        back!.searchParams.set('code', code);
        back!.searchParams.set('state', visit.state);
        res.statusCode = 302;
        res.setHeader('location', back!.toString());
        return res.end();
      }
      if (url.pathname === '/sns/oauth2/access_token' && req.method === 'GET') {
        const p = url.searchParams;
        if (p.get('appid') !== MP.appId || p.get('secret') !== MP.appSecret) {
          return answer({ errcode: 40125, errmsg: 'invalid appsecret' });
        }
        const openid = codes.get(p.get('code') ?? '');
        if (!openid || p.get('grant_type') !== 'authorization_code') {
          return answer({ errcode: 40029, errmsg: 'invalid code' });
        }
        codes.delete(p.get('code') ?? '');
        return answer({ access_token: 'web-token', expires_in: 7200, openid, scope: 'snsapi_base' });
      }
      res.statusCode = 404;
      answer({ errcode: 404, errmsg: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  app?.deps.config.outboundAllowHosts.push(...parseAllowHosts(`127.0.0.1:${port}`));
  return {
    base,
    received,
    stats,
    state,
    /** A code WeChat's authorisation would hand the page for this openid (one use). */
    codeFor(openid: string) {
      const code = `code_${crypto.randomBytes(6).toString('hex')}`;
      codes.set(code, openid);
      return code;
    },
    /** Forgets every token issued (as a refresh elsewhere would): the next message is refused once. */
    invalidateTokens: () => valid.clear(),
    /** Every token issued so far expires (before the app's cache thinks so): answered 42001. */
    expireTokens: () => {
      for (const t of valid) expired.add(t);
      valid.clear();
    },
    /** The next template messages with a valid token get these answers, in order (then success again). */
    answerNext: (...answers: WechatAnswer[]) => scripted.push(...answers),
    authorizeVisits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
