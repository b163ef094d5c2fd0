// Tenant isolation matrix, generated from the contract's list of calls.
import crypto from 'node:crypto';
import { allCalls, MODULE_DEDUCTION_MODE, Msg, type CallDef } from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { tokenHash } from '../../src/auth/sessions.ts';
import type { Db } from '../../src/db/index.ts';
import { describeEachDb, type TestEnv } from '../harness.ts';
import { basePayloads, setPath } from './payloads.ts';
import { envelopeProblems, invariantProblems, leaked } from './support.ts';
import { makeWorld, type World } from './world.ts';

const TABLES = [
  'member',
  'memberCard',
  'cardProduct',
  'course',
  'teacher',
  'area',
  'material',
  'timetable',
  'reservation',
  'pending',
  'history',
  'cardLedger',
  'fixTimetable',
  'storeModule',
  'storeSetting',
] as const;

/** Every row of a store, as text: the other store must be byte-for-byte unchanged by refused calls. */
async function snapshot(db: Db, storeId: number): Promise<string> {
  const parts: string[] = [];
  for (const t of TABLES) {
    const rows = await db
      .selectFrom(t)
      .selectAll()
      .where('storeId', '=', storeId)
      .execute()
      .catch(() => []);
    const sorted = rows.map((r) => JSON.stringify(r)).sort();
    parts.push(`${t}:${sorted.join('\n')}`);
  }
  const store = await db.selectFrom('store').selectAll().where('id', '=', storeId).executeTakeFirst();
  return `${JSON.stringify(store)}\n${parts.join('\n')}`;
}

async function raw(env: TestEnv, call: CallDef, body: unknown, headers: Record<string, string> = {}) {
  const res = await env.app.inject({
    method: 'POST',
    url: call.path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, text: res.body, json: res.json() as { code: number; msg: string } };
}

const guarded = allCalls.filter((c) => c.auth !== 'public');

describeEachDb('tenant isolation matrix', (env) => {
  let theirs: World;
  let theirsBefore: string;
  let expiredCookie: string;

  beforeAll(async () => {
    theirs = await makeWorld(env().other.factory, '他店');
    theirsBefore = await snapshot(env().database.db, theirs.storeId);
    const token = crypto.randomBytes(32).toString('base64url');
    const now = Date.now();
    await env()
      .database.db.insertInto('httpSession')
      .values({ id: tokenHash(token), staffId: env().staffId, createdAt: now - 10_000, expiresAt: now - 1000 })
      .execute();
    expiredCookie = `sid=${token}`;
  });

  it('the fixture rows of both stores keep the invariants', async () => {
    await makeWorld(env().factory, '检查');
    expect(await invariantProblems(env().database.db, env().dialect)).toEqual([]);
  });

  it('every call of the contract has a base payload and declares each id field it takes', () => {
    const missing = allCalls.filter((c) => !basePayloads[c.path]).map((c) => `add a base payload for ${c.path}`);
    const undeclared = allCalls.flatMap((c) =>
      (c.idFields ?? [])
        .filter((f) => !basePayloads[c.path]?.ids?.[f])
        .map((f) => `add id field ${f} of ${c.path} to its base payload`),
    );
    expect([...missing, ...undeclared]).toEqual([]);
  });

  for (const call of guarded) {
    it(`${call.path}: 401 without a session, with a forged cookie and with an expired session`, async () => {
      const body = basePayloads[call.path]?.body(theirs) ?? {};
      for (const cookie of [undefined, 'sid=forged-token-0000', `sid=${'x'.repeat(43)}`, expiredCookie]) {
        const a = await raw(env(), call, body, cookie ? { cookie } : {});
        expect(envelopeProblems(a)).toEqual([]);
        expect({ cookie, status: a.status, msg: a.json.msg }).toEqual({ cookie, status: 401, msg: Msg.notLoggedIn });
        expect(leaked(a.text, theirs.secrets)).toEqual([]);
      }
    });
  }

  for (const call of allCalls.filter((c) => c.auth === 'store')) {
    it(`${call.path}: 403 for a store without a post, 403/404 for every id of the other store`, async () => {
      const entry = basePayloads[call.path];
      if (!entry) throw new Error(`add a base payload for ${call.path}`);
      const { database, client, factory, storeId } = env();
      const mine = await makeWorld(factory, `本店${call.path.length}`);
      if (entry.mode !== undefined) {
        await database.db
          .updateTable('storeModule')
          .set({ status: entry.mode })
          .where('storeId', '=', storeId)
          .where('moduleId', '=', MODULE_DEDUCTION_MODE)
          .execute();
      }
      const headers = { cookie: client.cookie! };
      const send = async (body: unknown, h: Record<string, string>) => {
        const a = await raw(env(), call, body, h);
        return a;
      };
      const scan = (a: { status: number; text: string }, what: string) => {
        expect(envelopeProblems(a), what).toEqual([]);
        expect(leaked(a.text, theirs.secrets), `${what}: other store's data`).toEqual([]);
        expect(a.text, what).not.toContain('$argon2');
        expect(a.text, what).not.toContain(client.cookie!.split('=')[1]);
      };

      const foreign = await send(entry.body(mine), { ...headers, 'x-store-id': String(theirs.storeId) });
      scan(foreign, 'X-Store-Id of another store');
      expect(foreign.status).toBe(403);
      expect(foreign.json.msg).toBe(Msg.forbiddenStore);

      for (const [field, kind] of Object.entries(entry.ids ?? {})) {
        const body = entry.body(mine);
        setPath(body, field, kind === 'store' ? theirs.storeId : theirs[kind]);
        const a = await send(body, headers);
        scan(a, `${field} of the other store`);
        expect([403, 404], `${field} of the other store answered ${a.status} ${a.json.msg}`).toContain(a.status);
      }
      expect(await snapshot(database.db, theirs.storeId)).toBe(theirsBefore);

      const own = await send(entry.body(mine), headers);
      scan(own, 'own ids');
      expect([401, 403, 404], `own payload answered ${own.status} ${own.json.msg}`).not.toContain(own.status);
    });
  }

  it('the invariants hold after the whole matrix', async () => {
    expect(await invariantProblems(env().database.db, env().dialect)).toEqual([]);
  });
});
