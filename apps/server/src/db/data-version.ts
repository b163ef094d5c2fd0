import type { Executor, Tx } from './index.ts';

const touched = new WeakSet<object>();

/**
 * Takes the store's write lock for this transaction and bumps its data version (once per
 * transaction). Every engine write calls it before its first write, after its checks (reads that
 * may be stale by then are re-checked by the guarded UPDATEs and unique indexes), so on PostgreSQL
 * all writes of one store take their locks in the same order (store version row first, then
 * sessions, reservations, pendings, cards) and cannot deadlock, and the lock is held only for the
 * writes. The calendar cache compares this version to know when to recompute. Database triggers
 * (migration 0200) also bump it on writes made elsewhere (renames, online rooms).
 */
export async function touchStore(tx: Tx, storeId: number): Promise<void> {
  if (touched.has(tx)) return;
  await tx
    .updateTable('storeVersion')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('storeId', '=', storeId)
    .execute();
  touched.add(tx);
}

/** Forgets that this transaction bumped the version (its savepoint was rolled back). */
export function forgetTouch(tx: Tx): void {
  touched.delete(tx);
}

/** The store's current data version (0 when it has none yet). */
export async function dataVersion(db: Executor, storeId: number): Promise<number> {
  const row = await db.selectFrom('storeVersion').select('version').where('storeId', '=', storeId).executeTakeFirst();
  return row ? Number(row.version) : 0;
}
