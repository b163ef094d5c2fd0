// The weekly template's reads and writes.
import {
  deleteFixTimetable,
  insertFixTimetable,
  queryFixTimetableList,
  updateFixTimetable,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Every row of the weekly template with its fixed students. */
export function useWeeklyTemplate() {
  return useQuery({ queryKey: keys.weeklyTemplate, queryFn: () => call(queryFixTimetableList, {}) });
}

export type TemplateRowFields = ReqOf<typeof insertFixTimetable>;

/** Saves a new template row (id null) or changes one. */
export function useSaveTemplateRow(id: number | null) {
  return useWrite(
    (r: TemplateRowFields) => (id ? call(updateFixTimetable, { id, ...r }) : call(insertFixTimetable, r)),
    { success: '操作成功', changes: 'weeklyTemplate' },
  );
}

export function useDeleteTemplateRow() {
  return useWrite((id: number) => call(deleteFixTimetable, { id }), {
    success: '删除成功',
    changes: 'weeklyTemplate',
  });
}
