import { createMemberLoginCode, memberLogin } from '@studio/contract';
import { Client, type TestEnv } from './harness.ts';

/**
 * A member signed in on the members' channel with a code the desk (the env's admin) gave them: a
 * client holding the member cookie.
 */
export async function memberClient(
  env: Pick<TestEnv, 'app' | 'client' | 'storeId'>,
  m: { id: number; mobile: string },
): Promise<Client> {
  const { code } = await env.client.ok(createMemberLoginCode.path, { memberId: m.id });
  const res = await env.app.inject({
    method: 'POST',
    url: memberLogin.path,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ storeId: env.storeId, mobile: m.mobile, code }),
  });
  const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('msid='));
  if (res.json().code !== 0 || !cookie) throw new Error(`member login failed: ${res.body}`);
  const client = new Client(env.app);
  client.cookie = cookie.split(';')[0];
  return client;
}
