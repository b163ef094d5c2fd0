import { Msg, RefMsg, type ParsedReqOf, type insertTeacher } from '@studio/contract';
import { audit } from '../../../lib/audit.ts';
import { requireTeacher } from '../repository.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { conflict } from '../../../lib/errors.ts';
import { ownTeacherFilter } from './access.ts';
import { storeNow } from '../../../lib/time.ts';
import {
  insertTeacherRow,
  liveTeachers,
  markTeacherDeleted,
  teacherHasSessionAfter,
  teacherInTemplate,
  changeTeacher,
} from './repository.ts';

type TeacherInput = ParsedReqOf<typeof insertTeacher>;

/**
 * The store's teachers (not deleted), oldest first. A teacher account gets every teacher's name (the
 * timetable and its filter name them) but no other teacher's mobile: only their own.
 */
export async function listTeachers(ctx: CallCtx) {
  const teachers = await liveTeachers(ctx.db, ctx.store.id);
  const own = ownTeacherFilter(ctx.post);
  if (own === undefined) return teachers;
  return teachers.map((t) => (t.id === own ? t : { ...t, mobile: null }));
}

const mustFindTeacher = (ctx: CallCtx, id: number) => requireTeacher(ctx.db, ctx.store.id, id);

/** Adds a teacher with an optional fixed online room. */
export async function createTeacher(ctx: CallCtx, input: TeacherInput) {
  const row = await insertTeacherRow(ctx.db, { storeId: ctx.store.id, ...input, deleted: 0 });
  audit(ctx.db, { kind: 'reference', target: `老师 ${input.name}`, targets: [{ type: 'teacher', id: row.id }] });
  return row;
}

/** Changes a teacher's name, mobile and fixed online room. */
export async function editTeacher(ctx: CallCtx, input: TeacherInput & { id: number }) {
  const { id, ...fields } = input;
  await mustFindTeacher(ctx, id);
  await changeTeacher(ctx.db, ctx.store.id, id, fields);
  audit(ctx.db, { kind: 'reference', target: `老师 ${fields.name}`, targets: [{ type: 'teacher', id }] });
  return null;
}

/**
 * Soft-deletes a teacher. Refused while the teacher has sessions still to come (409) or rows
 * in the weekly template, so no future class is left without a teacher.
 */
export async function removeTeacher(ctx: CallCtx, id: number) {
  const teacher = await mustFindTeacher(ctx, id);
  if (await teacherHasSessionAfter(ctx.db, ctx.store.id, id, storeNow(ctx))) throw conflict(RefMsg.teacherHasSessions);
  if (await teacherInTemplate(ctx.db, ctx.store.id, id)) throw conflict(Msg.inUse('老师'));
  await markTeacherDeleted(ctx.db, ctx.store.id, id);
  audit(ctx.db, { kind: 'reference', target: `老师 ${teacher.name}`, targets: [{ type: 'teacher', id }] });
  return null;
}
