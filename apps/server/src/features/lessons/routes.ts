import {
  reportLessonOutstanding,
  reportLessonPacks,
  reportLessons,
  reportLessonUtilisation,
  deleteEquipment,
  deleteTeacherHoursException,
  equipmentList,
  insertEquipment,
  insertLessonType,
  insertTeacherHoursException,
  lessonFreeSlots,
  lessonTypeList,
  teacherDayHours,
  teacherHoursInfo,
  updateEquipment,
  updateLessonType,
  updateLessonTypeStatus,
  updateTeacherWeeklyHours,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import * as lessonReports from './reports.ts';
import {
  addHoursException,
  createEquipment,
  createLessonType,
  editEquipment,
  editLessonType,
  freeSlotsByDay,
  listEquipment,
  listLessonTypes,
  removeEquipment,
  removeHoursException,
  setLessonTypeEnabled,
  setWeeklyHours,
  teacherDayHours as dayHours,
  teacherHours,
} from './service.ts';

/** 私教 and 小班: lesson types, machines, teachers' hours and free start times. */
export const lessonsFeature = defineFeature((r) => {
  // 私教报表 (店长): lessons by type and teacher, teachers' utilisation, packs sold and used, 预收款.
  r.handle(reportLessons, (input, ctx) => lessonReports.lessonsByType(ctx, input));
  r.handle(reportLessonUtilisation, (input, ctx) => lessonReports.lessonUtilisation(ctx, input));
  r.handle(reportLessonPacks, (input, ctx) => lessonReports.lessonPacks(ctx, input));
  r.handle(reportLessonOutstanding, (input, ctx) => lessonReports.lessonOutstanding(ctx, input));
  r.handle(lessonTypeList, (_input, ctx) => listLessonTypes(ctx));
  r.handle(insertLessonType, (input, ctx) => createLessonType(ctx, input));
  r.handle(updateLessonType, (input, ctx) => editLessonType(ctx, input));
  r.handle(updateLessonTypeStatus, (input, ctx) => setLessonTypeEnabled(ctx, input.id, input.enabled), { tx: true });
  r.handle(equipmentList, (_input, ctx) => listEquipment(ctx));
  r.handle(insertEquipment, (input, ctx) => createEquipment(ctx, input), { tx: true });
  r.handle(updateEquipment, (input, ctx) => editEquipment(ctx, input), { tx: true });
  r.handle(deleteEquipment, (input, ctx) => removeEquipment(ctx, input.id), { tx: true });
  r.handle(teacherHoursInfo, (input, ctx) => teacherHours(ctx, input));
  r.handle(updateTeacherWeeklyHours, (input, ctx) => setWeeklyHours(ctx, input));
  r.handle(insertTeacherHoursException, (input, ctx) => addHoursException(ctx, input), { tx: true });
  r.handle(deleteTeacherHoursException, (input, ctx) => removeHoursException(ctx, input.id), { tx: true });
  r.handle(lessonFreeSlots, (input, ctx) => freeSlotsByDay(ctx, input));
  r.handle(teacherDayHours, (input, ctx) => dayHours(ctx, input));
});
