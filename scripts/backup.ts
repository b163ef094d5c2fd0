// Online backup and restore of the embedded SQLite database.
//
//   node --import tsx scripts/backup.ts [dest]            consistent copy while the server runs
//   node --import tsx scripts/backup.ts --restore <file>  put a backup back (stop the server first)
//
// The database is DATA_DIR/studio.db (DATA_DIR defaults to ./data, as for the server); `--db <file>`
// names another one. The backup goes to data/backups/studio-<timestamp>.db unless `dest` is given.
// PostgreSQL: use pg_dump / pg_restore instead (docs/hardening.md).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

/** Copies a live database page by page through SQLite's backup API; consistent even under writes. */
export async function backupDatabase(source: string, dest: string): Promise<{ pages: number }> {
  if (!fs.existsSync(source)) throw new Error(`没有找到数据库文件: ${source}`);
  if (fs.existsSync(dest)) throw new Error(`备份文件已存在: ${dest}`);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    // Copy everything in one step: a step holds a read transaction, so the copy is one snapshot
    // and writers in other processes (WAL mode) are never blocked nor restart the backup.
    const progress = await db.backup(dest, { progress: () => 0x7fffffff });
    return { pages: progress.totalPages };
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` of a database file: 'ok' when sound. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join(', ');
  } finally {
    db.close();
  }
}

/**
 * Replaces `target` by the backup `file` (the server must be stopped). The backup is checked first;
 * the database it replaces is kept beside it as `<target>.before-restore-<timestamp>`.
 */
export function restoreDatabase(file: string, target: string): { kept?: string } {
  const check = integrityCheck(file);
  if (check !== 'ok') throw new Error(`备份文件已损坏: ${check}`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let kept: string | undefined;
  if (fs.existsSync(target)) {
    kept = `${target}.before-restore-${stamp()}`;
    // Fold the WAL into the old file so that the kept copy is complete on its own.
    const old = new Database(target);
    old.pragma('wal_checkpoint(TRUNCATE)');
    old.close();
    fs.renameSync(target, kept);
  }
  for (const ext of ['-wal', '-shm']) fs.rmSync(`${target}${ext}`, { force: true });
  fs.copyFileSync(file, `${target}.restoring`);
  fs.renameSync(`${target}.restoring`, target);
  return { kept };
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  const take = (flag: string) => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    const v = args[i + 1];
    if (!v) throw new Error(`${flag} 需要一个文件名`);
    args.splice(i, 2);
    return v;
  };
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const db = path.resolve(take('--db') ?? path.join(dataDir, 'studio.db'));
  const restore = take('--restore');
  if (restore) {
    const { kept } = restoreDatabase(path.resolve(restore), db);
    console.log(`已恢复: ${restore} -> ${db}${kept ? `\n原数据库保留为: ${kept}` : ''}`);
    return;
  }
  const dest = path.resolve(args[0] ?? path.join(dataDir, 'backups', `studio-${stamp()}.db`));
  const { pages } = await backupDatabase(db, dest);
  const check = integrityCheck(dest);
  if (check !== 'ok') throw new Error(`备份校验失败: ${check}`);
  console.log(`已备份: ${db} -> ${dest} (${pages} 页, integrity_check ok)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e: Error) => {
    console.error(e.message);
    process.exit(1);
  });
}
