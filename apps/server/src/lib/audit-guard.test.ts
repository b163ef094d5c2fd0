import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { scopedDb, systemScope } from './audit.ts';

// The suites run with AUDIT_STRICT=1 (vitest.config.ts): a call's business write outside an audited
// transaction throws, bookkeeping tables excepted. Table names reach the guard as the code spells
// them (camelCase); db/snake-case.ts renames them only when printing SQL.
describe('[sqlite] audit guard', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = openDatabase({ file: ':memory:' });
    await migrateToLatest(h.db, 'sqlite');
  });
  afterAll(() => h.close());

  it('refuses a business write outside an audited transaction', async () => {
    expect(process.env.AUDIT_STRICT).toBe('1');
    const db = scopedDb(h.db, systemScope('测试', 'guard.test', 'settings', 1));
    await expect(db.updateTable('store').set({ name: 'x' }).where('id', '=', 1).execute()).rejects.toThrow(
      /write to store outside an audited transaction \(guard\.test\)/,
    );
    await expect(db.deleteFrom('memberCard').where('id', '=', 1).execute()).rejects.toThrow(/write to memberCard/);
  });

  it('lets bookkeeping writes through', async () => {
    const db = scopedDb(h.db, systemScope('测试', 'guard.test', 'settings', 1));
    await expect(db.deleteFrom('httpSession').where('id', '=', 'none').execute()).resolves.toBeDefined();
    await expect(db.deleteFrom('outbox').where('id', '=', 0).execute()).resolves.toBeDefined();
  });
});
