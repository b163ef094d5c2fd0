import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { DbHandle } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedIfEmpty, type SeedResult } from './seed/index.ts';

/** The advisory lock key of start-up work (`hashtext` of this and the schema: one lock per schema). */
const STARTUP_LOCK = 'studio-startup';

/**
 * Migrates and, on an empty database, loads the first-run seed. On PostgreSQL several instances
 * may start at once on one empty database: the whole step runs under a session advisory lock on
 * one connection, so one instance does it and the others wait, then find the schema current and a
 * store present and go on. The lock goes with the connection if the process dies meanwhile.
 */
export async function prepareDatabase(
  database: DbHandle,
  seed: { mode: 'demo' | 'empty'; adminPassword?: string; deskPassword?: string; teacherPassword?: string },
): Promise<SeedResult> {
  const { db, dialect } = database;
  const work = async (conn: typeof db) => {
    await migrateToLatest(conn, dialect);
    return seedIfEmpty(conn, seed.mode, {
      admin: seed.adminPassword,
      desk: seed.deskPassword,
      teacher: seed.teacherPassword,
    });
  };
  if (dialect !== 'postgres') return work(db);
  return db.connection().execute(async (conn) => {
    const key = sql`hashtext(${STARTUP_LOCK} || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

/** Why a second instance may not start on the same SQLite file (shown as is, then the process exits). */
export const sqliteInUseMessage = (file: string) =>
  `数据库文件 ${file} 正由另一个服务实例使用：同一个 SQLite 数据库只能由一个实例打开。` +
  `请先停止那个实例；需要多个实例时请改用 PostgreSQL（设置 DATABASE_URL）。`;

/**
 * Makes this process the only server on a SQLite database file: holds an exclusive SQLite lock on
 * `<file>.instance-lock` for the life of the process (the kernel drops it when the process dies, even
 * by kill -9, so nothing stale is left). A second server on the same file is refused with
 * `sqliteInUseMessage`. Two instances on one file would share one write lock across processes
 * (SQLITE_BUSY under load) and each would keep its own calendar cache and group-commit queue.
 * Other tools (`npm run backup`, ops/backup.ts) open the database itself and are not affected.
 * Returns release().
 */
export function lockSqliteFile(file: string): () => void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = new SqliteDatabase(`${file}.instance-lock`);
  try {
    lock.pragma('busy_timeout = 0');
    lock.exec('begin exclusive');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new Error(sqliteInUseMessage(file));
    throw err;
  }
  return () => {
    if (lock.open) lock.close();
  };
}
