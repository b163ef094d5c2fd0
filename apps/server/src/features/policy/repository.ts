import type { Executor } from '../../db/index.ts';

/**
 * The booking policy's repository. The policy itself is a store setting, read and written through
 * `store-admin/public.ts` (`getSetting`, `putSetting`, `storeValues` for one store); what is left
 * here is the list of stores the policy jobs walk over, each with the values its rules come from.
 */

/**
 * Every store ({id, timezone}), by id, with the text of its setting `keys.setting` and the status
 * of its module `keys.module` (null where it has none), in one statement.
 */
export function allStoresWith(ex: Executor, keys: { setting: string; module: number }) {
  return ex
    .selectFrom('store as s')
    .leftJoin('storeSetting as ss', (j) => j.onRef('ss.storeId', '=', 's.id').on('ss.key', '=', keys.setting))
    .leftJoin('storeModule as sm', (j) => j.onRef('sm.storeId', '=', 's.id').on('sm.moduleId', '=', keys.module))
    .select(['s.id', 's.timezone', 'ss.value as setting', 'sm.status as module'])
    .orderBy('s.id')
    .execute();
}
