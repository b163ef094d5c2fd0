import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../test/harness.ts';
import { insertSession } from '../../../../test/session-row.ts';

const API = '/store/api';

describeEachDb('areas', (env) => {
  it('nests the tree at any depth, siblings by sort then id', async () => {
    const { client } = env();
    const add = (name: string, parentId: number | null, sort = 0) =>
      client.ok(`${API}/insert/area`, { name, parentId, sort }).then((r: { id: number }) => r.id);
    const a = await add('一号馆', null, 2);
    const b = await add('二号馆', null, 1);
    const a1 = await add('瑜伽室', a);
    const a2 = await add('单车房', a);
    const a11 = await add('东区', a1);
    const a111 = await add('靠窗', a11);
    const tree = await client.ok(`${API}/query/area/tree`);
    expect(tree).toEqual([
      { id: b, name: '二号馆', children: [] },
      {
        id: a,
        name: '一号馆',
        children: [
          {
            id: a1,
            name: '瑜伽室',
            children: [{ id: a11, name: '东区', children: [{ id: a111, name: '靠窗', children: [] }] }],
          },
          { id: a2, name: '单车房', children: [] },
        ],
      },
    ]);
  });

  it('moves an area but refuses a cycle', async () => {
    const { client, factory } = env();
    const root = await factory.area({ name: '根' });
    const child = await factory.area({ name: '子', parentId: root.id });
    const grand = await factory.area({ name: '孙', parentId: child.id });
    const self = await client.call(`${API}/update/area`, { id: root.id, name: '根', parentId: root.id });
    expect([self.status, self.msg]).toEqual([400, '不能把场地移到它自己或它的下级场地之下']);
    const cyc = await client.call(`${API}/update/area`, { id: root.id, name: '根', parentId: grand.id });
    expect(cyc.status).toBe(400);
    await client.ok(`${API}/update/area`, { id: grand.id, name: '孙改', parentId: null });
    await client.ok(`${API}/update/area`, { id: root.id, name: '根', parentId: grand.id });
    const tree = await client.ok(`${API}/query/area/tree`);
    const top = tree.find((n: { id: number }) => n.id === grand.id);
    expect(top.name).toBe('孙改');
    expect(top.children[0].id).toBe(root.id);
    expect(top.children[0].children[0].id).toBe(child.id);
  });

  it('refuses deleting an area with children or live sessions; deletes it otherwise', async () => {
    const { client, factory, database } = env();
    const parent = await factory.area();
    await factory.area({ parentId: parent.id });
    const a = await client.call(`${API}/delete/area`, { id: parent.id });
    expect([a.status, a.msg]).toEqual([409, Msg.inUse('场地')]);
    const used = await factory.area();
    const s = await insertSession(database.db, factory, { areaId: used.id, startTime: '2020-01-01 09:00:00' });
    const b = await client.call(`${API}/delete/area`, { id: used.id });
    expect([b.status, b.msg]).toEqual([409, '场地正在使用中，无法删除']);
    await database.db.updateTable('timetable').set({ deleted: 1 }).where('id', '=', s.id).execute();
    await client.ok(`${API}/delete/area`, { id: used.id });
    const gone = await client.call(`${API}/delete/area`, { id: used.id });
    expect([gone.status, gone.msg]).toEqual([404, '场地不存在']);
  });

  it('validates in Chinese and keeps stores apart', async () => {
    const { client, other, database } = env();
    const a = await client.call(`${API}/insert/area`, { name: '' });
    expect([a.status, a.msg]).toEqual([400, '请输入场地名称']);
    const theirs = await other.factory.area({ name: '别店场地' });
    const b = await client.call(`${API}/insert/area`, { name: '挂到别店', parentId: theirs.id });
    expect([b.status, b.msg]).toEqual([404, '场地不存在']);
    for (const body of [
      { id: theirs.id, name: '改', parentId: null },
      { id: 777_777, name: '改', parentId: null },
    ]) {
      expect((await client.call(`${API}/update/area`, body)).status).toBe(404);
      expect((await client.call(`${API}/delete/area`, { id: body.id })).status).toBe(404);
    }
    const tree = JSON.stringify(await client.ok(`${API}/query/area/tree`));
    expect(tree).not.toContain('别店场地');
    const mine = await client.ok(`${API}/insert/area`, { name: '我的' });
    const c = await client.call(`${API}/update/area`, { id: mine.id, name: '我的', parentId: theirs.id });
    expect([c.status, c.msg]).toEqual([404, '场地不存在']);
    // Moving another store's venue (or one that does not exist) under one of ours: 404, nothing moves.
    for (const id of [theirs.id, 777_777]) {
      const d = await client.call(`${API}/update/area`, { id, name: '改', parentId: mine.id });
      expect([d.status, d.msg]).toEqual([404, '场地不存在']);
    }
    const under = await database.db.selectFrom('area').select(['id', 'name']).where('parentId', '=', mine.id).execute();
    expect(under).toEqual([]);
    const theirsNow = await database.db
      .selectFrom('area')
      .select(['name', 'parentId'])
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(theirsNow).toEqual({ name: '别店场地', parentId: null });
  });
});
