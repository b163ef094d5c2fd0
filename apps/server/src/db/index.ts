import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

const STATEMENT_CACHE_MAX = 2000;
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything queries can run on: the database or an open transaction. */
export type Executor = Kysely<Database>;

// bigint and numeric come back from pg as strings; every such column here fits a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** For PostgreSQL, the schema the connection works in (tests use one per file). */
  schema?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... ; when absent, SQLite. */
  url?: string;
  /** SQLite file (":memory:" allowed). */
  file?: string;
  /** PostgreSQL schema to work in (search_path). */
  schema?: string;
  poolMax?: number;
}

/** Opens the database: PostgreSQL when a URL is given, otherwise SQLite (WAL, synchronous=FULL). */
export function openDatabase(opts: OpenOptions): DbHandle {
  const plugins = [new CamelCasePlugin()];
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolMax ?? 20,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    return { db, dialect: 'postgres', schema: opts.schema, close: () => db.destroy() };
  }
  const file = opts.file ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Kysely's SQLite driver prepares every query afresh; preparing is a large share of a booking's
  // CPU, so statements are kept by SQL text (bench/booking.ts measures the difference).
  const statements = new Map<string, SqliteDatabase.Statement>();
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let stmt = statements.get(text);
      if (!stmt) {
        if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
        stmt = sqlite.prepare(text);
        statements.set(text, stmt);
      }
      return stmt;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
