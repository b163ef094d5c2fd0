import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowHosts } from '../lib/outbound.ts';
import type { App } from './harness.ts';

// ---- a local stand-in of the WeChat official account (服务号) API, by its guide: access tokens from
// /cgi-bin/stable_token (appid and secret checked), template messages that must carry a token it
// issued and has not replaced (40001 otherwise), and the web authorisation's code → openid.

export const MP = { appId: 'wxstandin0000001', appSecret: 'standin-app-secret-0123456789ab' };

export interface TemplateReceived {
  touser: string;
  templateId: string;
  data: Record<string, string>;
  token: string;
}

/** Starts the stand-in on 127.0.0.1 and lets `app` (when given) reach it through the outbound gate. */
export async function startWechatMpStandIn(app?: App) {
  const received: TemplateReceived[] = [];
  /** Tokens issued, newest last; a token stays valid until `expiresIn` or a forced refresh. */
  const valid = new Set<string>();
  const codes = new Map<string, string>();
  const stats = { tokenRequests: 0, refused: 0 };
  const state = { expiresIn: 7200 };
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
        if (!valid.has(token)) {
          stats.refused++;
          return answer({ errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
        }
        const data = (json.data ?? {}) as Record<string, { value?: string }>;
        if (typeof json.touser !== 'string' || typeof json.template_id !== 'string') {
          return answer({ errcode: 47003, errmsg: 'argument invalid!' });
        }
        received.push({
          touser: json.touser,
          templateId: json.template_id,
          data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v?.value ?? '')])),
          token,
        });
        return answer({ errcode: 0, errmsg: 'ok', msgid: received.length });
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
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
