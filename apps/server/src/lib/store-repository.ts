import type { Executor } from '../db/index.ts';

/** A store's scope row (id, name, time zone), or undefined when there is no such store. */
export function findStoreScope(ex: Executor, storeId: number) {
  return ex.selectFrom('store').select(['id', 'name', 'timezone']).where('id', '=', storeId).executeTakeFirst();
}

/** Whether the installation has any store yet (first-run setup, the demo seed). */
export async function anyStore(ex: Executor): Promise<boolean> {
  return Boolean(await ex.selectFrom('store').select('id').limit(1).executeTakeFirst());
}
