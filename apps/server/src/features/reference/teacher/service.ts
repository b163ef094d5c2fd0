import { Msg, RefMsg, type ParsedReqOf, type insertTeacher } from '@studio/contract';
import { requireTeacher } from '../repository.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { conflict } from '../../../lib/errors.ts';
import { storeNow } from '../shared.ts';

type TeacherInput = ParsedReqOf<typeof insertTeacher>;
const cols = ['id', 'name', 'mobile', 'meetingType', 'meetingCode', 'joinUrl'] as const;

/** The store's teachers (not deleted), oldest first. */
export function listTeachers(ctx: CallCtx) {
  return ctx.db
    .selectFrom('teacher')
    .select([...cols])
    .where('storeId', '=', ctx.store.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
}

const mustFindTeacher = (ctx: CallCtx, id: number) => requireTeacher(ctx.db, ctx.store.id, id);

/** Adds a teacher with an optional fixed online room. */
export function createTeacher(ctx: CallCtx, input: TeacherInput) {
  return ctx.db
    .insertInto('teacher')
    .values({ storeId: ctx.store.id, ...input, deleted: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Changes a teacher's name, mobile and fixed online room. */
export async function editTeacher(ctx: CallCtx, input: TeacherInput & { id: number }) {
  const { id, ...fields } = input;
  await mustFindTeacher(ctx, id);
  await ctx.db.updateTable('teacher').set(fields).where('storeId', '=', ctx.store.id).where('id', '=', id).execute();
  return null;
}

/**
 * Soft-deletes a teacher. Refused while the teacher has sessions still to come (409) or rows
 * in the weekly template, so no future class is left without a teacher.
 */
export async function removeTeacher(ctx: CallCtx, id: number) {
  await mustFindTeacher(ctx, id);
  const future = await ctx.db
    .selectFrom('timetable')
    .select('id')
    .where('storeId', '=', ctx.store.id)
    .where('teacherId', '=', id)
    .where('deleted', '=', 0)
    .where('endTime', '>', storeNow(ctx))
    .limit(1)
    .executeTakeFirst();
  if (future) throw conflict(RefMsg.teacherHasSessions);
  const template = await ctx.db
    .selectFrom('fixTimetable')
    .select('id')
    .where('storeId', '=', ctx.store.id)
    .where('teacherId', '=', id)
    .limit(1)
    .executeTakeFirst();
  if (template) throw conflict(Msg.inUse('老师'));
  await ctx.db
    .updateTable('teacher')
    .set({ deleted: 1 })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}
