import { sql } from 'kysely';
import { expect, it, vi } from 'vitest';
import { describeEachDb } from '../../test/harness.ts';
import { fixed, mapRead, noRead, readTogether } from './fixed.ts';
import type { Db } from './index.ts';

/** New venues of a store, by name; answers their ids in order. */
async function newAreas(db: Db, storeId: number, names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const row = await db
      .insertInto('area')
      .values({ storeId, name, parentId: null, sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

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
    const ids = await newAreas(db, storeId, ['一区', '二区', '三区']);
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

  it('sends reads said to go together as one statement on PostgreSQL, each answering what it answers alone', async () => {
    const { database, storeId, dialect } = env();
    const db = database.db;
    const count = fixed((ex, p: { storeId: number }) =>
      ex
        .selectFrom('area')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('storeId', '=', p.storeId),
    );
    const locked = fixed((ex, p: { id: number }) =>
      ex.selectFrom('area').select('id').where('id', '=', p.id).forUpdate(),
    );
    const ids = await newAreas(db, storeId, ['东区', '西区']);
    const inStore = (await db.selectFrom('area').select('id').where('storeId', '=', storeId).execute()).length;
    await db.transaction().execute(async (tx) => {
      const sent = vi.spyOn(tx, 'executeQuery');
      const { all, one, none, n, nothing } = await readTogether(tx, {
        all: areas.plan(tx, { storeId, ids, name: undefined }),
        one: mapRead(areas.plan(tx, { storeId, ids: [ids[1]], name: '西区' }), (rows) => rows[0]),
        none: mapRead(areas.plan(tx, { storeId, ids: [-1], name: undefined }), (rows) => rows[0]),
        n: mapRead(count.plan(tx, { storeId }), (rows) => Number(rows[0].n)),
        nothing: noRead('无'),
      });
      expect(all).toEqual([
        { id: ids[0], name: '东区' },
        { id: ids[1], name: '西区' },
      ]);
      expect(one).toEqual({ id: ids[1], name: '西区' });
      expect(none).toBeUndefined();
      expect(n).toBe(inStore);
      expect(nothing).toBe('无');
      const first = sent.mock.calls[0][0] as { sql: string; parameters: readonly unknown[] };
      if (dialect === 'postgres') {
        // One statement with the four reads' values in order; the suites then run each alone to compare.
        // Marked a plain read (db/pg-pipeline.ts: it may go before BEGIN).
        expect(first.sql).toMatch(/^\/\* plain read \*\/ select \(select coalesce\(json_agg/);
        expect(first.sql.match(/json_agg/g)).toHaveLength(4);
        expect(first.parameters).toEqual([storeId, ...ids, storeId, ids[1], '西区', storeId, -1, storeId]);
      } else {
        expect(sent.mock.calls.some(([q]) => /json_agg/.test((q as { sql: string }).sql))).toBe(false);
        expect(sent).toHaveBeenCalledTimes(4);
      }
      sent.mockClear();
      // Reads started together without saying so go one by one, as they are written.
      await Promise.all([areas.all(tx, { storeId, ids, name: undefined }), count.first(tx, { storeId })]);
      expect(sent.mock.calls.some(([q]) => /json_agg/.test((q as { sql: string }).sql))).toBe(false);
      expect(sent).toHaveBeenCalledTimes(2);
      // A read that locks rows cannot be sent with others.
      expect(() => locked.plan(tx, { id: ids[0] })).toThrow(/only a plain read/);
    });
  });

  it('refuses, in order, the first read whose value refuses', async () => {
    const { database, storeId } = env();
    const must = (what: string) => (rows: unknown[]) => {
      if (!rows.length) throw new Error(`${what}不存在`);
      return rows[0];
    };
    await expect(
      readTogether(database.db, {
        a: mapRead(areas.plan(database.db, { storeId, ids: [-1], name: undefined }), must('甲')),
        b: mapRead(areas.plan(database.db, { storeId, ids: [-2], name: undefined }), must('乙')),
      }),
    ).rejects.toThrow('甲不存在');
  });

  it('fails the reads sent together when the statement fails, and the transaction with them', async () => {
    const { database, storeId, dialect } = env();
    const bad = fixed((ex, p: { n: string }) =>
      ex
        .selectFrom('area')
        .select('id')
        .where('id', '=', p.n as unknown as number),
    );
    const reads = database.db.transaction().execute((tx) =>
      readTogether(tx, {
        good: areas.plan(tx, { storeId, ids: [-1], name: undefined }),
        bad: bad.plan(tx, { n: 'not a number' }),
      }),
    );
    if (dialect === 'postgres') await expect(reads).rejects.toThrow();
    else await expect(reads).resolves.toEqual({ good: [], bad: [] });
  });

  it('refuses, in the suites, a read whose values JSON would change (a timestamp comes back as a string)', async () => {
    const { database, storeId, dialect } = env();
    if (dialect !== 'postgres') return;
    const clock = fixed((_ex, _p: Record<string, never>) => sql<{ at: Date }>`select now() as at`);
    await expect(
      readTogether(database.db, {
        at: clock.plan(database.db, {}),
        areas: areas.plan(database.db, { storeId, ids: [1], name: undefined }),
      }),
    ).rejects.toThrow(/other columns or kinds of values/);
  });
});
