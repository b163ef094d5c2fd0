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
