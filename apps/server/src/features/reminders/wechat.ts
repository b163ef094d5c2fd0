import type { Db } from '../../db/index.ts';
import { OutboundRefused, outboundPost, type AllowedHost } from '../../lib/outbound.ts';
import { openidFromOauthCode, WechatOauthFailure } from '../../lib/wechat-oauth.ts';
import * as tokens from './token-repository.ts';

/** The store's WeChat service account (服务号) as the reminders use it. */
export interface WechatAccount {
  appId: string;
  appSecret: string;
  /** API base address (https://api.weixin.qq.com; a local stand-in in tests). */
  baseUrl: string;
}

/**
 * WeChat refused or could not be reached; `message` in Chinese. `transient`: a later try may go
 * (unreachable, its 5xx, system busy -1, a token still refused after a new one); else the template,
 * the openid or the account must change first.
 */
export class WechatError extends Error {
  override name = 'WechatError';
  constructor(
    message: string,
    readonly errcode: number | null = null,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** WeChat's error codes (its global return codes) in the staff's words. */
const ERROR_WORDS: Record<number, string> = {
  [-1]: '微信系统繁忙',
  40001: 'access_token 无效',
  40014: 'access_token 不合法',
  42001: 'access_token 已过期',
  40003: '会员的 openid 无效',
  40037: '微信模板 ID 不正确',
  43004: '会员未关注公众号',
  43101: '会员拒收公众号消息',
  45009: '接口调用已达今日上限',
  47003: '模板参数不正确',
  40013: 'AppID 不正确',
  40125: 'AppSecret 不正确',
  40029: '授权 code 无效或已使用',
};

const TIMEOUT_MS = 8000;
/** A token is used until this long before WeChat's expiry, then refreshed. */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** How long an instance holds the refresh (others keep the old token or wait). */
const REFRESH_LEASE_MS = 15_000;
/** Errors of a token WeChat no longer takes (invalid, expired): refreshed once and sent again. */
const TOKEN_ERRORS = new Set([40001, 40014, 42001]);

function parse(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function post(url: string, body: string | null, allow: readonly AllowedHost[]) {
  try {
    const res = await outboundPost(url, body ?? '', {
      allow,
      timeoutMs: TIMEOUT_MS,
      ...(body === null ? { method: 'GET' as const } : { contentType: 'application/json' }),
    });
    return { status: res.status, body: parse(res.text) };
  } catch (e) {
    if (e instanceof OutboundRefused) throw new WechatError(e.message);
    throw new WechatError('无法连接微信接口', null, true);
  }
}

function wxError(b: Record<string, unknown>, status: number): WechatError {
  const errcode = typeof b.errcode === 'number' ? b.errcode : null;
  if (errcode === null || errcode === 0) {
    return new WechatError(
      `微信接口${status >= 500 ? '暂时不可用' : '回答无法识别'}（HTTP ${status}）`,
      null,
      status >= 500,
    );
  }
  const words = ERROR_WORDS[errcode] ?? (typeof b.errmsg === 'string' ? b.errmsg.slice(0, 60) : '微信接口出错');
  return new WechatError(`${words}（${errcode}）`, errcode, errcode === -1 || TOKEN_ERRORS.has(errcode));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The account's access token from the shared cache (`wechat_token`, one row per AppID): used until
 * shortly before it expires; then one instance, the one whose guarded update takes the refresh,
 * asks `/cgi-bin/stable_token` while the others keep using the old token (still valid) or wait for
 * the new one. `force` (WeChat said the token is invalid): a new one whatever the cache says.
 */
export async function accessToken(
  db: Db,
  account: WechatAccount,
  allow: readonly AllowedHost[],
  o: { force?: boolean; now?: () => number } = {},
): Promise<string> {
  const now = o.now ?? Date.now;
  let row = await tokens.tokenRow(db, account.appId);
  if (!o.force && row?.accessToken && row.expiresAt - REFRESH_BEFORE_MS > now()) return row.accessToken;
  if (!row) await tokens.ensureTokenRow(db, account.appId);
  const stale = row?.accessToken ?? '';
  for (let tries = 0; tries < 50; tries++) {
    if (await tokens.claimRefresh(db, account.appId, now(), REFRESH_LEASE_MS)) {
      try {
        const res = await post(
          `${account.baseUrl}/cgi-bin/stable_token`,
          JSON.stringify({
            grant_type: 'client_credential',
            appid: account.appId,
            secret: account.appSecret,
            ...(o.force ? { force_refresh: true } : {}),
          }),
          allow,
        );
        const token = res.body.access_token;
        if (res.status !== 200 || typeof token !== 'string' || !token) throw wxError(res.body, res.status);
        const expiresIn = typeof res.body.expires_in === 'number' ? res.body.expires_in : 7200;
        await tokens.storeToken(db, account.appId, token, now() + expiresIn * 1000);
        return token;
      } catch (e) {
        await tokens.releaseRefresh(db, account.appId);
        throw e;
      }
    }
    // Another instance is refreshing: the old token while it is valid, else wait for the new one.
    row = await tokens.tokenRow(db, account.appId);
    if (row?.accessToken && row.accessToken !== stale && row.expiresAt > now()) return row.accessToken;
    if (!o.force && row?.accessToken && row.expiresAt > now()) return row.accessToken;
    await sleep(100);
  }
  throw new WechatError('获取微信 access_token 超时');
}

/** One template message: to an openid, the template and its data fields. */
export interface TemplateMessage {
  touser: string;
  templateId: string;
  data: Record<string, string>;
  url?: string;
}

/** Sends one template message (`/cgi-bin/message/template/send`); a token WeChat refuses is refreshed once. */
export async function sendTemplate(
  db: Db,
  account: WechatAccount,
  allow: readonly AllowedHost[],
  msg: TemplateMessage,
): Promise<void> {
  const body = JSON.stringify({
    touser: msg.touser,
    template_id: msg.templateId,
    ...(msg.url ? { url: msg.url } : {}),
    data: Object.fromEntries(Object.entries(msg.data).map(([k, value]) => [k, { value }])),
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = await accessToken(db, account, allow, { force: attempt > 0 });
    const res = await post(
      `${account.baseUrl}/cgi-bin/message/template/send?access_token=${encodeURIComponent(token)}`,
      body,
      allow,
    );
    if (res.status === 200 && res.body.errcode === 0) return;
    const err = wxError(res.body, res.status);
    if (attempt === 0 && err.errcode !== null && TOKEN_ERRORS.has(err.errcode)) continue;
    throw err;
  }
}

/** The member's openid from the code of WeChat's web authorisation (snsapi_base; lib/wechat-oauth.ts). */
export async function openidFromCode(
  account: WechatAccount,
  allow: readonly AllowedHost[],
  code: string,
): Promise<string> {
  try {
    return await openidFromOauthCode({ ...account, code, allow, timeoutMs: TIMEOUT_MS });
  } catch (e) {
    if (!(e instanceof WechatOauthFailure)) throw e;
    if (e.kind === 'provider') throw wxError(e.body, e.status ?? 0);
    throw e.refused ? new WechatError(e.refused) : new WechatError('无法连接微信接口', null, true);
  }
}
