// Size limits of every call, read from the contract: every list and every text in a request is
// capped by its schema, a list one item over its cap is a 400, and a body over the limit a 413.
import { allCalls, Msg, type CallDef } from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestEnv } from '../harness.ts';
import { memberClient } from '../member-client.ts';
import { plausible, requestSchema, type JsonSchema } from './gen.ts';
import { envelopeProblems } from './support.ts';
import { makeWorld, type World } from './world.ts';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Every node of a schema with its dotted path. */
function walk(s: JsonSchema, at: string, visit: (s: JsonSchema, at: string) => void): void {
  visit(s, at);
  for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(b, at, visit);
  for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, at ? `${at}.${k}` : k, visit);
  if (s.items) walk(s.items, `${at}[]`, visit);
}

/** Sent as the caller it is for: a member's call with a signed-in member's cookie, else the admin's. */
async function send(env: TestEnv, call: CallDef, payload: string, memberCookie: string) {
  const cookie = call.auth === 'public' ? undefined : call.auth === 'member' ? memberCookie : env.client.cookie!;
  const res = await env.app.inject({
    method: 'POST',
    url: call.path,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload,
  });
  return { status: res.statusCode, text: res.body };
}

it('every list and every text field of every request has an upper bound', () => {
  const open: string[] = [];
  for (const call of allCalls) {
    walk(requestSchema(call), '', (s, at) => {
      if (s.type === 'array' && s.maxItems === undefined) open.push(`${call.path} ${at}: list without maxItems`);
      const bounded = s.maxLength !== undefined || s.pattern !== undefined || s.const !== undefined || s.enum;
      if (s.type === 'string' && !bounded) open.push(`${call.path} ${at}: text without maxLength`);
    });
  }
  expect(open).toEqual([]);
});

describeEachDb('size limits', (env) => {
  let w: World;
  let memberCookie: string;
  beforeAll(async () => {
    w = await makeWorld(env().factory, '限额');
    memberCookie = (await memberClient(env(), await env().factory.member({ name: '限额会员' }))).cookie!;
  });

  for (const call of allCalls) {
    it(`${call.path}: a list one over its cap is refused with 400, a body over ${(call.bodyLimit ?? DEFAULT_BODY_LIMIT) / 1024} KiB with 413`, async () => {
      const schema = requestSchema(call);
      const ids = [w.member, w.course, w.teacher, w.area, w.memberCard];
      for (const [field, s] of Object.entries(schema.properties ?? {})) {
        const list = [s, ...(s.anyOf ?? [])].find((x) => x.type === 'array' && x.maxItems !== undefined);
        if (!list) continue;
        const base = plausible(schema, '', ids, () => 0) as Record<string, unknown>;
        const item = plausible(list.items ?? {}, field.replace(/s$/, ''), ids, () => 0);
        const body = JSON.stringify({ ...base, [field]: Array.from({ length: list.maxItems! + 1 }, () => item) });
        const a = await send(env(), call, body, memberCookie);
        expect(envelopeProblems(a), field).toEqual([]);
        expect(a.status, `${field}: ${list.maxItems! + 1} items answered ${a.text.slice(0, 200)}`).toBe(400);
      }
      const limit = call.bodyLimit ?? DEFAULT_BODY_LIMIT;
      const big = await send(env(), call, JSON.stringify({ pad: 'x'.repeat(limit) }), memberCookie);
      expect(big.status).toBe(413);
      expect(JSON.parse(big.text)).toMatchObject({ code: 413, msg: Msg.tooLarge });
    });
  }
});
