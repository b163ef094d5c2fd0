import type { Executor, Tx } from '../../../db/index.ts';
import type { NewRow, RowUpdate } from '../../../db/schema.ts';

/**
 * The teaching materials' repository: a store's books, chapters and lessons, and what still uses
 * one. The single-material look-up is shared with the other features and lives in `../repository.ts`
 * (`requireMaterialNode`); the rules (at most three levels, refused while in use) stay in `service.ts`.
 */

/** The store's materials ({id, parentId, name, level}), by sort then id. */
export function storeMaterials(ex: Executor, storeId: number) {
  return ex
    .selectFrom('material')
    .select(['id', 'parentId', 'name', 'level'])
    .where('storeId', '=', storeId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Inserts a material; answers its id. */
export function insertMaterialRow(ex: Executor, row: NewRow<'material'>) {
  return ex.insertInto('material').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a material's name or sort. */
export async function changeMaterial(ex: Executor, storeId: number, id: number, fields: RowUpdate<'material'>) {
  await ex.updateTable('material').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** What uses a material: children, sessions that are not deleted, weekly-template rows (each a 0/1 flag). */
export function materialUsage(ex: Executor, id: number) {
  return ex
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('material').select('id').where('parentId', '=', id)).as('child'),
      eb
        .exists(eb.selectFrom('timetable').select('id').where('bookId', '=', id).where('deleted', '=', 0))
        .as('session'),
      eb.exists(eb.selectFrom('fixTimetable').select('id').where('bookId', '=', id)).as('template'),
    ])
    .executeTakeFirstOrThrow();
}

/** Takes a material off the store's deleted sessions, so the material itself can be deleted. */
export async function unsetMaterialOfDeletedSessions(tx: Tx, storeId: number, id: number) {
  await tx
    .updateTable('timetable')
    .set({ bookId: null })
    .where('storeId', '=', storeId)
    .where('bookId', '=', id)
    .where('deleted', '=', 1)
    .execute();
}

/** Deletes a material. */
export async function deleteMaterialRow(tx: Tx, storeId: number, id: number) {
  await tx.deleteFrom('material').where('storeId', '=', storeId).where('id', '=', id).execute();
}
