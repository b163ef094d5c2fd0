import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { DEFAULT_STORE_FUNCS } from './settings-service.ts';
import { StoreAdminMsg } from '@studio/contract';

const API = '/store/api';

describeEachDb('store settings: messaging setting and function list', (env) => {
  it('answers null before a messaging setting is saved, then the saved object exactly', async () => {
    const { client } = env();
    expect(await client.ok(`${API}/query/wechat/setting`)).toBeNull();
    const setting = {
      appId: 'wx1234567890',
      secret: '密钥 with spaces and "quotes"',
      webhookUrl: 'https://hooks.example.com/studio?x=1&y=2',
      nested: { list: [1, 2.5, -3, true, false, null, '文本'], empty: {}, deep: { a: [{ b: [] }] } },
      zero: 0,
      emoji: '🏋️',
    };
    expect(await client.ok(`${API}/insert/or/update/wechat/setting`, setting)).toBeNull();
    expect(await client.ok(`${API}/query/wechat/setting`)).toEqual(setting);
  });

  it('replaces the whole setting on a second save', async () => {
    const { client } = env();
    await client.ok(`${API}/insert/or/update/wechat/setting`, { a: 1, b: 2 });
    await client.ok(`${API}/insert/or/update/wechat/setting`, { c: 3 });
    expect(await client.ok(`${API}/query/wechat/setting`)).toEqual({ c: 3 });
  });

  it('keeps each store its own setting', async () => {
    const { client, other } = env();
    await client.ok(`${API}/insert/or/update/wechat/setting`, { owner: 'mine' });
    await other.client.ok(`${API}/insert/or/update/wechat/setting`, { owner: 'other' });
    expect(await client.ok(`${API}/query/wechat/setting`)).toEqual({ owner: 'mine' });
    expect(await other.client.ok(`${API}/query/wechat/setting`)).toEqual({ owner: 'other' });
  });

  it('refuses a payload that is not an object, a bad webhookUrl and an oversized one', async () => {
    const { client } = env();
    await client.ok(`${API}/insert/or/update/wechat/setting`, { keep: 1 });
    for (const body of [[1, 2], '"text"', '42']) {
      const a = await client.call(`${API}/insert/or/update/wechat/setting`, body);
      expect(a.status).toBe(400);
      expect(a.msg).toBe('消息设置内容应为一个对象');
    }
    for (const webhookUrl of ['ftp://x.example.com', 'javascript:alert(1)', 'not a url', 12, null]) {
      const a = await client.call(`${API}/insert/or/update/wechat/setting`, { webhookUrl });
      expect(a.status).toBe(400);
      expect(a.msg).toBe(StoreAdminMsg.webhookUrl);
    }
    const big = await client.call(`${API}/insert/or/update/wechat/setting`, { text: 'x'.repeat(70_000) });
    expect(big.status).toBe(400);
    expect(big.msg).toBe('消息设置内容不能超过64KB');
    const huge = await client.call(`${API}/insert/or/update/wechat/setting`, { text: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.msg).toBe('请求内容过大');
    const broken = await client.call(`${API}/insert/or/update/wechat/setting`, '{"a":');
    expect(broken.status).toBe(400);
    expect(await client.ok(`${API}/query/wechat/setting`)).toEqual({ keep: 1 });
  });

  it('refuses JSON nested deeper than 32 levels (and never answers 500 for it)', async () => {
    const { client } = env();
    const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;
    const nested = await client.call(`${API}/insert/or/update/wechat/setting`, `{"a":${deep(50_000)}}`);
    expect(nested.status).toBe(400);
    expect(nested.msg).toBe('内容嵌套不能超过32层');
    const funcs = await client.call(`${API}/save/store/funcs`, `{"funcs":[{"a":${deep(50_000)}}]}`);
    expect(funcs.status).toBe(400);
    expect(funcs.msg).toBe('内容嵌套不能超过32层');
    const ok = { a: JSON.parse(deep(30)) as unknown };
    await client.ok(`${API}/insert/or/update/wechat/setting`, ok);
    expect(await client.ok(`${API}/query/wechat/setting`)).toEqual(ok);
  });

  it('answers the default function list before one is saved', async () => {
    const funcs = await env().other.client.ok(`${API}/load/store/funcs`);
    expect(funcs).toEqual(DEFAULT_STORE_FUNCS);
    expect(funcs.map((f: { name: string }) => f.name)).toEqual([
      '团课预约',
      '在线教室',
      '周课表图片',
      '预约导出',
      '消息通知',
    ]);
  });

  it('round-trips the function list sent as JSON', async () => {
    const { client } = env();
    const funcs = [
      { key: 'group-booking', name: '团课预约', enabled: 0, extra: { order: 3, tags: ['a'] } },
      { key: 'custom', name: '自定义 & 功能=1', enabled: 1 },
    ];
    expect(await client.ok(`${API}/save/store/funcs`, { funcs })).toBeNull();
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual(funcs);
    await client.ok(`${API}/save/store/funcs`, { funcs: [] });
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual([]);
  });

  it('round-trips the function list sent in the form encoding (field funcs = JSON text)', async () => {
    const { app, client } = env();
    const funcs = [
      { key: 'a', name: '签到扣费', enabled: 1 },
      { key: 'b', name: '符号 +&=%?#', enabled: 0, nested: [null, 1.5] },
    ];
    const res = await app.inject({
      method: 'POST',
      url: `${API}/save/store/funcs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: client.cookie! },
      payload: new URLSearchParams({ funcs: JSON.stringify(funcs) }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, data: null, msg: '' });
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual(funcs);
  });

  it('refuses bad function lists in both encodings, keeping the saved one', async () => {
    const { app, client } = env();
    const saved = [{ key: 'kept', name: '保留', enabled: 1 }];
    await client.ok(`${API}/save/store/funcs`, { funcs: saved });
    const json: [unknown, string][] = [
      [{}, '请提供功能列表 funcs'],
      [{ funcs: { a: 1 } }, '功能列表 funcs 应为数组'],
      [{ funcs: [1, 'x'] }, '功能列表的每一项应为一个对象'],
      [{ funcs: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}` })) }, '功能列表最多100项'],
      [{ funcs: [{ text: 'x'.repeat(70_000) }] }, '功能列表内容不能超过64KB'],
    ];
    for (const [body, msg] of json) {
      const a = await client.call(`${API}/save/store/funcs`, body);
      expect(a.status).toBe(400);
      expect(a.msg).toBe(msg);
    }
    const form: [string, string][] = [
      ['funcs=%5B%7B%22a%22', '功能列表 funcs 不是有效的 JSON'],
      ['funcs=%22text%22', '功能列表 funcs 应为数组'],
      ['other=1', '请提供功能列表 funcs'],
      ['funcs=a&funcs=b', '功能列表的每一项应为一个对象'],
    ];
    for (const [payload, msg] of form) {
      const res = await app.inject({
        method: 'POST',
        url: `${API}/save/store/funcs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: client.cookie! },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual(saved);
  });

  it('accepts the form encoding only on save/store/funcs', async () => {
    const { app, client } = env();
    const res = await app.inject({
      method: 'POST',
      url: `${API}/insert/or/update/wechat/setting`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: client.cookie! },
      payload: 'a=1',
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers 401 without a session', async () => {
    const anon = env().anon();
    for (const path of [
      '/insert/or/update/wechat/setting',
      '/query/wechat/setting',
      '/load/store/funcs',
      '/save/store/funcs',
      '/add/logo',
      '/query/store/booking/setting',
      '/update/store/booking/setting',
    ]) {
      const a = await anon.call(`${API}${path}`, {});
      expect(a.status).toBe(401);
      expect(a.msg).toBe('请先登录');
    }
  });

  it('refuses a storeId of another store with 403', async () => {
    const { client, other } = env();
    const a = await client.call(`${API}/query/wechat/setting`, { storeId: other.storeId });
    expect(a.status).toBe(403);
    const b = await client.call(`${API}/insert/or/update/wechat/setting`, { storeId: other.storeId, x: 1 });
    expect(b.status).toBe(403);
  });

  it('keeps unknown keys of a function but refuses the shapes the screen cannot read, in Chinese', async () => {
    const { client } = env();
    const before = await client.ok(`${API}/load/store/funcs`);
    for (const [func, msg] of [
      [{ name: { toString: 1 } }, StoreAdminMsg.funcsName],
      [{ key: ['a'], name: '甲' }, StoreAdminMsg.funcsKey],
      [{ key: 'a', name: '甲', enabled: 'yes' }, StoreAdminMsg.funcsEnabled],
    ] as const) {
      const a = await client.call(`${API}/save/store/funcs`, { funcs: [func] });
      expect([a.status, a.msg], JSON.stringify(func)).toEqual([400, msg]);
    }
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual(before);
    const kept = [{ key: 'x', name: '乙', enabled: true, extra: { toString: 1 }, list: [1, 2] }, { other: 1 }];
    await client.ok(`${API}/save/store/funcs`, { funcs: kept });
    expect(await client.ok(`${API}/load/store/funcs`)).toEqual(kept);
  });
});
