// The teachers screen's writes (the list is reference data: shared/reference.ts).
import { deleteTeacher, insertTeacher, updateTeacher, type ReqOf } from '@studio/contract';
import { call } from '../../api/client.ts';
import { useWrite } from '../../shared/use-write.ts';

export type TeacherFields = ReqOf<typeof insertTeacher>;

/** Saves a new teacher (id null) or changes one. */
export function useSaveTeacher(id: number | null) {
  return useWrite((t: TeacherFields) => (id ? call(updateTeacher, { id, ...t }) : call(insertTeacher, t)), {
    success: '操作成功',
    changes: 'teacher',
  });
}

export function useDeleteTeacher() {
  return useWrite((id: number) => call(deleteTeacher, { id }), { success: '删除成功', changes: 'teacher' });
}
