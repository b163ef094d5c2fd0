// Backup and restore of the store's database, for `npm run backup` / `npm run restore`
// (scripts/db-backup.ts, scripts/db-restore.ts): SQLite through its online backup API, PostgreSQL
// through pg_dump -Fc / pg_restore. Both run while the server takes writes; a backup is one
// consistent snapshot (SQLite: one read transaction; pg_dump: one repeatable-read transaction).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

const run = promisify(execFile);

/** `20260301-142233`: sorts by time, safe in file names. */
export const backupStamp = (d = new Date()) =>
  d.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

export type Target = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Where the server keeps its data: DATABASE_URL's PostgreSQL, else DATA_DIR/studio.db. */
export function targetOf(o: { databaseUrl?: string; dataDir: string }): Target {
  return o.databaseUrl
    ? { kind: 'postgres', url: o.databaseUrl }
    : { kind: 'sqlite', file: path.join(o.dataDir, 'studio.db') };
}

/** A target named on the command line: a postgres:// URL or a SQLite file. */
export function parseTarget(text: string): Target {
  return /^postgres(ql)?:\/\//.test(text)
    ? { kind: 'postgres', url: text }
    : { kind: 'sqlite', file: path.resolve(text) };
}

/**
 * `PRAGMA integrity_check` of a SQLite file: 'ok' when sound, else what is wrong (also for a file
 * that is no database at all: 'file is not a database').
 */
export function sqliteIntegrity(file: string): string {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join(', ');
  } catch (err) {
    return (err as Error).message;
  } finally {
    db.close();
  }
}

/**
 * Writes a timestamped backup of `source` into `dir` and answers its path: `studio-<stamp>.db`
 * (SQLite, checked with integrity_check) or `studio-<stamp>.dump` (pg_dump's custom format).
 */
export async function backup(source: Target, dir: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = backupStamp();
  if (source.kind === 'sqlite') {
    if (!fs.existsSync(source.file)) throw new Error(`没有找到数据库文件: ${source.file}`);
    const dest = freeName(dir, `studio-${stamp}`, '.db');
    const db = new SqliteDatabase(source.file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      // All pages in one step: one read transaction, so one snapshot, and the server's writes
      // (WAL) neither wait for it nor make it start over.
      await db.backup(dest, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    // The copy carries the source's WAL mode: switch it back to a rollback journal so the backup
    // is one self-contained file that opening it does not add -wal/-shm files to.
    const copy = new SqliteDatabase(dest, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const check = sqliteIntegrity(dest);
    if (check !== 'ok') throw new Error(`备份校验失败: ${check}`);
    return dest;
  }
  const dest = freeName(dir, `studio-${stamp}`, '.dump');
  const partial = `${dest}.partial`;
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', '--file', partial, '--dbname', source.url], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw new Error(`pg_dump 失败: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`);
  }
  fs.renameSync(partial, dest);
  return dest;
}

/** Whether a target holds data: a SQLite file with any table, a PostgreSQL database with any table of its own. */
export async function targetHasData(target: Target): Promise<boolean> {
  if (target.kind === 'sqlite') {
    if (!fs.existsSync(target.file) || fs.statSync(target.file).size === 0) return false;
    const db = new SqliteDatabase(target.file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`select 1 from sqlite_master where type = 'table' limit 1`).get() !== undefined;
    } catch {
      return true; // unreadable (damaged) yet not empty: replaced only with --force
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    const r = await c.query(
      `select 1 from pg_tables where schemaname not in ('pg_catalog', 'information_schema') limit 1`,
    );
    return (r.rowCount ?? 0) > 0;
  } finally {
    await c.end();
  }
}

/**
 * Puts the backup `file` into `target` (the server on that target must be stopped). A SQLite backup
 * is checked with integrity_check first, and nothing is touched when it fails. A target that
 * already holds data is refused unless `force`; with `force`, a SQLite file is kept beside as
 * `<file>.before-restore-<stamp>` (never deleted), and a PostgreSQL database has the backup's
 * objects dropped first.
 */
export async function restore(file: string, target: Target, o: { force?: boolean } = {}): Promise<{ kept?: string }> {
  if (!fs.existsSync(file)) throw new Error(`没有找到备份文件: ${file}`);
  if (target.kind === 'sqlite') {
    const check = sqliteIntegrity(file);
    if (check !== 'ok') throw new Error(`备份文件已损坏: ${check}`);
  }
  if (!o.force && (await targetHasData(target))) {
    throw new Error(`目标数据库已有数据，未恢复: ${describeTarget(target)}（确认覆盖请加 --force）`);
  }
  if (target.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    let kept: string | undefined;
    if (fs.existsSync(target.file)) {
      // A free name: two restores in one second must not put the second kept file over the first.
      kept = freeName(path.dirname(target.file), `${path.basename(target.file)}.before-restore-${backupStamp()}`, '');
      // Fold the WAL into the old file so that the kept copy is complete on its own. A file that is
      // no SQLite database is not opened (closing it would delete its -wal), and one that fails
      // the checkpoint is kept as it is: either way with its -wal/-shm files moved beside it.
      if (isSqliteFile(target.file)) {
        const old = new SqliteDatabase(target.file);
        try {
          old.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          // kept as it is
        } finally {
          old.close();
        }
      }
      fs.renameSync(target.file, kept);
      for (const ext of ['-wal', '-shm']) {
        if (fs.existsSync(`${target.file}${ext}`)) fs.renameSync(`${target.file}${ext}`, `${kept}${ext}`);
      }
    }
    for (const ext of ['-wal', '-shm']) fs.rmSync(`${target.file}${ext}`, { force: true });
    fs.copyFileSync(file, `${target.file}.restoring`);
    fs.renameSync(`${target.file}.restoring`, target.file);
    return { kept };
  }
  const args = ['--no-owner', '--exit-on-error', '--single-transaction', '--dbname', target.url];
  if (o.force) args.push('--clean', '--if-exists');
  try {
    await run('pg_restore', [...args, file], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    throw new Error(`pg_restore 失败: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`);
  }
  return {};
}

/** A target for messages: the file, or the URL without its password. */
export function describeTarget(t: Target): string {
  if (t.kind === 'sqlite') return t.file;
  try {
    const u = new URL(t.url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'PostgreSQL';
  }
}

/** Whether a file starts with SQLite's header. */
function isSqliteFile(file: string): boolean {
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === 'SQLite format 3\0';
  } finally {
    fs.closeSync(fd);
  }
}

/** `<dir>/<base><ext>`, or `<base>-2<ext>`, ... when taken (two backups or restores in one second). */
function freeName(dir: string, base: string, ext: string): string {
  for (let n = 1; ; n++) {
    const p = path.join(dir, `${n === 1 ? base : `${base}-${n}`}${ext}`);
    if (!fs.existsSync(p)) return p;
  }
}
