import { expect, it } from 'vitest';
import { Client } from '../../../test/harness.ts';
import { describeEachDbOwnApp } from '../../../test/store-admin-support.ts';

const STATUS = '/api/setup/status';
const INIT = '/api/setup/init';
const admin = { username: 'owner', name: '店长', mobile: '13900000001', password: 'owner-pass-1' };

/** An anonymous call with no content type at all, as a plain fetch of a public call may send. */
const noType = (c: Client, url: string) => c.app.inject({ method: 'POST', url });

describeEachDbOwnApp('first-run setup on an empty database', (env) => {
  it('reports needsSetup on an empty database', async () => {
    expect(await env().anon().ok(STATUS)).toEqual({ needsSetup: true });
    expect((await noType(env().anon(), STATUS)).json().data).toEqual({ needsSetup: true });
  });

  it('validates the init payload in Chinese without creating anything', async () => {
    const anon = env().anon();
    const cases: [unknown, string][] = [
      [{}, '请输入门店名称'],
      [{ storeName: '门店' }, '请填写管理员信息'],
      [{ storeName: '门店', admin: { ...admin, password: 'short' } }, '密码至少8位'],
      [{ storeName: '门店', admin: { ...admin, password: 'x'.repeat(129) } }, '密码不能超过128位'],
      [{ storeName: '门店', admin: { ...admin, username: 'a' } }, '账号应为2到32位字母、数字或 _ . @ -'],
      [{ storeName: '门店', admin: { ...admin, username: '带 空格' } }, '账号应为2到32位字母、数字或 _ . @ -'],
      [{ storeName: '门店', admin: { ...admin, name: '' } }, '请输入管理员姓名'],
      [{ storeName: '门店', admin: { ...admin, mobile: '123' } }, '请输入正确的11位手机号'],
      [{ storeName: '门店', timezone: 'Nowhere/City', admin }, '请选择正确的时区'],
      [{ storeName: 12, admin }, '请输入门店名称'],
      [{ storeName: '门店', admin: { ...admin, name: 'a\u0000' } }, '请求内容包含无效字符'],
    ];
    for (const [body, msg] of cases) {
      const a = await anon.call(INIT, body);
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
    expect(await anon.ok(STATUS)).toEqual({ needsSetup: true });
  });

  it('creates the store and its admin, logs in, and is refused the second time', async () => {
    const c = new Client(env().app);
    const res = await env().app.inject({
      method: 'POST',
      url: INIT,
      headers: { 'content-type': 'application/json' },
      payload: { storeName: ' 第一家店 ', timezone: 'asia/hong_kong', admin: { ...admin, mobile: '' } },
    });
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    c.cookie = cookie.split(';')[0];
    const profile = res.json().data;
    expect(profile).toMatchObject({ name: '店长', mobile: null, posts: [{ store: { name: '第一家店' } }] });

    const me = await c.ok('/api/auth/me');
    expect(me.id).toBe(profile.id);
    const setting = await c.ok('/store/api/query/store/booking/setting');
    expect(setting).toMatchObject({ storeName: '第一家店', timezone: 'Asia/Hong_Kong', deductionMode: 0 });
    expect(await env().anon().ok(STATUS)).toEqual({ needsSetup: false });

    const again = await env()
      .anon()
      .call(INIT, { storeName: '抢占', admin: { ...admin, username: 'intruder' } });
    expect(again.status).toBe(409);
    expect(again.msg).toBe('系统已完成初始化，不能再次创建门店');
    const stores = await env().database.db.selectFrom('store').select('name').execute();
    expect(stores).toEqual([{ name: '第一家店' }]);

    const login = await new Client(env().app).login('owner', admin.password);
    expect(login.code).toBe(0);
  });
});

describeEachDbOwnApp('first-run setup under concurrent attempts', (env) => {
  it('creates exactly one store when several inits race', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        env()
          .anon()
          .call(INIT, { storeName: `门店${i}`, admin: { ...admin, username: `owner${i}`, mobile: null } }),
      ),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 0)) {
      expect(a.status).toBe(409);
      expect(['系统已完成初始化，不能再次创建门店', '系统正在初始化，请稍后刷新页面']).toContain(a.msg);
    }
    const db = env().database.db;
    expect(await db.selectFrom('store').select('id').execute()).toHaveLength(1);
    expect(await db.selectFrom('staff').select('id').execute()).toHaveLength(1);
    expect(await db.selectFrom('opLock').select('key').execute()).toEqual([]);
  });
});

describeEachDbOwnApp('first-run setup behind a guard left by another attempt', (env) => {
  it('waits for a fresh guard and takes over a stale one, removing it after', async () => {
    const db = env().database.db;
    const body = { storeName: '接手', admin: { ...admin, username: 'heir', mobile: null } };
    await db.insertInto('opLock').values({ key: 'setup:init', storeId: 0, createdAt: Date.now() }).execute();
    const busy = await env().anon().call(INIT, body);
    expect([busy.status, busy.msg]).toEqual([409, '系统正在初始化，请稍后刷新页面']);
    expect(await db.selectFrom('store').select('id').execute()).toEqual([]);
    // The guard of a crashed attempt (stamped long ago) expires.
    await db.updateTable('opLock').set({ createdAt: 0 }).where('key', '=', 'setup:init').execute();
    await env().anon().ok(INIT, body);
    expect(await db.selectFrom('store').select('name').execute()).toEqual([{ name: '接手' }]);
    expect(await db.selectFrom('opLock').select('key').execute()).toEqual([]);
  });
});
