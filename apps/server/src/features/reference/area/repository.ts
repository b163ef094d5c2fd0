import type { Executor, Tx } from '../../../db/index.ts';
import type { NewRow, RowUpdate } from '../../../db/schema.ts';

/**
 * The venues' repository: adding, changing and deleting a store's venues, and what still uses one.
 * The store's venue list and the single-venue look-up are shared with the other features and live
 * in `../repository.ts` (`storeAreas`, `requireArea`); the rules (no cycles, refused while in use)
 * stay in `service.ts`.
 */

/** Inserts a venue; answers its id. */
export function insertAreaRow(ex: Executor, row: NewRow<'area'>) {
  return ex.insertInto('area').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a venue's name, parent or sort. */
export async function changeArea(ex: Executor, storeId: number, id: number, fields: RowUpdate<'area'>) {
  await ex.updateTable('area').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** What uses a venue: sub-venues, sessions that are not deleted, weekly-template rows (each a 0/1 flag). */
export function areaUsage(ex: Executor, id: number) {
  return ex
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('area').select('id').where('parentId', '=', id)).as('child'),
      eb
        .exists(eb.selectFrom('timetable').select('id').where('areaId', '=', id).where('deleted', '=', 0))
        .as('session'),
      eb.exists(eb.selectFrom('fixTimetable').select('id').where('areaId', '=', id)).as('template'),
    ])
    .executeTakeFirstOrThrow();
}

/** Takes a venue off the store's deleted sessions, so the venue itself can be deleted. */
export async function unsetAreaOfDeletedSessions(tx: Tx, storeId: number, id: number) {
  await tx
    .updateTable('timetable')
    .set({ areaId: null })
    .where('storeId', '=', storeId)
    .where('areaId', '=', id)
    .where('deleted', '=', 1)
    .execute();
}

/** Deletes a venue. */
export async function deleteAreaRow(tx: Tx, storeId: number, id: number) {
  await tx.deleteFrom('area').where('storeId', '=', storeId).where('id', '=', id).execute();
}
