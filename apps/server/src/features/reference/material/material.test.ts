import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../test/harness.ts';
import { insertSession } from '../../../../test/session-row.ts';

const API = '/store/api';

describeEachDb('materials', (env) => {
  it('builds book -> chapter -> lesson and refuses a fourth level', async () => {
    const { client, storeId } = env();
    const add = (name: string, parentId?: number) =>
      client.ok(`${API}/insert/material`, { name, parentId }).then((r: { id: number }) => r.id);
    const book = await add('瑜伽入门');
    const ch2 = await add('第二章', book);
    const ch1 = await add('第一章', book);
    await client.ok(`${API}/update/material`, { id: ch2, name: '第二章 体式', sort: 5 });
    const lesson = await add('第1课', ch1);
    const deep = await client.call(`${API}/insert/material`, { name: '太深', parentId: lesson });
    expect([deep.status, deep.msg]).toEqual([400, '教材最多三级：教材、章节、课时']);
    const list = await client.ok(`${API}/query/material/list`, { storeId });
    const mine = list.find((b: { id: number }) => b.id === book);
    expect(mine).toEqual({
      id: book,
      name: '瑜伽入门',
      level: 1,
      children: [
        { id: ch1, name: '第一章', level: 2, children: [{ id: lesson, name: '第1课', level: 3 }] },
        { id: ch2, name: '第二章 体式', level: 2 },
      ],
    });
    expect(await client.ok(`${API}/query/material/detail`, { storeId, bookId: book })).toEqual(mine);
  });

  it('refuses deleting a material with children or used by a session', async () => {
    const { client, factory, database } = env();
    const book = await factory.material();
    await factory.material({ parentId: book.id, level: 2 });
    const a = await client.call(`${API}/delete/material`, { id: book.id });
    expect([a.status, a.msg]).toEqual([409, Msg.inUse('教材')]);
    const used = await factory.material();
    await insertSession(database.db, factory, { bookId: used.id, startTime: '2020-02-02 10:00:00' });
    const b = await client.call(`${API}/delete/material`, { id: used.id });
    expect([b.status, b.msg]).toEqual([409, '教材正在使用中，无法删除']);
    const free = await factory.material();
    await client.ok(`${API}/delete/material`, { id: free.id });
  });

  it('keeps stores apart: 404 for another store’s material, 403 for another store’s storeId', async () => {
    const { client, other, storeId } = env();
    const theirs = await other.factory.material({ name: '别店教材' });
    const a = await client.call(`${API}/query/material/detail`, { storeId, bookId: theirs.id });
    expect([a.status, a.msg, a.data]).toEqual([404, '教材不存在', null]);
    const missing = await client.call(`${API}/query/material/detail`, { storeId, bookId: 777_777 });
    expect([missing.status, missing.msg, missing.data]).toEqual([404, '教材不存在', null]);
    const b = await client.call(`${API}/query/material/detail`, { storeId: other.storeId, bookId: theirs.id });
    expect(b.status).toBe(403);
    expect(b.data).toBeNull();
    const c = await client.call(`${API}/query/material/list`, { storeId: other.storeId });
    expect(c.status).toBe(403);
    expect(JSON.stringify(await client.ok(`${API}/query/material/list`, { storeId }))).not.toContain('别店教材');
    for (const url of ['update/material', 'delete/material']) {
      const r = await client.call(`${API}/${url}`, { id: theirs.id, name: '改' });
      expect(r.status).toBe(404);
    }
    const d = await client.call(`${API}/insert/material`, { name: '挂到别店', parentId: theirs.id });
    expect(d.status).toBe(404);
    const e = await client.call(`${API}/insert/material`, { name: '' });
    expect([e.status, e.msg]).toEqual([400, '请输入教材名称']);
    const f = await client.call(`${API}/query/material/detail`, { storeId, bookId: 0 });
    expect([f.status, f.msg]).toEqual([400, '请选择教材']);
  });
});
