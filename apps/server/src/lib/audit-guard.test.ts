import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { audit, auditedBody, scopedDb, systemScope, UnsaidChange, type AuditScope } from './audit.ts';

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

  it("refuses to commit a call's change its service did not describe (no kind said)", async () => {
    const { id: storeId } = await h.db
      .insertInto('store')
      .values({ name: '审计店', timezone: 'Asia/Shanghai', logoFileId: null, qrCode: null, createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const callScope = (): AuditScope => ({
      actor: { kind: 'staff', staffId: 1, name: '测试' },
      call: '/store/api/test/call',
      storeId,
      defaults: { summary: '测试' },
      note: {},
      written: 0,
    });
    const unsaid = callScope();
    await expect(
      h.db.transaction().execute((tx) =>
        auditedBody(unsaid, tx, async () => {
          await tx.updateTable('store').set({ name: '改名' }).where('id', '=', storeId).execute();
        }),
      ),
    ).rejects.toThrow(UnsaidChange);
    const said = callScope();
    await h.db.transaction().execute((tx) =>
      auditedBody(said, tx, async () => {
        audit(tx, { kind: 'settings', target: '门店名称' });
      }),
    );
    expect(said.written).toBe(1);
    // The unsaid change was rolled back with its transaction.
    const row = await h.db.selectFrom('store').select('name').where('id', '=', storeId).executeTakeFirstOrThrow();
    expect(row.name).toBe('审计店');
  });
});
