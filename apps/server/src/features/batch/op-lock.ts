import crypto from 'node:crypto';
import { Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { conflict } from '../../lib/errors.ts';
import { deleteExpiredOpLocks, insertOpLock, touchOpLock } from '../../db/op-locks.ts';

/** How long a finished operation still refuses an identical repeat. */
export const REPEAT_WINDOW_MS = 10_000;

/** The lock key of one operation: call, store and a hash of the parsed payload. */
export function opKey(call: string, storeId: number, payload: unknown): string {
  const hash = crypto.createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 32);
  return `${call}:${storeId}:${hash}`;
}

/**
 * Takes the lock of an operation inside its transaction, or refuses with 409 请勿重复操作.
 * The row is written in the operation's own transaction, so:
 * - an identical request while the first runs waits on the uncommitted row (PostgreSQL) or on the
 *   writer lock (SQLite), then finds the committed row and is refused;
 * - a failed operation rolls its lock back, so it can be retried at once;
 * - a finished one keeps it (stamped by `stampOpLock`) for REPEAT_WINDOW_MS, across app instances.
 * Expired locks of the same call and store are removed first.
 */
export async function takeOpLock(tx: Tx, key: string, storeId: number, now = Date.now()): Promise<void> {
  const prefix = key.slice(0, key.lastIndexOf(':') + 1);
  await deleteExpiredOpLocks(tx, storeId, prefix, now - REPEAT_WINDOW_MS);
  if (!(await insertOpLock(tx, key, storeId, now))) throw conflict(Msg.duplicateOp);
}

/** Restarts the repeat window of a lock when its operation is done (still inside its transaction). */
export async function stampOpLock(tx: Tx, key: string, now = Date.now()): Promise<void> {
  await touchOpLock(tx, key, now);
}
