// Hostile input for every call of the contract, generated from its zod request schema.
// FUZZ_RUNS (default 150) sets the payloads per call; FUZZ_SEED replays a failure.
import { allCalls, type CallDef } from '@studio/contract';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestEnv } from '../harness.ts';
import { hostileValues, mutate, mutationArb, plausible, rawBodies, requestSchema } from './gen.ts';
import { envelopeProblems, envInt, invariantProblems, leaked } from './support.ts';
import { makeWorld, type Kind, type World } from './world.ts';

const RUNS = envInt('FUZZ_RUNS', 150);
const SEED = envInt('FUZZ_SEED', 20261121);
const KINDS = [
  'teacher',
  'area',
  'material',
  'cardProduct',
  'course',
  'member',
  'memberCard',
  'session',
] as const satisfies readonly Kind[];

async function send(env: TestEnv, call: CallDef, body: string | Buffer, type: string) {
  const cookie = call.auth === 'public' ? undefined : env.client.cookie;
  const res = await env.app.inject({
    method: 'POST',
    url: call.path,
    headers: { 'content-type': type, ...(cookie ? { cookie } : {}) },
    payload: body,
  });
  return { status: res.statusCode, text: res.body };
}

function failure(call: CallDef, body: string | Buffer, a: { status: number; text: string }, why: string[]) {
  const shown = typeof body === 'string' ? body.slice(0, 300) : `<${body.length} bytes>`;
  return new Error(
    `${call.path}: ${why.join('; ')}\n  payload: ${shown}\n  answer ${a.status}: ${a.text.slice(0, 300)}`,
  );
}

describeEachDb('fuzz: hostile input for every call', (env) => {
  let mine: World;
  let theirs: World;
  let hostile: unknown[];
  let ownIds: number[];

  beforeAll(async () => {
    mine = await makeWorld(env().factory, '本店');
    theirs = await makeWorld(env().other.factory, '他店');
    ownIds = KINDS.map((k) => mine[k]);
    hostile = hostileValues(KINDS.map((k) => theirs[k]));
  });

  for (const call of allCalls) {
    it(`${call.path}: ${RUNS} generated payloads, no 5xx, envelopes, no other store's data`, async () => {
      const schema = requestSchema(call);
      const fields = Object.keys(schema.properties ?? {});
      const check = async (body: string | Buffer, type: string) => {
        const a = await send(env(), call, body, type);
        const why = envelopeProblems(a);
        // A store's public landing data (name, timetable) is anyone's to read, by design.
        const leaks = call.publicStore ? [] : leaked(a.text, theirs.secrets);
        if (leaks.length) why.push(`other store's data in the answer: ${leaks.join(', ')}`);
        if (why.length) throw failure(call, body, a, why);
      };

      for (const raw of rawBodies(fields)) await check(raw.body, raw.type);

      await fc.assert(
        fc.asyncProperty(fc.array(mutationArb, { minLength: 0, maxLength: 4 }), fc.nat(), async (muts, salt) => {
          let s = salt;
          const pick = (n: number) => {
            s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
            return n > 0 ? s % n : 0;
          };
          const base = plausible(schema, '', ownIds, pick) as Record<string, unknown>;
          await check(JSON.stringify(mutate(base, muts, hostile)) ?? 'null', 'application/json');
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: false },
      );
    });
  }

  it('a NUL character in any text field is refused cleanly, not a 500', async () => {
    const problems: string[] = [];
    for (const call of allCalls) {
      const schema = requestSchema(call);
      const base = plausible(schema, '', ownIds, (n) => n - 1) as Record<string, unknown>;
      for (const [k, v] of Object.entries(base)) {
        if (typeof v !== 'string') continue;
        const body = JSON.stringify({ ...base, [k]: `a\u0000b` });
        const a = await send(env(), call, body, 'application/json');
        const why = envelopeProblems(a);
        if (why.length) problems.push(`${call.path} ${k}: ${why.join('; ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the server still answers, nothing was polluted, and the invariants hold', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    const me = await env().client.call('/api/auth/me');
    expect(me.code).toBe(0);
    const pollute = await env().client.call(
      '/api/auth/me',
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}',
    );
    expect(pollute.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await invariantProblems(env().database.db, env().dialect)).toEqual([]);
  });
});
