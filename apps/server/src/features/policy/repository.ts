import type { Executor } from '../../db/index.ts';

/**
 * The booking policy's repository. The policy itself is a store setting, read and written through
 * `store-admin/public.ts` (`getSetting`, `putSetting`); what is left here is the list of stores the
 * policy jobs walk over.
 */

/** Every store ({id, timezone}), by id. */
export function allStores(ex: Executor) {
  return ex.selectFrom('store').select(['id', 'timezone']).orderBy('id').execute();
}
