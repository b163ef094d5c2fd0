import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabase, PG_URL, REQUIRE_ALL } from '../../test/harness.ts';
import { openDatabase, type Db } from './index.ts';
import { pgSends, READ_MARK, WITH_NEXT } from './pg-pipeline.ts';

const run = PG_URL || REQUIRE_ALL ? describe : describe.skip;

/** An insert into the test's table, held to go with the next statement. */
const held = (id: number, v: string | null) =>
  CompiledQuery.raw(`${WITH_NEXT}insert into t (id, v) values ($1, $2)`, [id, v]);
const read = CompiledQuery.raw(`${READ_MARK}select count(*)::int as n from t`, []);
const insert = (id: number, v: string | null) => CompiledQuery.raw('insert into t (id, v) values ($1, $2)', [id, v]);
const ids = async (db: Db) =>
  (await sql<{ id: number }>`select id from t order by id`.execute(db)).rows.map((r) => r.id);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
  );

run('fewer round trips per transaction on PostgreSQL (db/pg-pipeline.ts)', () => {
  const withDb = async (fn: (db: Db) => Promise<void>) => {
    const fresh = await freshDatabase('postgres');
    // One connection: every transaction below runs on the same one, after the failures before it.
    const { db, close } = openDatabase({ url: PG_URL!, schema: fresh.schema, poolMax: 1 });
    try {
      await sql`create table t (id integer primary key, v text not null)`.execute(db);
      await fn(db);
    } finally {
      await close();
      await fresh.close();
      await fresh.drop();
    }
  };

  it('sends BEGIN with the first statement and a held write with the COMMIT: three writes, all committed', () =>
    withDb(async (db) => {
      const before = pgSends();
      await db.transaction().execute(async (tx) => {
        expect((await sql<{ n: number }>`select count(*)::int as n from t`.execute(tx)).rows[0].n).toBe(0);
        await tx.executeQuery(insert(1, 'a'));
        await tx.executeQuery(held(2, 'b'));
      });
      // BEGIN + the count, the insert, the held insert + COMMIT.
      expect(pgSends() - before).toBe(3);
      expect(await ids(db)).toEqual([1, 2]);
    }));

  it('a transaction that sends nothing sends neither BEGIN nor COMMIT, and one that fails before sending, no ROLLBACK', () =>
    withDb(async (db) => {
      const before = pgSends();
      await db.transaction().execute(async () => undefined);
      await expect(
        db.transaction().execute(async () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(pgSends() - before).toBe(0);
      // A held write rolled back before it was sent is never sent.
      await expect(
        db.transaction().execute(async (tx) => {
          await tx.executeQuery(held(3, 'c'));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(pgSends() - before).toBe(0);
      expect(await ids(db)).toEqual([]);
    }));

  it('a held write that fails fails the next statement with its own error, and nothing is committed', () =>
    withDb(async (db) => {
      const seen = await failure(
        db.transaction().execute(async (tx) => {
          await tx.executeQuery(insert(1, 'a'));
          await tx.executeQuery(held(2, null));
          await tx.executeQuery(insert(3, 'c'));
        }),
      );
      // 23502: the held insert's NOT NULL, not 25P02 (the transaction aborted) of the statement after it.
      expect(seen?.code).toBe('23502');
      expect(await ids(db)).toEqual([]);
      // The connection is clean for the next transaction.
      await db.transaction().execute(async (tx) => {
        await tx.executeQuery(insert(4, 'd'));
      });
      expect(await ids(db)).toEqual([4]);
    }));

  it('a held write that fails fails the COMMIT with its own error, and nothing is committed', () =>
    withDb(async (db) => {
      const seen = await failure(
        db.transaction().execute(async (tx) => {
          await tx.executeQuery(insert(1, 'a'));
          await tx.executeQuery(held(1, 'again'));
        }),
      );
      expect(seen?.code).toBe('23505');
      expect(await ids(db)).toEqual([]);
      await db.transaction().execute(async (tx) => {
        await tx.executeQuery(held(5, 'e'));
      });
      expect(await ids(db)).toEqual([5]);
    }));

  it('a failing first statement rolls back; a held write outside a transaction is sent at once', () =>
    withDb(async (db) => {
      const seen = await failure(
        db.transaction().execute(async (tx) => {
          await tx.executeQuery(insert(1, null));
        }),
      );
      expect(seen?.code).toBe('23502');
      await db.executeQuery(held(6, 'f'));
      expect(await ids(db)).toEqual([6]);
    }));

  it('plain reads before anything else go without BEGIN: a transaction that only read sends no BEGIN and no ROLLBACK', () =>
    withDb(async (db) => {
      let before = pgSends();
      await expect(
        db.transaction().execute(async (tx) => {
          expect((await tx.executeQuery<{ n: number }>(read)).rows[0].n).toBe(0);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(pgSends() - before).toBe(1);
      // A write after the read opens the transaction: BEGIN goes with it, the read after it is inside.
      before = pgSends();
      await db.transaction().execute(async (tx) => {
        await tx.executeQuery(read);
        await tx.executeQuery(insert(7, 'g'));
        expect((await tx.executeQuery<{ n: number }>(read)).rows[0].n).toBe(1);
      });
      // The read; BEGIN + the insert; the read; COMMIT.
      expect(pgSends() - before).toBe(4);
      expect(await ids(db)).toEqual([7]);
      // A read after a held write goes with it, inside the transaction, and sees it.
      await db.transaction().execute(async (tx) => {
        await tx.executeQuery(held(8, 'h'));
        expect((await tx.executeQuery<{ n: number }>(read)).rows[0].n).toBe(2);
      });
    }));
});
