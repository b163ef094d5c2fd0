import { OutboundRefused, outboundPost, type AllowedHost } from './outbound.ts';

/**
 * WeChat's web authorisation (网页授权, snsapi_base), written once: the member's openid under the
 * official account `appId` from the code WeChat gave the page. Used by online payment (JSAPI, the payer's
 * openid) and by the reminders (template messages); each says a failure in its own words.
 */
export class WechatOauthFailure extends Error {
  override name = 'WechatOauthFailure';
  constructor(
    /** `transport`: WeChat was not reached (or the address is not allowed); `provider`: WeChat refused the code. */
    readonly kind: 'transport' | 'provider',
    /** WeChat's answer (errcode, errmsg), when it answered. */
    readonly body: Record<string, unknown>,
    readonly status: number | null,
    /** The outbound check's refusal, when the address is not allowed. */
    readonly refused: string | null = null,
  ) {
    super(refused ?? (typeof body.errmsg === 'string' ? body.errmsg : 'wechat oauth failed'));
  }
}

/** The openid WeChat exchanges for `code` (`/sns/oauth2/access_token`, a GET), or a WechatOauthFailure. */
export async function openidFromOauthCode(a: {
  baseUrl: string;
  appId: string;
  appSecret: string;
  code: string;
  allow: readonly AllowedHost[];
  timeoutMs: number;
}): Promise<string> {
  const q = new URLSearchParams({
    appid: a.appId,
    secret: a.appSecret,
    code: a.code,
    grant_type: 'authorization_code',
  });
  let res;
  try {
    res = await outboundPost(`${a.baseUrl}/sns/oauth2/access_token?${q}`, '', {
      allow: a.allow,
      timeoutMs: a.timeoutMs,
      method: 'GET',
    });
  } catch (e) {
    throw new WechatOauthFailure('transport', {}, null, e instanceof OutboundRefused ? e.message : null);
  }
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(res.text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: no openid
  }
  const openid = body.openid;
  if (res.status !== 200 || typeof openid !== 'string' || !openid)
    throw new WechatOauthFailure('provider', body, res.status);
  return openid;
}
