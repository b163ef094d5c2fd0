import {
  SqliteDriver,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';
import { SnakeSqliteDialect } from './snake-case.ts';

/**
 * A transaction's statements on better-sqlite3 resolve at once (microtasks), so a long transaction
 * would never let the event loop take other requests. After this much time in one turn of the
 * event loop, a transaction's next statement first yields a turn (setImmediate); reads of other
 * requests run meanwhile on the reader. A short transaction never reaches it.
 */
const YIELD_AFTER_MS = 20;

/** A plain SELECT (not a CTE, which may write, nor a pragma): safe on the read-only connection. */
const isPlainSelect = (text: string) => /^\s*select\b/i.test(text);

/**
 * One connection of a request or transaction. Until a transaction begins it holds nothing: each
 * plain SELECT runs on the reader, anything else takes the writer for that one statement. Once a
 * transaction begins it holds the writer (and its lock) until released, so every statement of the
 * transaction, reads included, sees the transaction's own writes.
 */
class RoutedConnection implements DatabaseConnection {
  writer?: DatabaseConnection;
  constructor(private readonly split: SplitSqliteDriver) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (this.writer) {
      await this.split.yieldIfLong();
      return this.writer.executeQuery<R>(q);
    }
    if (isPlainSelect(q.sql)) return this.split.onReader((c) => c.executeQuery<R>(q));
    return this.split.onWriter((c) => c.executeQuery<R>(q));
  }

  async *streamQuery<R>(q: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.writer) return yield* this.writer.streamQuery<R>(q, chunkSize);
    const conn = await this.split.writer.acquireConnection();
    try {
      yield* conn.streamQuery<R>(q, chunkSize);
    } finally {
      await this.split.writer.releaseConnection();
    }
  }
}

/**
 * SQLite with two connections to one WAL file: the writer (Kysely's usual single connection behind
 * a mutex) for transactions and writes, and a read-only connection for plain SELECTs made outside a
 * transaction. In WAL mode a reader sees the last committed state while a write transaction is
 * open, so a long write (a 200-week template run) no longer holds up every read of every store:
 * reads go on between the run's statements, seeing the database as it was before the run, which
 * stays all or nothing. Writes still queue behind it (SQLite has one writer).
 */
class SplitSqliteDriver implements Driver {
  constructor(
    readonly writer: SqliteDriver,
    private readonly reader: SqliteDriver,
  ) {}

  /** When the current turn of the event loop started running transaction statements. */
  private turnStart = 0;
  private inTurn = false;

  async yieldIfLong(): Promise<void> {
    if (!this.inTurn) {
      this.inTurn = true;
      this.turnStart = performance.now();
      setImmediate(() => (this.inTurn = false));
      return;
    }
    if (performance.now() - this.turnStart < YIELD_AFTER_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  async init() {
    await this.writer.init();
    await this.reader.init();
  }

  /** Runs one statement on the reader or the writer, holding that connection's mutex meanwhile. */
  private async on<T>(driver: SqliteDriver, run: (c: DatabaseConnection) => Promise<T>): Promise<T> {
    const conn = await driver.acquireConnection();
    try {
      return await run(conn);
    } finally {
      await driver.releaseConnection();
    }
  }
  onReader = <T>(run: (c: DatabaseConnection) => Promise<T>) => this.on(this.reader, run);
  onWriter = <T>(run: (c: DatabaseConnection) => Promise<T>) => this.on(this.writer, run);

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  private async bound(c: DatabaseConnection): Promise<DatabaseConnection> {
    const routed = c as RoutedConnection;
    routed.writer ??= await this.writer.acquireConnection();
    return routed.writer;
  }

  /** SQLite has one isolation level: transaction settings are ignored, as Kysely's driver does. */
  async beginTransaction(c: DatabaseConnection) {
    await this.writer.beginTransaction(await this.bound(c));
  }
  async commitTransaction(c: DatabaseConnection) {
    await this.writer.commitTransaction(await this.bound(c));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await this.writer.rollbackTransaction(await this.bound(c));
  }
  async savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.writer.savepoint(await this.bound(c), name, compile);
  }
  async rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.writer.rollbackToSavepoint(await this.bound(c), name, compile);
  }
  async releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.writer.releaseSavepoint(await this.bound(c), name, compile);
  }

  async releaseConnection(c: DatabaseConnection) {
    const routed = c as RoutedConnection;
    if (!routed.writer) return;
    routed.writer = undefined;
    await this.writer.releaseConnection();
  }

  async destroy() {
    await this.reader.destroy();
    await this.writer.destroy();
  }
}

/** The SQLite dialect (snake-case.ts) with a read-only second connection for reads outside transactions. */
export class SplitSqliteDialect extends SnakeSqliteDialect {
  constructor(
    private readonly writerConfig: SqliteDialectConfig,
    private readonly readerConfig: SqliteDialectConfig,
  ) {
    super(writerConfig);
  }
  override createDriver(): Driver {
    return new SplitSqliteDriver(new SqliteDriver(this.writerConfig), new SqliteDriver(this.readerConfig));
  }
}
