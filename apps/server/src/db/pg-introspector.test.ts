import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshDatabase, PG_URL, REQUIRE_ALL } from '../../test/harness.ts';
import { migrateToLatest } from './migrate.ts';

const run = PG_URL || REQUIRE_ALL ? describe : describe.skip;

/** Makes `n` schemas of another test file, each with a table of a serial column; answers their names. */
async function otherSchemas(admin: pg.Client, n: number): Promise<string[]> {
  const names = Array.from({ length: n }, (_, i) => `t_other_${process.pid}_${Date.now()}_${i}`);
  for (const s of names)
    await admin.query(`create schema ${s}; create table ${s}.booking (id serial primary key, v text)`);
  return names;
}

run("the migrator reads the connection's own schema only (db/pg-introspector.ts)", () => {
  it('lists the tables of its schema, none of another, with their columns', async () => {
    const fresh = await freshDatabase('postgres');
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const others = await otherSchemas(admin, 2);
    try {
      const tables = await fresh.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([fresh.schema]));
      const names = tables.map((t) => t.name);
      expect(names).toContain('kysely_migration');
      expect(names).toContain('reservation');
      expect(names).not.toContain('booking');
      const store = tables.find((t) => t.name === 'store')!;
      const id = store.columns.find((c) => c.name === 'id')!;
      expect(id.isAutoIncrementing || id.hasDefaultValue).toBe(true);
      expect(id.isNullable).toBe(false);
      const visible = await fresh.db.introspection.getTables();
      expect(visible.map((t) => t.name)).not.toContain('kysely_migration');
    } finally {
      for (const s of others) await admin.query(`drop schema ${s} cascade`);
      await admin.end();
      await fresh.close();
      await fresh.drop();
    }
  });

  it('migrates and reads its tables while other schemas are dropped, as the suites do two files at a time', async () => {
    const fresh = await freshDatabase('postgres');
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const others = await otherSchemas(admin, 40);
    // Kysely's own introspector failed here with "schema t_other_… does not exist" (5 times in 40 drops).
    const failures: string[] = [];
    let dropping = true;
    const drops = (async () => {
      for (const s of others) await admin.query(`drop schema ${s} cascade`);
      dropping = false;
    })();
    try {
      while (dropping) {
        await Promise.all([
          fresh.db.introspection.getTables({ withInternalKyselyTables: true }).catch((e: Error) => {
            failures.push(e.message);
          }),
          migrateToLatest(fresh.db, 'postgres').catch((e: Error) => {
            failures.push(e.message);
          }),
        ]);
      }
      await drops;
      expect(failures).toEqual([]);
      const left = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_namespace where nspname like ${'t_other_' + process.pid + '%'}`.execute(
        fresh.db,
      );
      expect(left.rows[0].n).toBe(0);
    } finally {
      await admin.end();
      await fresh.close();
      await fresh.drop();
    }
  });
});
