import { deleteTeacher, insertTeacher, teacherList, updateTeacher } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { createTeacher, editTeacher, listTeachers, removeTeacher } from './service.ts';

/** Teachers: list, add, edit, soft delete. */
export function registerTeacher(r: Registry): void {
  r.handle(teacherList, (_input, ctx) => listTeachers(ctx));
  r.handle(insertTeacher, (input, ctx) => createTeacher(ctx, input), { tx: true });
  r.handle(updateTeacher, (input, ctx) => editTeacher(ctx, input), { tx: true });
  r.handle(deleteTeacher, (input, ctx) => removeTeacher(ctx, input.id), { tx: true });
}
