// Online backup of the SQLite database while it is written to, then restore into a fresh place.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createStoreWithAdmin } from '../db/seed/store.ts';
import { integrityCheck } from '../../../../scripts/backup.ts';
import { REPO_ROOT } from './server-process.ts';

const run = promisify(execFile);
const script = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', ...args], { cwd: REPO_ROOT });

describe('backup and restore of the SQLite database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-backup-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes a consistent copy while writes go on, and restores it into a fresh directory', async () => {
    const file = path.join(dir, 'live', 'studio.db');
    const handle = openDatabase({ file });
    await migrateToLatest(handle.db, 'sqlite');
    const { storeId } = await createStoreWithAdmin(handle.db, {
      storeName: '备份门店',
      admin: { username: 'backup-admin', password: 'backup-pass-1', name: '备' },
    });
    await handle.close();

    // A second process-like writer: its own connection, one member and its card per transaction.
    const w = new Database(file);
    w.pragma('journal_mode = WAL');
    w.pragma('busy_timeout = 5000');
    const product = w
      .prepare(
        `insert into card_product (store_id, card_name, big_type, card_type, per_count, price, enabled, deleted)
         values (?, '备份卡', 1, 2, 1, 100, 1, 0) returning id`,
      )
      .get(storeId) as { id: number };
    const addMember = w.prepare(
      `insert into member (store_id, name, mobile, gender, created_at) values (?, ?, ?, 1, '2026-01-01 00:00:00') returning id`,
    );
    const addCard = w.prepare(
      `insert into member_card (store_id, member_id, card_id, total_count, used_count, frozen, created_at)
       values (?, ?, ?, 10, 0, 0, '2026-01-01 00:00:00')`,
    );
    let n = 0;
    const writeOne = w.transaction(() => {
      n += 1;
      const m = addMember.get(storeId, `会员${n}`, `1${String(3_000_000_000 + n)}`) as { id: number };
      addCard.run(storeId, m.id, product.id);
    });
    for (let i = 0; i < 2000; i++) writeOne();
    const before = n;

    let writing = true;
    const writer = (async () => {
      while (writing) {
        for (let i = 0; i < 50; i++) writeOne();
        await new Promise((r) => setImmediate(r));
      }
    })();
    const dest = path.join(dir, 'backups', 'studio-test.db');
    const out = await script(dest, '--db', file);
    writing = false;
    await writer;
    const after = n;
    w.close();
    expect(out.stdout).toContain('integrity_check ok');
    expect(after).toBeGreaterThan(before);

    const target = path.join(dir, 'restored', 'studio.db');
    await script('--restore', dest, '--db', target);
    expect(integrityCheck(target)).toBe('ok');
    const r = new Database(target, { readonly: true });
    const members = (r.prepare('select count(*) as n from member').get() as { n: number }).n;
    const cards = (r.prepare('select count(*) as n from member_card').get() as { n: number }).n;
    const first = r.prepare(`select name from member where name = '会员1'`).get();
    r.close();
    expect(members).toBeGreaterThanOrEqual(before);
    expect(members).toBeLessThanOrEqual(after);
    expect(cards).toBe(members);
    expect(first).toBeDefined();

    // Restoring over an existing database keeps the old one beside it.
    const again = await script('--restore', dest, '--db', target);
    expect(again.stdout).toContain('原数据库保留为');
    expect(fs.readdirSync(path.dirname(target)).some((f) => f.includes('before-restore'))).toBe(true);
  });

  it('refuses a damaged backup and an existing destination', async () => {
    const bad = path.join(dir, 'bad.db');
    fs.writeFileSync(bad, 'this is not a database');
    await expect(script('--restore', bad, '--db', path.join(dir, 'x', 'studio.db'))).rejects.toThrow();
    expect(fs.existsSync(path.join(dir, 'x', 'studio.db'))).toBe(false);
    await expect(script(bad, '--db', bad)).rejects.toThrow(/备份文件已存在/);
  });
});
