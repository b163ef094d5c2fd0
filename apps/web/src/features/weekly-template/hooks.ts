// The weekly template's reads and writes.
import {
  deleteFixTimetable,
  insertFixTimetable,
  insertFixTimetableFromWeek,
  queryFixTimetableList,
  updateFixTimetable,
  type FixTimetableRow,
  type ResOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** A row of the weekly template: a weekday, a time, a course and its fixed students. */
export type TemplateRow = FixTimetableRow;

/** Every row of the weekly template with its fixed students. */
export function useWeeklyTemplate() {
  return useQuery({ queryKey: keys.weeklyTemplate, queryFn: () => call(queryFixTimetableList, {}) });
}

export interface TemplateRowFields {
  /** JavaScript weekday (0 = Sunday). */
  weekday: number;
  time: string;
  courseId: number;
  teacherId: number;
  venueId: number | null;
  capacity: number;
  materialId: number | null;
  /** The fixed students: a card each, with how many people it books. */
  students: { cardId: number; studentCount: number }[];
}

/** Saves a new template row (id null) or changes one. */
export function useSaveTemplateRow(id: number | null) {
  return useWrite(
    (r: TemplateRowFields) => {
      const body = {
        weekday: r.weekday,
        time: r.time,
        courseId: r.courseId,
        teacherId: r.teacherId,
        areaId: r.venueId,
        reservableCount: r.capacity,
        bookId: r.materialId,
        students: r.students.map((s) => ({ mcId: s.cardId, studentCount: s.studentCount })),
      };
      return id ? call(updateFixTimetable, { id, ...body }) : call(insertFixTimetable, body);
    },
    { success: '操作成功', changes: 'weeklyTemplate' },
  );
}

export function useDeleteTemplateRow() {
  return useWrite((id: number) => call(deleteFixTimetable, { id }), {
    success: '删除成功',
    changes: 'weeklyTemplate',
  });
}

/** What 从课表生成 would make of a week: its classes as rows, and the template's rows now. */
export type FromWeekPlan = ResOf<typeof insertFixTimetableFromWeek>;

/** Previews 从课表生成 for the week starting on Monday `fromDate` (nothing written). */
export function usePreviewFromWeek() {
  return useWrite((fromDate: string) => call(insertFixTimetableFromWeek, { fromDate, dryRun: true }));
}

/** 从课表生成: the week's classes replace the template's rows, or are added to them. */
export function useBuildFromWeek() {
  return useWrite((fromDate: string, mode: 'replace' | 'add') => call(insertFixTimetableFromWeek, { fromDate, mode }), {
    success: '已从课表生成周课表',
    changes: 'weeklyTemplate',
  });
}
