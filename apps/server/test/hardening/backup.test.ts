// Online backup of the SQLite database while it is written to (`npm run backup`), then restore into
// a fresh place and over an existing database (`npm run restore`): scripts/db-backup.ts,
// scripts/db-restore.ts and apps/server/src/ops/backup.ts. The drill against the real server, on
// both databases, is ops/backup-drill.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createStoreWithAdmin } from '../../src/features/store-admin/public.ts';
import { backup, sqliteIntegrity } from '../../src/ops/backup.ts';
import { REPO_ROOT } from './server-process.ts';
import { scratchDir } from '../scratch.ts';

const run = promisify(execFile);
const script = (name: 'db-backup.ts' | 'db-restore.ts', args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', 'tsx', `scripts/${name}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', BACKUP_DIR: '', ...env },
  });

const count = (file: string, table: 'member' | 'member_card') => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('backup and restore of the SQLite database', () => {
  const dir = scratchDir('studio-backup-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(() => vi.useRealTimers());

  it('takes a consistent copy while writes go on, and restores it into a fresh directory', async () => {
    const liveDir = path.join(dir, 'live');
    const file = path.join(liveDir, 'studio.db');
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
    const backups = path.join(dir, 'backups');
    let out: { stdout: string };
    try {
      out = await script('db-backup.ts', ['--dir', backups], { DATA_DIR: liveDir });
    } finally {
      writing = false;
      await writer;
    }
    const after = n;
    w.close();
    expect(out.stdout).toContain('已备份');
    expect(out.stdout).toContain('integrity_check ok');
    expect(after).toBeGreaterThan(before);
    const files = fs.readdirSync(backups);
    expect(files).toEqual([expect.stringMatching(/^studio-\d{8}-\d{6}\.db$/)]);
    const dest = path.join(backups, files[0]);
    expect(sqliteIntegrity(dest)).toBe('ok');

    // Into a fresh directory: every row committed before the backup began, no torn transaction.
    const target = path.join(dir, 'restored', 'studio.db');
    const restored = await script('db-restore.ts', [dest, '--target', target]);
    expect(restored.stdout).toContain('已恢复');
    expect(restored.stdout).not.toContain('原数据库保留为');
    expect(sqliteIntegrity(target)).toBe('ok');
    const members = count(target, 'member');
    expect(members).toBeGreaterThanOrEqual(before);
    expect(members).toBeLessThanOrEqual(after);
    expect(count(target, 'member_card')).toBe(members);
    const r = new Database(target, { readonly: true });
    const first = r.prepare(`select name from member where name = '会员1'`).get();
    r.close();
    expect(first).toBeDefined();

    // Over the live database, which holds more: refused without --force, nothing touched.
    const liveBytes = fs.readFileSync(file);
    await expect(script('db-restore.ts', [dest], { DATA_DIR: liveDir })).rejects.toThrow(/--force/);
    expect(fs.readFileSync(file).equals(liveBytes)).toBe(true);
    expect(fs.readdirSync(liveDir).some((f) => f.includes('before-restore'))).toBe(false);

    // With --force the backup replaces it, and the database it replaces is kept beside it, whole.
    const forced = await script('db-restore.ts', [dest, '--force'], { DATA_DIR: liveDir });
    expect(forced.stdout).toContain('原数据库保留为');
    const kept = fs.readdirSync(liveDir).filter((f) => /^studio\.db\.before-restore-\d{8}-\d{6}$/.test(f));
    expect(kept).toHaveLength(1);
    const keptFile = path.join(liveDir, kept[0]);
    expect(sqliteIntegrity(keptFile)).toBe('ok');
    expect(count(keptFile, 'member')).toBe(after);
    expect(count(file, 'member')).toBe(members);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a damaged backup, before touching the target even with --force', async () => {
    const bad = path.join(dir, 'bad.db');
    fs.writeFileSync(bad, 'this is not a database');
    const fresh = path.join(dir, 'x', 'studio.db');
    await expect(script('db-restore.ts', [bad, '--target', fresh])).rejects.toThrow(/备份文件已损坏/);
    expect(fs.existsSync(fresh)).toBe(false);

    const existing = path.join(dir, 'y', 'studio.db');
    fs.mkdirSync(path.dirname(existing));
    const db = new Database(existing);
    db.exec(`create table t (x integer); insert into t values (1)`);
    db.close();
    const bytes = fs.readFileSync(existing);
    await expect(script('db-restore.ts', [bad, '--target', existing, '--force'])).rejects.toThrow(/备份文件已损坏/);
    expect(fs.readFileSync(existing).equals(bytes)).toBe(true);
    expect(fs.readdirSync(path.dirname(existing))).toEqual(['studio.db']);
  });

  it('never writes over an existing backup: a second one in the same second gets its own name', async () => {
    const source = path.join(dir, 'z', 'studio.db');
    fs.mkdirSync(path.dirname(source));
    const db = new Database(source);
    db.exec(`create table t (x integer); insert into t values (1)`);
    db.close();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T14:22:33Z'));
    const into = path.join(dir, 'z-backups');
    const one = await backup({ kind: 'sqlite', file: source }, into);
    const firstBytes = fs.readFileSync(one);
    const two = await backup({ kind: 'sqlite', file: source }, into);
    expect(path.basename(one)).toBe('studio-20260301-142233.db');
    expect(path.basename(two)).toBe('studio-20260301-142233-2.db');
    expect(fs.readFileSync(one).equals(firstBytes)).toBe(true);
    expect(sqliteIntegrity(two)).toBe('ok');
  });
});
