import { expect, it } from 'vitest';
import { describeEachDb } from '../test/harness.ts';
import { fixed } from './fixed.ts';

describeEachDb('fixed statements', (env) => {
  const areas = fixed((ex, p: { storeId: number; ids: number[]; name: string | undefined }) =>
    ex
      .selectFrom('area')
      .select(['id', 'name'])
      .where('storeId', '=', p.storeId)
      .where('id', 'in', p.ids)
      .$if(p.name !== undefined, (q) => q.where('name', '=', p.name!))
      .orderBy('id'),
  );
  const rename = fixed((ex, p: { id: number; name: string }) =>
    ex.updateTable('area').set({ name: p.name }).where('id', '=', p.id),
  );

  it('answers what Kysely answers for each set of values, lists of any length and options left out', async () => {
    const { database, storeId, other } = env();
    const db = database.db;
    const ids: number[] = [];
    for (const name of ['一区', '二区', '三区']) {
      const row = await db
        .insertInto('area')
        .values({ storeId, name, parentId: null, sort: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    expect(await areas.all(db, { storeId, ids, name: undefined })).toEqual([
      { id: ids[0], name: '一区' },
      { id: ids[1], name: '二区' },
      { id: ids[2], name: '三区' },
    ]);
    expect(await areas.all(db, { storeId, ids: [ids[2]], name: undefined })).toEqual([{ id: ids[2], name: '三区' }]);
    expect(await areas.all(db, { storeId, ids, name: '二区' })).toEqual([{ id: ids[1], name: '二区' }]);
    expect(await areas.all(db, { storeId: other.storeId, ids, name: undefined })).toEqual([]);
    // Longer lists than a statement of their own is worth are built as usual.
    const many = [...ids, ...Array.from({ length: 40 }, (_, i) => -1 - i)];
    expect((await areas.all(db, { storeId, ids: many, name: undefined })).length).toBe(3);
    expect(await areas.first(db, { storeId, ids, name: '三区' })).toEqual({ id: ids[2], name: '三区' });

    expect(await rename.run(db, { id: ids[0], name: '甲区' })).toBe(1);
    expect(await rename.run(db, { id: -5, name: '乙区' })).toBe(0);
    expect(await areas.first(db, { storeId, ids: [ids[0]], name: undefined })).toEqual({ id: ids[0], name: '甲区' });
  });

  it('refuses, in the suites, a builder whose statement depends on a value rather than on its shape', async () => {
    const { database, storeId } = env();
    const wrong = fixed((ex, p: { storeId: number; limit: number }) =>
      ex
        .selectFrom('area')
        .select('id')
        .where('storeId', '=', p.storeId)
        .$if(typeof p.limit === 'number' && p.limit > 5, (q) => q.limit(p.limit)),
    );
    await expect(wrong.all(database.db, { storeId, limit: 10 })).rejects.toThrow(/depends on its values/);
  });
});
