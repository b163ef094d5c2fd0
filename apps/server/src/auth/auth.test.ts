import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { createStoreWithAdmin } from '../features/store-admin/public.ts';
import { Client, describeEachDb, type App } from '../../test/harness.ts';
import { MAX_PER_ACCOUNT, MAX_PER_IP } from './rate-limit.ts';
import { MAX_SESSIONS_PER_STAFF } from './sessions.ts';

let addressSeq = 0;
/** A client address of its own, so each test's per-address count starts at zero. */
const freshAddress = () => `10.77.${Math.floor(addressSeq / 250)}.${(addressSeq++ % 250) + 1}`;

async function loginFrom(app: App, ip: string, account: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ account, password }),
  });
  const set = res.headers['set-cookie'];
  const cookie = (Array.isArray(set) ? set[0] : set)?.split(';')[0];
  return { status: res.statusCode, msg: (res.json() as { msg: string }).msg, cookie };
}

const statuses = (answers: { status: number }[]) => {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
};

describeEachDb('staff login and sessions', (env) => {
  it('logs in with the username and answers the profile with posts', async () => {
    const { app, username, storeId } = env();
    const c = new Client(app);
    const a = await c.login(username);
    expect(a.status).toBe(200);
    expect(a.code).toBe(0);
    const profile = a.data as { posts: { storeId: number; store: { name: string } }[] };
    expect(profile.posts[0].storeId).toBe(storeId);
    expect(c.cookie).toMatch(/^sid=/);
    const me = await c.call('/api/auth/me');
    expect(me.code).toBe(0);
    expect((me.data as { id: number }).id).toBe(env().staffId);
  });

  it('sets an HttpOnly SameSite=Lax cookie', async () => {
    const res = await env().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { account: env().username, password: 'test-password-1' },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('refuses a wrong password with a Chinese message and no cookie', async () => {
    const c = new Client(env().app);
    const a = await c.login(env().username, 'wrong-password');
    expect(a.status).toBe(401);
    expect(a.code).not.toBe(0);
    expect(a.msg).toBe('账号或密码错误');
    expect(c.cookie).toBeUndefined();
  });

  it('refuses an unknown account the same way', async () => {
    const a = await new Client(env().app).login('nobody-here');
    expect(a.status).toBe(401);
    expect(a.msg).toBe('账号或密码错误');
  });

  it('locks an account after 10 failures, even with the right password', async () => {
    const { app, database } = env();
    const { createStoreWithAdmin } = await import('../features/store-admin/public.ts');
    await createStoreWithAdmin(database.db, {
      storeName: '锁定测试',
      admin: { username: 'locked-user', password: 'right-password', name: '甲' },
    });
    for (let i = 0; i < 10; i++) {
      const a = await new Client(app).login('locked-user', `bad-${i}`);
      expect(a.status).toBe(401);
    }
    const locked = await new Client(app).login('locked-user', 'right-password');
    expect(locked.status).toBe(429);
    expect(locked.msg).toBe('登录失败次数过多，请15分钟后再试');
  });

  it('answers 401 请先登录 without a session, and with a forged cookie', async () => {
    const a = await env().anon().call('/api/auth/me');
    expect(a.status).toBe(401);
    expect(a.msg).toBe('请先登录');
    const forged = env().anon();
    forged.cookie = 'sid=forged-token';
    const b = await forged.call('/api/auth/me');
    expect(b.status).toBe(401);
  });

  it('logs out: the cookie no longer works', async () => {
    const c = new Client(env().app);
    await c.login(env().username);
    expect((await c.call('/api/auth/logout')).code).toBe(0);
    const after = await c.call('/api/auth/me');
    expect(after.status).toBe(401);
  });

  it('validates the login payload in Chinese', async () => {
    const a = await env().anon().call('/api/auth/login', { account: '' });
    expect(a.status).toBe(400);
    expect(a.msg).toBe('请输入账号');
    const b = await env().anon().call('/api/auth/login', '{"account": ');
    expect(b.status).toBe(400);
    expect(b.msg).toBe('请求内容不是有效的 JSON');
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const a = await env().client.call('/store/api/query/nothing/here');
    expect(a.status).toBe(404);
    expect(a).toMatchObject({ code: 404, data: null, msg: '接口不存在' });
    const res = await env().app.inject({ method: 'GET', url: '/store/api/query/teacher/list' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404 });
  });

  it('checks at most 10 of 100 wrong passwords sent at once, then refuses even the right one', async () => {
    const { app, database, dialect } = env();
    const account = `burst-${dialect}`;
    await createStoreWithAdmin(database.db, {
      storeName: '并发锁定',
      admin: { username: account, password: 'right-password', name: '并' },
    });
    const ip = freshAddress();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => loginFrom(app, ip, account, `wrong-${i}`)));
    expect(statuses(answers)).toEqual({ 401: MAX_PER_ACCOUNT, 429: 100 - MAX_PER_ACCOUNT });
    for (const a of answers) expect(a.msg).toBe(a.status === 401 ? Msg.loginFailed : Msg.loginLocked);
    expect((await loginFrom(app, freshAddress(), account, 'right-password')).status).toBe(429);
  });

  it('checks at most 30 logins from one address sent at once, each with a different name', async () => {
    const { app, username } = env();
    const ip = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => loginFrom(app, ip, `nobody-${i}`, 'x-password')),
    );
    expect(statuses(answers)).toEqual({ 401: MAX_PER_IP, 429: 100 - MAX_PER_IP });
    expect((await loginFrom(app, ip, username, 'test-password-1')).status).toBe(429);
    expect((await loginFrom(app, freshAddress(), username, 'test-password-1')).status).toBe(200);
  });

  it('counts failures per staff account, whether its account name or its mobile was typed', async () => {
    const { app, database, dialect } = env();
    const account = `both-${dialect}`;
    const mobile = dialect === 'sqlite' ? '13900000101' : '13900000102';
    await createStoreWithAdmin(database.db, {
      storeName: '手机号锁定',
      admin: { username: account, mobile, password: 'right-password', name: '双' },
    });
    for (let i = 0; i < MAX_PER_ACCOUNT; i++) {
      const a = await loginFrom(app, freshAddress(), i % 2 ? mobile : account, `wrong-${i}`);
      expect(a.status).toBe(401);
    }
    for (const name of [account, mobile]) {
      const locked = await loginFrom(app, freshAddress(), name, 'right-password');
      expect([locked.status, locked.msg, locked.cookie]).toEqual([429, Msg.loginLocked, undefined]);
    }
  });

  it('an unknown name gets the same answers as an account: 账号或密码错误, then locked after 10', async () => {
    const { app, dialect } = env();
    const name = `ghost-${dialect}`;
    for (let i = 0; i < MAX_PER_ACCOUNT; i++) {
      const a = await loginFrom(app, freshAddress(), name, `wrong-${i}`);
      expect([a.status, a.msg]).toEqual([401, Msg.loginFailed]);
    }
    const locked = await loginFrom(app, freshAddress(), name, 'any-password');
    expect([locked.status, locked.msg]).toEqual([429, Msg.loginLocked]);
  });

  it('a success gives its address slot back and clears the account: 40 logins from one address all work', async () => {
    const { app, username } = env();
    const ip = freshAddress();
    for (let i = 0; i < 3; i++) expect((await loginFrom(app, ip, username, 'wrong')).status).toBe(401);
    for (let i = 0; i < MAX_PER_IP + 10; i++) {
      const a = await loginFrom(app, ip, username, 'test-password-1');
      expect(a.status).toBe(200);
    }
  });

  it('a staff member with no enabled post is told 账号已停用 after the right password: no session, no cookie', async () => {
    const { app, database, dialect } = env();
    const account = `off-${dialect}`;
    const { staffId, storeId } = await createStoreWithAdmin(database.db, {
      storeName: '停用登录',
      admin: { username: account, password: 'right-password', name: '停' },
    });
    const enable = (enabled: 0 | 1) =>
      database.db.updateTable('post').set({ enabled }).where('staffId', '=', staffId).execute();
    await enable(0);
    const wrong = await loginFrom(app, freshAddress(), account, 'wrong-password');
    expect([wrong.status, wrong.msg]).toEqual([401, Msg.loginFailed]);
    const off = await loginFrom(app, freshAddress(), account, 'right-password');
    expect([off.status, off.msg, off.cookie]).toEqual([403, Msg.staffDisabled, undefined]);
    const sessions = () => database.db.selectFrom('httpSession').select('id').where('staffId', '=', staffId).execute();
    expect(await sessions()).toEqual([]);
    // Enabled again: the login answers the profile with its posts, and the cookie leads to the same one.
    await enable(1);
    const c = new Client(app);
    const on = await c.login(account, 'right-password');
    expect(on.status).toBe(200);
    expect(on.data).toMatchObject({
      id: staffId,
      name: '停',
      posts: [{ storeId, store: { id: storeId, name: '停用登录' }, role: 'manager', teacherId: null }],
    });
    expect((await c.call('/api/auth/me')).data).toEqual(on.data);
    expect(await sessions()).toHaveLength(1);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_STAFF} live sessions per staff member: the oldest ends`, async () => {
    const { app, database, dialect } = env();
    const account = `many-${dialect}`;
    const { staffId } = await createStoreWithAdmin(database.db, {
      storeName: '多会话',
      admin: { username: account, password: 'right-password', name: '多' },
    });
    const cookies: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_STAFF + 2; i++) {
      const a = await loginFrom(app, freshAddress(), account, 'right-password');
      cookies.push(a.cookie!);
    }
    const me = async (cookie: string) => {
      const c = new Client(app);
      c.cookie = cookie;
      return (await c.call('/api/auth/me')).status;
    };
    expect(await me(cookies[0])).toBe(401);
    expect(await me(cookies[1])).toBe(401);
    for (const cookie of cookies.slice(2)) expect(await me(cookie)).toBe(200);
    const live = await database.db.selectFrom('httpSession').select('id').where('staffId', '=', staffId).execute();
    expect(live.length).toBe(MAX_SESSIONS_PER_STAFF);
  });
});
