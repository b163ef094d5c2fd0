import { ErrorCode, Msg } from '@studio/contract';
import { isStalePlan } from '../db/pg-prepared.ts';
import { AppError } from './errors.ts';

/**
 * PostgreSQL SQLSTATEs that mean the database cannot be reached right now: class 08 (connection
 * exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: a restart or a
 * terminated backend), 53300 (too many connections).
 */
const PG_UNAVAILABLE = /^(08...|57P0[1-3]|53300)$/;
/** Socket-level codes of a connection that could not be made or broke. */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** pg's own messages for a lost connection (they carry no code). */
const PG_LOST =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/**
 * The answer for an error that says the database is out of reach or busy, not that the request
 * was wrong: 503 数据库暂时不可用 for a lost or refused PostgreSQL connection, 503 数据库正忙 for
 * SQLite's SQLITE_BUSY family (another process holds the write lock past busy_timeout). Null for
 * any other error. The transaction of the request has been rolled back by then (PostgreSQL
 * discards a transaction whose connection is gone; SQLite rolls back a statement that got BUSY and
 * Kysely rolls back the transaction).
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new AppError(503, Msg.dbBusy, ErrorCode.UNAVAILABLE);
  }
  const message = typeof e.message === 'string' ? e.message : '';
  // A prepared statement whose table changed under it (db/pg-prepared.ts): the next try works.
  if (PG_UNAVAILABLE.test(code) || NET_CODES.has(code) || PG_LOST.test(message) || isStalePlan(err)) {
    return new AppError(503, Msg.dbUnavailable, ErrorCode.UNAVAILABLE);
  }
  // pg-pool wraps nothing, but AggregateError (several addresses refused) carries the codes inside.
  if (err instanceof AggregateError && err.errors.some((x) => databaseUnavailable(x))) {
    return new AppError(503, Msg.dbUnavailable, ErrorCode.UNAVAILABLE);
  }
  return null;
}
