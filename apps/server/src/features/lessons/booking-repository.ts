import type { LessonBookingSetting } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { withCourseName } from '../reference/public.ts';

/** The store setting of lesson bookings (私教需老师确认 and its time limit), under this key. */
const SETTING_KEY = 'lesson_booking';

/** What a store that never saved the setting gets: lessons confirmed at once. */
const DEFAULT_SETTING: LessonBookingSetting = { teacherConfirms: 0, confirmHours: 12 };

/** The store's lesson booking setting (the default until saved). */
export async function loadLessonSetting(ex: Executor, storeId: number): Promise<LessonBookingSetting> {
  const text = await getSetting(ex, storeId, SETTING_KEY);
  return text === undefined ? { ...DEFAULT_SETTING } : (JSON.parse(text) as LessonBookingSetting);
}

/** Saves the store's lesson booking setting. */
export async function saveLessonSetting(ex: Executor, storeId: number, s: LessonBookingSetting): Promise<void> {
  await putSetting(ex, storeId, SETTING_KEY, JSON.stringify(s));
}

/** A live course of the store with what booking a lesson of it needs (its kind says whether it is a lesson type). */
export function lessonType(ex: Executor, storeId: number, courseId: number) {
  return ex
    .selectFrom('course')
    .select(['id', 'kind', 'maxMembers', 'minNoticeMinutes', 'cancelCutoffMinutes', 'duration', 'enabled'])
    .where('storeId', '=', storeId)
    .where('id', '=', courseId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

/** Whether the teacher gives the lesson type (lesson_teacher). */
export async function givesLesson(ex: Executor, courseId: number, teacherId: number): Promise<boolean> {
  const row = await ex
    .selectFrom('lessonTeacher')
    .select('teacherId')
    .where('courseId', '=', courseId)
    .where('teacherId', '=', teacherId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The rooms a lesson type may use, in id order (none: it needs no room). */
export async function lessonRooms(ex: Executor, storeId: number, courseId: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('lessonRoom')
    .select('areaId')
    .where('storeId', '=', storeId)
    .where('courseId', '=', courseId)
    .orderBy('areaId')
    .execute();
  return rows.map((r) => r.areaId);
}

/**
 * A live session of the store with its course's kind, cancel cutoff and most members (a lesson when
 * the kind is not 'group'); `withDeleted`: a deleted one too (its `deleted` says so: a released lesson).
 */
export function lessonOfSession(ex: Executor, storeId: number, sessionId: number, o: { withDeleted?: boolean } = {}) {
  let q = ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .select([
      't.id',
      't.teacherId',
      't.areaId',
      't.bookId',
      't.startTime',
      't.endTime',
      't.reservableCount',
      't.appointmentStatus',
      't.confirmDeadline',
      't.deleted',
      'c.kind',
      'c.enabled',
      'c.minNoticeMinutes',
      'c.cancelCutoffMinutes',
      'c.maxMembers',
    ])
    .where('t.storeId', '=', storeId)
    .where('t.id', '=', sessionId);
  if (!o.withDeleted) q = q.where('t.deleted', '=', 0);
  return q.executeTakeFirst();
}

/**
 * The live 小班 lessons of a type starting in [from, to) (store-local) that have a free place (fewer
 * members than the type's most), of one teacher when given, in start order, with the teacher's name.
 */
export function openSmallGroups(
  ex: Executor,
  storeId: number,
  q: { courseId: number; teacherId: number | null; from: string; to: string },
) {
  let s = ex
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .select([
      't.id',
      't.startTime',
      't.endTime',
      't.teacherId',
      'te.name as teacherName',
      't.realCount',
      't.appointmentStatus',
      'c.maxMembers',
    ])
    .where('t.storeId', '=', storeId)
    .where('t.courseId', '=', q.courseId)
    .where('t.deleted', '=', 0)
    .where('c.kind', '=', 'small_group')
    .where('t.startTime', '>=', q.from)
    .where('t.startTime', '<', q.to)
    .whereRef('t.realCount', '<', 'c.maxMembers');
  if (q.teacherId !== null) s = s.where('t.teacherId', '=', q.teacherId);
  return s.orderBy('t.startTime').orderBy('t.id').execute();
}
