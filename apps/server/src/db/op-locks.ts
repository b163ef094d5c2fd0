import type { Executor } from './index.ts';

/**
 * Operation locks (`op_lock` rows keyed by what they guard): a batch run of a store (请勿重复操作)
 * and the first-run setup take one so that a second one at the same moment is refused.
 */

/** Writes the lock `key` unless it is held; answers whether it was written. */
export async function insertOpLock(ex: Executor, key: string, storeId: number, now: number): Promise<boolean> {
  const res = await ex
    .insertInto('opLock')
    .values({ key, storeId, createdAt: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Removes the lock `key` when it was stamped before `before` (ms): one left by a crashed holder. */
export async function deleteStaleOpLock(ex: Executor, key: string, before: number): Promise<void> {
  await ex.deleteFrom('opLock').where('key', '=', key).where('createdAt', '<', before).execute();
}

/** Removes the lock `key` written at `createdAt` (and not one that took its place since). */
export async function deleteOpLock(ex: Executor, key: string, createdAt: number): Promise<void> {
  await ex.deleteFrom('opLock').where('key', '=', key).where('createdAt', '=', createdAt).execute();
}

/** Removes the locks of a store whose key starts with `prefix` that were stamped before `before` (ms). */
export async function deleteExpiredOpLocks(
  ex: Executor,
  storeId: number,
  prefix: string,
  before: number,
): Promise<void> {
  await ex
    .deleteFrom('opLock')
    .where('storeId', '=', storeId)
    .where('key', 'like', `${prefix}%`)
    .where('createdAt', '<', before)
    .execute();
}

/** Stamps an operation lock with a new time. */
export async function touchOpLock(ex: Executor, key: string, now: number): Promise<void> {
  await ex.updateTable('opLock').set({ createdAt: now }).where('key', '=', key).execute();
}
