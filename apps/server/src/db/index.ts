import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type KyselyPlugin, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { pipelineTransactions } from './pg-pipeline.ts';
import { prepareStatements } from './pg-prepared.ts';
import { camelCaseRows, SnakePostgresDialect, SnakeSqliteDialect } from './snake-case.ts';
import { SplitSqliteDialect } from './sqlite-split.ts';

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
  /** PostgreSQL: connections of the pool handed out, and requests waiting for one (metrics). */
  poolStats?: () => { inUse: number; waiting: number };
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
  /** PostgreSQL `application_name` of every connection (tests find their own backends by it). */
  applicationName?: string;
  /** Told about a PostgreSQL connection that broke (server restart, terminated backend). */
  onConnectionError?: (err: Error) => void;
  /** SQLite: how long a write waits for another process's lock before SQLITE_BUSY (ms). */
  busyTimeoutMs?: number;
}

/** A request waits at most this long for a free PostgreSQL connection (or a new one) before a 503. */
const PG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Kysely's SQLite driver prepares every query afresh; preparing is a large share of a booking's
 * CPU, so statements are kept by SQL text (bench/booking.ts measures the difference).
 */
function cached(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
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
}

/** Opens the database: PostgreSQL when a URL is given, otherwise SQLite (WAL, synchronous=FULL). */
export function openDatabase(opts: OpenOptions): DbHandle {
  const plugins: KyselyPlugin[] = [camelCaseRows];
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolMax ?? 20,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Several statements on the wire before the first answer (pg-pipeline.ts).
      ...({ pipeline: true } as object),
      ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // A connection can break at any moment (terminated backend, PostgreSQL restart). pg emits
    // 'error' on the client, and on the pool for an idle one; with no listener that event kills
    // the process. The query in flight (if any) fails on its own and reaches the error handler as
    // a 503 (lib/db-errors.ts); the broken client is no longer queryable, so when Kysely releases
    // it after the failed ROLLBACK the pool discards it and opens a fresh one on demand.
    const onError = (err: Error) => opts.onConnectionError?.(err);
    pool.on('error', onError);
    pool.on('connect', (client) => {
      client.on('error', onError);
      prepareStatements(client);
      pipelineTransactions(client);
    });
    const db = new Kysely<Database>({ dialect: new SnakePostgresDialect({ pool }), plugins });
    const poolStats = () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount });
    return { db, dialect: 'postgres', schema: opts.schema, poolStats, close: () => db.destroy() };
  }
  const file = opts.file ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  if (file === ':memory:') {
    const db = new Kysely<Database>({ dialect: new SnakeSqliteDialect({ database: cached(sqlite) }), plugins });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  // Reads outside transactions go to a read-only second connection (sqlite-split.ts), so a long
  // write transaction does not hold them up.
  const reader = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  reader.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  const dialect = new SplitSqliteDialect({ database: cached(sqlite) }, { database: cached(reader) });
  const db = new Kysely<Database>({ dialect, plugins });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
