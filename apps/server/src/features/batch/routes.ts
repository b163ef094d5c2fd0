import {
  batchAddMemberReservation,
  batchArrangeCourse,
  batchArrangeWeekCourse,
  batchCancelTimetable,
  batchExportReservation,
  copyTimetable,
  deleteFixTimetable,
  insertFixTimetable,
  insertFixTimetableFromWeek,
  queryFixTimetableList,
  queryHasArrangeCourseCount,
  queryHasArrangeCourseTeachers,
  updateFixTimetable,
} from '@studio/contract';
import { auditExport } from '../../lib/audit.ts';
import { defineFeature } from '../../lib/feature.ts';
import { venueAndMaterial, withCard, withVenue } from '../../lib/wire-names.ts';
import { copySessions } from './copy.ts';
import { arrangeCourse } from './course-arrange.ts';
import { addDropInStudent, sessionsLeft, teachersWithSessions } from './drop-in.ts';
import { cancelSessionsInRange, exportRange } from './range-ops.ts';
import { templateRows } from './template-repository.ts';
import { deleteTemplateRow, insertTemplateRow, templateFromWeek, updateTemplateRow } from './template.ts';
import { arrangeTemplateWeeks } from './week-arrange.ts';

/** A weekly template row of the wire (areaId, bookId, its students' mcId) in the inside names. */
function templateRowOf<
  T extends Parameters<typeof venueAndMaterial>[0] & { students: { mcId: number; studentCount: number }[] },
>(input: T) {
  const students = input.students.map((s) => ({ memberCardId: s.mcId, studentCount: s.studentCount }));
  return { ...venueAndMaterial(input), students };
}

/**
 * Registers the batch calls: batch scheduling, weekly template, drop-in students, copy, batch delete, export.
 * The wire's `tid` / `tids` name the teacher here: read into `teacherId(s)` before the services.
 */
export const batchFeature = defineFeature((r) => {
  r.handle(batchArrangeCourse, ({ tid, mcIds, ...input }, ctx) =>
    arrangeCourse(ctx, { ...withVenue(input), teacherId: tid, memberCardIds: mcIds }),
  );
  r.handle(queryFixTimetableList, (_input, ctx) => templateRows(ctx.db, ctx.store.id));
  r.handle(insertFixTimetable, (input, ctx) => insertTemplateRow(ctx, templateRowOf(input)));
  r.handle(updateFixTimetable, (input, ctx) => updateTemplateRow(ctx, templateRowOf(input)));
  r.handle(deleteFixTimetable, (input, ctx) => deleteTemplateRow(ctx, input.id));
  r.handle(insertFixTimetableFromWeek, (input, ctx) => templateFromWeek(ctx, input));
  r.handle(batchArrangeWeekCourse, (input, ctx) => arrangeTemplateWeeks(ctx, input));
  r.handle(queryHasArrangeCourseTeachers, (input, ctx) => teachersWithSessions(ctx, input));
  r.handle(queryHasArrangeCourseCount, ({ tids, ...input }, ctx) => sessionsLeft(ctx, { ...input, teacherIds: tids }));
  r.handle(batchAddMemberReservation, ({ tids, ...input }, ctx) =>
    addDropInStudent(ctx, { ...withCard(input), teacherIds: tids }),
  );
  r.handle(copyTimetable, (input, ctx) => copySessions(ctx, withVenue(input)));
  r.handle(batchCancelTimetable, (input, ctx) => cancelSessionsInRange(ctx, withVenue(input)));
  r.handle(batchExportReservation, async (input, ctx) => {
    const rows = await exportRange(ctx, input);
    auditExport(ctx.db, `预约（${input.fromDate} 至 ${input.toDate}）`);
    return rows;
  });
});
