import { expect, it } from 'vitest';
import { Client, describeEachDb } from '../test/harness.ts';

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
    const { createStoreWithAdmin } = await import('../db/seed/store.ts');
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
});
