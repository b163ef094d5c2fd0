// The 私教/小班 set-up screens' reads and writes (issue 43): lesson types, machines, teachers'
// working hours and the booking setting (server: features/lessons).
import {
  deleteEquipment,
  deleteTeacherHoursException,
  equipmentList,
  insertEquipment,
  insertLessonType,
  insertTeacherHoursException,
  queryLessonBookingSetting,
  saveLessonBookingSetting,
  teacherHoursInfo,
  updateEquipment,
  updateLessonType,
  updateLessonTypeStatus,
  updateTeacherWeeklyHours,
  type LessonBookingSetting,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

export type LessonTypeBody = ReqOf<typeof insertLessonType>;

/** Saves a new lesson type (id null) or replaces one (teachers, prices, rooms and machines as a whole). */
export function useSaveLessonType(id: number | null) {
  return useWrite(
    (body: LessonTypeBody) => (id ? call(updateLessonType, { id, ...body }) : call(insertLessonType, body)),
    { success: '操作成功', changes: 'lessonSetup' },
  );
}

export function useSetLessonTypeEnabled() {
  return useWrite((id: number, enabled: 0 | 1) => call(updateLessonTypeStatus, { id, enabled }), {
    success: '操作成功',
    changes: 'lessonSetup',
  });
}

export function useEquipment() {
  return useQuery({ queryKey: keys.lessonSetup.equipment, queryFn: () => call(equipmentList, {}) });
}

export type EquipmentBody = ReqOf<typeof insertEquipment>;

export function useSaveEquipment(id: number | null) {
  return useWrite(
    (body: EquipmentBody) => (id ? call(updateEquipment, { id, ...body }) : call(insertEquipment, body)),
    { success: '操作成功', changes: 'lessonSetup' },
  );
}

export function useDeleteEquipment() {
  return useWrite((id: number) => call(deleteEquipment, { id }), { success: '删除成功', changes: 'lessonSetup' });
}

/** A teacher's weekly hours and their exceptions (休息 / 加班); none asked while no teacher is chosen. */
export function useTeacherHours(teacherId: number | null) {
  return useQuery({
    queryKey: keys.lessonSetup.hours(teacherId ?? 0),
    queryFn: () => call(teacherHoursInfo, { teacherId: teacherId! }),
    enabled: teacherId != null,
  });
}

export function useSaveWeeklyHours() {
  return useWrite((body: ReqOf<typeof updateTeacherWeeklyHours>) => call(updateTeacherWeeklyHours, body), {
    success: '工作时间已保存',
    changes: 'lessonSetup',
  });
}

export function useAddHoursException() {
  return useWrite((body: ReqOf<typeof insertTeacherHoursException>) => call(insertTeacherHoursException, body), {
    success: '操作成功',
    changes: 'lessonSetup',
  });
}

export function useDeleteHoursException() {
  return useWrite((id: number) => call(deleteTeacherHoursException, { id }), {
    success: '删除成功',
    changes: 'lessonSetup',
  });
}

export function useLessonSetting() {
  return useQuery({ queryKey: keys.lessonSetup.setting, queryFn: () => call(queryLessonBookingSetting, {}) });
}

export function useSaveLessonSetting() {
  return useWrite((v: LessonBookingSetting) => call(saveLessonBookingSetting, v), {
    success: '保存成功',
    changes: 'lessonSetup',
  });
}
