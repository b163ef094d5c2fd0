import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Msg } from '@studio/contract';
import { databaseUnavailable } from '../lib/db-errors.ts';
import { freshDatabase, PG_URL, REQUIRE_ALL } from '../../test/harness.ts';
import { openDatabase } from './index.ts';

const run = PG_URL || REQUIRE_ALL ? describe : describe.skip;

run('prepared statements on PostgreSQL (db/pg-prepared.ts)', () => {
  it('names data statements once per connection, and recovers after a table changed under one', async () => {
    const fresh = await freshDatabase('postgres');
    // One connection, so every statement below runs on the same one.
    const { db, close } = openDatabase({ url: PG_URL!, schema: fresh.schema, poolMax: 1 });
    try {
      const store = await db
        .insertInto('store')
        .values({ name: '门店', timezone: 'Asia/Shanghai', createdAt: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id } = await db
        .insertInto('teacher')
        .values({ storeId: store.id, name: '王老师', mobile: null, deleted: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const read = () => db.selectFrom('teacher').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect((await read()).name).toBe('王老师');
      expect((await read()).name).toBe('王老师');
      const prepared = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements
        where statement like 'select * from "teacher"%'`.execute(db);
      expect(prepared.rows[0].n).toBe(1);

      // A migration adds a column: the prepared `select *` fails once, as a retryable 503.
      await sql`alter table teacher add column extra text`.execute(db);
      const failure = await read().then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).not.toBeNull();
      const answer = databaseUnavailable(failure);
      expect([answer?.status, answer?.message]).toEqual([503, Msg.dbUnavailable]);
      // The next try is prepared afresh and sees the new column.
      const again = (await read()) as Record<string, unknown>;
      expect(again.name).toBe('王老师');
      expect(again).toHaveProperty('extra', null);
    } finally {
      await close();
      await fresh.close();
      await fresh.drop();
    }
  });
});
