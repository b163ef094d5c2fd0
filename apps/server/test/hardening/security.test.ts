// Security settings: cookie, login limits across instances, password hashing, headers, no secrets out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allCalls, Msg, StaffMsg } from '@studio/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { createStoreWithAdmin } from '../../src/features/store-admin/public.ts';
import { Client, describeEachDb, PG_URL, TEST_PASSWORD, type App } from '../harness.ts';
import { basePayloads } from './payloads.ts';
import { HttpClient, startServer } from './server-process.ts';
import { databaseSnapshot } from './support.ts';
import { makeWorld } from './world.ts';

const config = (o: Record<string, string> = {}) => ({
  ...loadConfig({ LOG_LEVEL: 'silent', ...o } as NodeJS.ProcessEnv),
  webDist: '/nonexistent',
});

/** A second handle on the same database (a second app instance). */
async function secondHandle(h: DbHandle): Promise<DbHandle> {
  if (h.dialect === 'postgres') return openDatabase({ url: PG_URL, schema: h.schema, poolMax: 5 });
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(h.db);
  return openDatabase({ file: rows.rows.find((r) => r.name === 'main')!.file });
}

/** Every call of the contract with its base payload; a call without one is listed in `missing`. */
function callsWithPayloads() {
  const withPayload = allCalls.flatMap((call) => {
    const entry = basePayloads[call.path];
    return entry ? [{ call, entry }] : [];
  });
  const missing = allCalls.filter((c) => !basePayloads[c.path]).map((c) => `add a base payload for ${c.path}`);
  return { withPayload, missing };
}

async function login(app: App, account: string, password: string, ip: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    payload: JSON.stringify({ account, password }),
  });
  return { status: res.statusCode, msg: (res.json() as { msg: string }).msg, cookie: res.headers['set-cookie'] };
}

describeEachDb('security settings', (env) => {
  let second: DbHandle;
  let appA: App;
  let appB: App;

  // Two instances behind a proxy (TRUST_PROXY=1), so each request can name its client address.
  beforeAll(async () => {
    second = await secondHandle(env().database);
    appA = await buildApp({ config: config({ TRUST_PROXY: '1' }), database: env().database, logger: false });
    appB = await buildApp({ config: config({ TRUST_PROXY: '1' }), database: second, logger: false });
    await appA.ready();
    await appB.ready();
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await second?.close();
  });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over plain HTTP', async () => {
    const a = await login(env().app, env().username, TEST_PASSWORD, '10.1.0.1');
    expect(a.status).toBe(200);
    const c = String(a.cookie);
    expect(c).toMatch(/^sid=[A-Za-z0-9_-]{40,}/);
    expect(c).toContain('HttpOnly');
    expect(c).toContain('SameSite=Lax');
    expect(c).toContain('Path=/');
    expect(c).not.toContain('Secure');
  });

  it('with COOKIE_SECURE=1 the cookie is Secure and named __Host-sid (no Domain), and HSTS is sent', async () => {
    const app = await buildApp({ config: config({ COOKIE_SECURE: '1' }), database: second, logger: false });
    try {
      const a = await login(app, env().username, TEST_PASSWORD, '10.1.0.2');
      expect(a.status).toBe(200);
      const c = String(a.cookie);
      expect(c).toMatch(/^__Host-sid=/);
      expect(c).toContain('Secure');
      expect(c).toContain('HttpOnly');
      expect(c).toContain('Path=/');
      expect(c).not.toMatch(/Domain=/i);
      const me = await app.inject({
        method: 'POST',
        url: '/api/auth/me',
        headers: { 'content-type': 'application/json', cookie: c.split(';')[0] },
        payload: '{}',
      });
      expect(me.statusCode).toBe(200);
      expect(me.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await app.close();
    }
  });

  it('counts failed logins in the database: 10 per account across two app instances', async () => {
    const account = `limit-${env().dialect}`;
    await createStoreWithAdmin(env().database.db, {
      storeName: '限流门店',
      admin: { username: account, password: 'right-password-1', name: '限' },
    });
    for (let i = 0; i < 10; i++) {
      const app = i % 2 ? appB : appA;
      const a = await login(app, account, `wrong-${i}`, `10.2.0.${i}`);
      expect(a.status).toBe(401);
      expect(a.msg).toBe(Msg.loginFailed);
    }
    for (const app of [appA, appB]) {
      const locked = await login(app, account, 'right-password-1', '10.2.1.1');
      expect(locked.status).toBe(429);
      expect(locked.msg).toBe(Msg.loginLocked);
      expect(locked.cookie).toBeUndefined();
    }
  });

  it('counts failed logins in the database: 30 per IP across two app instances', async () => {
    const ip = `10.3.0.${env().dialect === 'sqlite' ? 1 : 2}`;
    for (let i = 0; i < 30; i++) {
      const a = await login(i % 2 ? appB : appA, `nobody-${i}`, 'x', ip);
      expect(a.status).toBe(401);
    }
    const locked = await login(appA, env().username, TEST_PASSWORD, ip);
    expect(locked.status).toBe(429);
    const elsewhere = await login(appB, env().username, TEST_PASSWORD, '10.3.1.1');
    expect(elsewhere.status).toBe(200);
  });

  it('a session made by one instance works on the other, and logout ends it on both', async () => {
    const c = new Client(env().app);
    await c.login(env().username);
    const b = new Client(appB);
    b.cookie = c.cookie;
    expect((await b.call('/api/auth/me')).code).toBe(0);
    expect((await b.call('/api/auth/logout')).code).toBe(0);
    expect((await c.call('/api/auth/me')).status).toBe(401);
  });

  /** One session used on both instances, each of which has just answered it (a per-instance cache would hold it). */
  async function sessionOnBoth() {
    const a = new Client(appA);
    await a.login(env().username);
    const b = new Client(appB);
    b.cookie = a.cookie;
    expect((await a.call('/api/auth/me')).code).toBe(0);
    expect((await b.call('/api/auth/me')).code).toBe(0);
    return { a, b };
  }

  it('logout on one instance ends the session on the other at once, even right after the other served it', async () => {
    const { a, b } = await sessionOnBoth();
    expect((await a.call('/api/auth/logout')).code).toBe(0);
    expect((await b.call('/api/auth/me')).status).toBe(401);
  });

  it("ending a staff member's sessions (disabling) refuses the cookie on both instances at once", async () => {
    const { a, b } = await sessionOnBoth();
    await env().database.db.deleteFrom('httpSession').where('staffId', '=', env().staffId).execute();
    expect((await a.call('/api/auth/me')).status).toBe(401);
    expect((await b.call('/api/auth/me')).status).toBe(401);
    await env().client.login(env().username);
  });

  /** A staff member of this file's store with a role, logged in on instance A and served on B too. */
  async function staffOnBoth(role: 'desk' | 'teacher' | 'manager') {
    const account = `${role}${Math.floor(Math.random() * 1e9)}`;
    const { id } = await env().client.ok('/store/api/insert/staff', {
      name: `${role}员工`,
      account,
      mobile: null,
      password: 'staff-pass-2026',
      role,
      teacherId: role === 'teacher' ? (await env().factory.teacher()).id : null,
    });
    const a = new Client(appA);
    expect((await a.login(account, 'staff-pass-2026')).code).toBe(0);
    const b = new Client(appB);
    b.cookie = a.cookie;
    expect((await a.call('/store/api/query/course/simple/list')).code).toBe(0);
    expect((await b.call('/store/api/query/course/simple/list')).code).toBe(0);
    return { id, account, a, b };
  }

  it('disabling a staff member ends their session held on another instance at its next request', async () => {
    const { id, account, a, b } = await staffOnBoth('desk');
    const off = await env().client.call('/store/api/update/staff', {
      id,
      name: '停用的前台',
      mobile: null,
      role: 'desk',
      teacherId: null,
      enabled: 0,
    });
    expect(off.code, off.msg).toBe(0);
    expect((await b.call('/store/api/query/course/simple/list')).status).toBe(401);
    expect((await a.call('/api/auth/me')).status).toBe(401);
    const again = await new Client(appB).login(account, 'staff-pass-2026');
    expect([again.status, again.msg]).toEqual([403, Msg.staffDisabled]);
  });

  it('a role change holds on every instance at its next request (no cached role is used)', async () => {
    const { id, b } = await staffOnBoth('desk');
    expect((await b.call('/store/api/query/member/list', {})).code).toBe(0);
    const teacher = await env().factory.teacher();
    await env().client.ok('/store/api/update/staff', {
      id,
      name: '改做老师',
      mobile: null,
      role: 'teacher',
      teacherId: teacher.id,
      enabled: 1,
    });
    const refused = await b.call('/store/api/query/member/list', {});
    expect([refused.status, refused.msg]).toEqual([403, Msg.forbiddenRole]);
  });

  it("password rules; changing one's own ends the other sessions, a reset ends all of them", async () => {
    const { id, account, a, b } = await staffOnBoth('desk');
    const change = (body: unknown) => a.call('/api/auth/change/password', body);
    for (const [newPassword, msg] of [
      ['short1', StaffMsg.passwordShort],
      ['lettersonly', StaffMsg.passwordWeak],
      ['1234567890', StaffMsg.passwordWeak],
      [`a1${'x'.repeat(127)}`, StaffMsg.passwordLong],
    ] as const) {
      const r = await change({ oldPassword: 'staff-pass-2026', newPassword });
      expect([r.status, r.msg]).toEqual([400, msg]);
    }
    const wrong = await change({ oldPassword: 'not-my-pass-1', newPassword: 'fresh-pass-2026' });
    expect([wrong.status, wrong.msg]).toEqual([400, StaffMsg.oldPasswordWrong]);
    const same = await change({ oldPassword: 'staff-pass-2026', newPassword: 'staff-pass-2026' });
    expect([same.status, same.msg]).toEqual([400, StaffMsg.samePassword]);
    // A second session of the same account (another device) ends; the one that changed it stays.
    const other = new Client(appB);
    expect((await other.login(account, 'staff-pass-2026')).code).toBe(0);
    expect((await change({ oldPassword: 'staff-pass-2026', newPassword: 'fresh-pass-2026' })).code).toBe(0);
    expect((await other.call('/api/auth/me')).status).toBe(401);
    expect((await a.call('/api/auth/me')).code).toBe(0);
    expect((await b.call('/api/auth/me')).code).toBe(0);
    expect((await new Client(appA).login(account, 'staff-pass-2026')).status).toBe(401);
    // The manager resets it: every session of theirs ends.
    await env().client.ok('/store/api/reset/staff/password', { id, password: 'reset-pass-2026' });
    expect((await a.call('/api/auth/me')).status).toBe(401);
    expect((await b.call('/api/auth/me')).status).toBe(401);
    expect((await new Client(appA).login(account, 'reset-pass-2026')).code).toBe(0);
  });

  it('a teacher account names a teacher of the store', async () => {
    const base = { name: '没选老师', mobile: null, password: 'staff-pass-2026', role: 'teacher' };
    const none = await env().client.call('/store/api/insert/staff', {
      ...base,
      account: 'no_teacher_1',
      teacherId: null,
    });
    expect([none.status, none.msg]).toEqual([400, StaffMsg.teacher]);
    const gone = await env().client.call('/store/api/insert/staff', {
      ...base,
      account: 'no_teacher_2',
      teacherId: 99999999,
    });
    expect([gone.status, gone.msg]).toEqual([404, Msg.notFound('老师')]);
    const staff = await env().client.ok('/store/api/query/staff/list', {});
    expect(staff.some((x: { account: string }) => x.account.startsWith('no_teacher'))).toBe(false);
  });

  it('a store keeps one enabled manager: the last one cannot step down or be disabled', async () => {
    const staff = await env().client.ok('/store/api/query/staff/list', {});
    const managers = staff.filter((x: { role: string; enabled: number }) => x.role === 'manager' && x.enabled);
    expect(managers).toHaveLength(1);
    const me = managers[0];
    for (const change of [
      { role: 'desk', enabled: 1 },
      { role: 'manager', enabled: 0 },
    ]) {
      const r = await env().client.call('/store/api/update/staff', {
        id: me.id,
        name: me.name,
        mobile: me.mobile,
        teacherId: null,
        ...change,
      });
      expect([r.status, r.msg]).toEqual([409, StaffMsg.lastManager]);
    }
    expect((await env().client.call('/api/auth/me')).code).toBe(0);
  });

  it("a manager's own account: its password is not reset without the old one, it is not disabled, the session stays", async () => {
    const staff = await env().client.ok('/store/api/query/staff/list', {});
    const me = staff.find((x: { id: number }) => x.id === env().staffId);
    // a second enabled manager, so that "the last manager" is not what refuses
    await env().client.ok('/store/api/insert/staff', {
      name: '副店长',
      account: `deputy_${env().dialect}`,
      mobile: null,
      password: 'staff-pass-2026',
      role: 'manager',
      teacherId: null,
    });
    const reset = await env().client.call('/store/api/reset/staff/password', {
      id: me.id,
      password: 'taken-over-2026',
    });
    expect([reset.status, reset.msg]).toEqual([409, StaffMsg.ownPassword]);
    const off = await env().client.call('/store/api/update/staff', {
      id: me.id,
      name: me.name,
      mobile: me.mobile,
      role: 'manager',
      teacherId: null,
      enabled: 0,
    });
    expect([off.status, off.msg]).toEqual([409, StaffMsg.disableSelf]);
    expect((await env().client.call('/api/auth/me')).code).toBe(0);
    expect((await new Client(env().app).login(env().username, 'taken-over-2026')).status).toBe(401);
    const after = await env().client.ok('/store/api/query/staff/list', {});
    expect(after.find((x: { id: number }) => x.id === me.id).enabled).toBe(1);
  });

  it('refuses every call of the contract from a foreign Origin or Referer with 403, writing nothing', async () => {
    const { app, database, dialect } = env();
    const w = await makeWorld(env().factory, '来源');
    const cookie = env().client.cookie!;
    const before = await databaseSnapshot(database.db, dialect);
    const foreign = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:4000' }, // another port of the same host
      { referer: 'http://localhost:4000/form.html' }, // no Origin: the Referer decides
    ];
    const { withPayload, missing } = callsWithPayloads();
    for (const { call, entry } of withPayload) {
      const body = entry.body(w);
      const bodies: [string, string][] = [['application/json', JSON.stringify(body)]];
      if (call.form) {
        const form = Object.entries(body).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]);
        bodies.push(['application/x-www-form-urlencoded', new URLSearchParams(form).toString()]);
      }
      for (const from of foreign) {
        for (const [type, payload] of bodies) {
          const res = await app.inject({
            method: 'POST',
            url: call.path,
            headers: { 'content-type': type, cookie, 'x-store-id': String(env().storeId), ...from },
            payload,
          });
          const answer = res.json() as { code: number; msg: string };
          expect([res.statusCode, answer.code, answer.msg], `${call.path} ${type} ${JSON.stringify(from)}`).toEqual([
            403,
            403,
            Msg.foreignOrigin,
          ]);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(await databaseSnapshot(database.db, dialect)).toBe(before);
    // The refused logout ended nothing.
    expect((await env().client.call('/api/auth/me')).code).toBe(0);
  });

  it('accepts writes from its own origin, from ALLOWED_ORIGINS, and without Origin or Referer', async () => {
    const save = (target: App, headers: Record<string, string>) =>
      target.inject({
        method: 'POST',
        url: '/store/api/save/store/funcs',
        headers: { 'content-type': 'application/json', cookie: env().client.cookie!, ...headers },
        payload: JSON.stringify({ funcs: [{ key: 'k', name: '功能', enabled: 1 }] }),
      });
    // app.inject's Host header is localhost:80
    const sources: Record<string, string>[] = [
      {},
      { origin: 'http://localhost' },
      { referer: 'http://localhost/settings/store' },
      { origin: 'http://app.example:8080', host: 'app.example:8080' },
    ];
    for (const headers of sources) {
      expect((await save(env().app, headers)).statusCode, JSON.stringify(headers)).toBe(200);
    }
    const proxied = await buildApp({
      config: config({ ALLOWED_ORIGINS: 'https://admin.example.com, https://other.example.com:8443' }),
      database: second,
      logger: false,
    });
    try {
      expect((await save(proxied, { origin: 'https://admin.example.com' })).statusCode).toBe(200);
      expect((await save(proxied, { origin: 'https://other.example.com:8443' })).statusCode).toBe(200);
      expect((await save(proxied, { origin: 'https://admin.example.com:8443' })).statusCode).toBe(403);
      expect((await save(proxied, { origin: 'http://admin.example.com' })).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('stores passwords as argon2id with at least 19 MiB and 2 iterations', async () => {
    const rows = await env().database.db.selectFrom('staff').select('passwordHash').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(r.passwordHash);
      expect(m, r.passwordHash.slice(0, 40)).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThanOrEqual(19_456);
      expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    }
  });

  it('sends the security headers with a CSP that forbids framing, on answers and on errors', async () => {
    for (const url of ['/api/auth/me', '/store/api/query/nothing', '/']) {
      const res = await env().app.inject({
        method: url === '/' ? 'GET' : 'POST',
        url,
        headers: { 'content-type': 'application/json', cookie: env().client.cookie! },
        payload: url === '/' ? undefined : '{}',
      });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBeDefined();
      expect(res.headers['referrer-policy'], url).toBeDefined();
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });

  it('no answer of any call holds a password hash or the session token', async () => {
    const w = await makeWorld(env().factory, '扫描');
    const token = env().client.cookie!.split('=')[1];
    const { withPayload, missing } = callsWithPayloads();
    for (const { call, entry } of withPayload) {
      const cookie = entry.anon ? undefined : env().client.cookie;
      const res = await env().app.inject({
        method: 'POST',
        url: call.path,
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(entry.body(w)),
      });
      expect(res.body, call.path).not.toContain('$argon2');
      expect(res.body, call.path).not.toMatch(/passwordHash|password_hash/);
      expect(res.body, call.path).not.toContain(token);
    }
    expect(missing).toEqual([]);
  });
});

describe('logs of a real server process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-logs-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('hold no password, password hash or session token (login, failed login, failing calls)', async () => {
    const password = 'Log-Secret-Pass-9';
    const server = await startServer({ DATA_DIR: dir, SEED: 'demo', ADMIN_PASSWORD: password, LOG_LEVEL: 'trace' });
    let token = '';
    try {
      const c = new HttpClient(server.url);
      expect((await new HttpClient(server.url).login('admin', 'Wrong-Log-Pass-7')).status).toBe(401);
      expect((await c.login('admin', password)).code).toBe(0);
      token = c.cookie!.split('=')[1];
      expect((await c.call('/store/api/insert/member', { name: '', mobile: 'x' })).status).toBe(400);
      expect((await c.call('/store/api/query/member/info', { id: 999_999 })).status).toBe(404);
      expect((await c.call('/api/auth/me')).code).toBe(0);
    } finally {
      await server.stop();
    }
    const out = server.output();
    expect(out).toContain('"level":');
    for (const secret of [password, 'Wrong-Log-Pass-7', '$argon2', token]) expect(out).not.toContain(secret);
  });
});
