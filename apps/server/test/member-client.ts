import { createMemberLoginCode, memberCreateOrder, memberLogin } from '@studio/contract';
import { issueCode } from '../src/auth/member-codes.ts';
import { Client, type TestEnv } from './harness.ts';

/**
 * A member's client on the members' channel. A card order (memberCreateOrder with a productId) is
 * signed first, as the member's page does it: the tick (agree) and the code texted to the member's
 * mobile (issued as /member/api/send/contract/code issues it, without the text's per-mobile gap, which
 * suites ordering many cards a minute would hit). A member's newest code is the only live one, so the
 * client's signed orders go one after another. An order that names `agree` or `signCode` itself is
 * sent as it is; `signsOrders = false` sends card orders unsigned (the refusal's tests).
 */
export class MemberClient extends Client {
  signsOrders = true;
  constructor(
    app: Client['app'],
    readonly member: { storeId: number; memberId: number },
  ) {
    super(app);
  }

  /** The member's signed orders, one after another (a new code stops the one before working). */
  private signing: Promise<unknown> = Promise.resolve();

  override async call<T = any>(url: string, body: unknown = {}, headers: Record<string, string> = {}) {
    if (!this.signs(url, body)) return super.call<T>(url, body, headers);
    const run = this.signing.then(async () => {
      const { code } = await issueCode(this.app.deps.db, this.member, 'contract');
      return super.call<T>(url, { ...(body as object), agree: true, signCode: code }, headers);
    });
    this.signing = run.catch(() => undefined);
    return run;
  }

  /** Whether the call is a card order to sign here (see the class). */
  private signs(url: string, body: unknown): boolean {
    if (url !== memberCreateOrder.path || !this.signsOrders || typeof body !== 'object' || body === null) return false;
    const b = body as Record<string, unknown>;
    return b.productId !== undefined && !('agree' in b) && !('signCode' in b);
  }
}

/**
 * A member signed in on the members' channel with a code the desk (the env's admin) gave them: a
 * client holding the member cookie (its card orders signed, see MemberClient).
 */
export async function memberClient(
  env: Pick<TestEnv, 'app' | 'client' | 'storeId'>,
  m: { id: number; mobile: string },
): Promise<MemberClient> {
  const { code } = await env.client.ok(createMemberLoginCode.path, { memberId: m.id });
  const res = await env.app.inject({
    method: 'POST',
    url: memberLogin.path,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ storeId: env.storeId, mobile: m.mobile, code }),
  });
  const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('msid='));
  if (res.json().code !== 0 || !cookie) throw new Error(`member login failed: ${res.body}`);
  const client = new MemberClient(env.app, { storeId: env.storeId, memberId: m.id });
  client.cookie = cookie.split(';')[0];
  return client;
}
