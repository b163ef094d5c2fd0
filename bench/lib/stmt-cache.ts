import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import type { DbHandle } from '../../apps/server/src/db/index.ts';

/**
 * The same SQLite set-up as openDatabase (WAL, synchronous=FULL, foreign keys, busy timeout), plus
 * a cache of prepared statements keyed by SQL text: Kysely's SQLite driver prepares every query
 * afresh, which profiles show as a large share of a booking's CPU. Used by the benchmarks to
 * measure what that change to apps/server/src/db/index.ts would bring.
 */
export function openSqliteWithStatementCache(file: string): DbHandle {
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const statements = new Map<string, SqliteDatabase.Statement>();
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let s = statements.get(text);
      if (!s) {
        if (statements.size >= 2000) statements.clear();
        s = sqlite.prepare(text);
        statements.set(text, s);
      }
      return s;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins: [new CamelCasePlugin()] });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
