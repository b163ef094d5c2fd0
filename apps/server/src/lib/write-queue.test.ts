import { expect, it } from 'vitest';
import { describeEachDb } from '../../test/harness.ts';
import { inWriteTx } from './write-queue.ts';

describeEachDb('write transactions (group commit on SQLite)', (env) => {
  it('keeps the writes of the calls that succeed and drops those of a call that fails', async () => {
    const { database, storeId } = env();
    const add = (name: string, fail = false) =>
      inWriteTx(database.db, database.dialect, async (tx) => {
        await tx.insertInto('area').values({ storeId, name, parentId: null, sort: 0 }).execute();
        if (fail) throw new Error(`refused ${name}`);
        return name;
      });
    const results = await Promise.allSettled([
      add('甲区'),
      add('乙区', true),
      add('丙区'),
      add('丁区', true),
      add('戊区'),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      '甲区',
      'refused 乙区',
      '丙区',
      'refused 丁区',
      '戊区',
    ]);
    const names = await database.db
      .selectFrom('area')
      .select('name')
      .where('storeId', '=', storeId)
      .orderBy('name')
      .execute();
    expect(names.map((n) => n.name).sort()).toEqual(['丙区', '戊区', '甲区'].sort());
  });

  it('lets a later call of a group see the writes of an earlier one', async () => {
    const { database, storeId } = env();
    const count = () =>
      inWriteTx(database.db, database.dialect, async (tx) => {
        await tx.insertInto('area').values({ storeId, name: '计数', parentId: null, sort: 0 }).execute();
        const rows = await tx.selectFrom('area').select('id').where('name', '=', '计数').execute();
        return rows.length;
      });
    const seen = await Promise.all([count(), count(), count()]);
    expect(seen.sort()).toEqual([1, 2, 3]);
  });
});
