import type { Executor } from '../../../db/index.ts';
import type { NewRow, RowUpdate } from '../../../db/schema.ts';

/**
 * The teachers' repository: a store's teachers and what still needs one. The single-teacher
 * look-up is shared with the other features and lives in `../repository.ts` (`requireTeacher`);
 * the rule (no delete while sessions or template rows need the teacher) stays in `service.ts`.
 */

/** The store's teachers that are not deleted, oldest first. */
export function liveTeachers(ex: Executor, storeId: number) {
  return ex
    .selectFrom('teacher')
    .select(['id', 'name', 'mobile', 'meetingType', 'meetingCode', 'joinUrl'])
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
}

/** Inserts a teacher; answers their id. */
export function insertTeacherRow(ex: Executor, row: NewRow<'teacher'>) {
  return ex.insertInto('teacher').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a teacher's fields. */
export async function changeTeacher(ex: Executor, storeId: number, id: number, fields: RowUpdate<'teacher'>) {
  await ex.updateTable('teacher').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** Whether the teacher has a session that is not deleted and ends after `now` (store wall clock). */
export async function teacherHasSessionAfter(ex: Executor, storeId: number, id: number, now: string) {
  const row = await ex
    .selectFrom('timetable')
    .select('id')
    .where('storeId', '=', storeId)
    .where('teacherId', '=', id)
    .where('deleted', '=', 0)
    .where('endTime', '>', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the teacher has a row in the store's weekly template. */
export async function teacherInTemplate(ex: Executor, storeId: number, id: number) {
  const row = await ex
    .selectFrom('fixTimetable')
    .select('id')
    .where('storeId', '=', storeId)
    .where('teacherId', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Soft-deletes a teacher. */
export async function markTeacherDeleted(ex: Executor, storeId: number, id: number) {
  await ex.updateTable('teacher').set({ deleted: 1 }).where('storeId', '=', storeId).where('id', '=', id).execute();
}
