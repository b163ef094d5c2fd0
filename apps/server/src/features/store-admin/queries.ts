import { MODULE_ONLINE_DEFAULT, PendingStatus } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { getModuleStatus } from '../reference/public.ts';

/** The stored text of one store setting, or undefined. */
export async function getSetting(db: Executor, storeId: number, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('storeSetting')
    .select('value')
    .where('storeId', '=', storeId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Inserts or replaces one store setting. */
export async function putSetting(db: Executor, storeId: number, key: string, value: string): Promise<void> {
  await db
    .insertInto('storeSetting')
    .values({ storeId, key, value })
    .onConflict((oc) => oc.columns(['storeId', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}

/**
 * Whether a new session is an online one when the caller does not say (module 1, 新课程默认在线教室):
 * 1 on-demand online room, 0 none.
 */
export async function onlineDefault(db: Executor, storeId: number): Promise<0 | 1> {
  return (await getModuleStatus(db, storeId, MODULE_ONLINE_DEFAULT)) === 1 ? 1 : 0;
}

/** Pending items waiting for sign-in on sessions that are not deleted and not over at `now`. */
export async function countWaitingPending(db: Executor, storeId: number, now: string): Promise<number> {
  const row = await db
    .selectFrom('pending')
    .innerJoin('timetable', 'timetable.id', 'pending.timetableId')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pending.storeId', '=', storeId)
    .where('pending.status', '=', PendingStatus.WAITING)
    .where('timetable.storeId', '=', storeId)
    .where('timetable.deleted', '=', 0)
    .where('timetable.endTime', '>', now)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function getStore(db: Executor, storeId: number) {
  return db
    .selectFrom('store')
    .select(['id', 'name', 'timezone', 'logoFileId'])
    .where('id', '=', storeId)
    .executeTakeFirst();
}
