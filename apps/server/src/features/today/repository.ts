import type { Executor } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { withCourseName } from '../reference/public.ts';

/** A store's live sessions starting on one local date, in time order, with course, teacher and venue. */
export function sessionsOfDay(ex: Executor, storeId: number, date: string, teacherId?: number) {
  return sessionsBetween(ex, storeId, date, date, teacherId);
}

/** The same for the local dates `fromDate` to `toDate` (inclusive); the members' timetable too. */
export function sessionsBetween(
  ex: Executor,
  storeId: number,
  fromDate: string,
  toDate: string,
  /** Only this teacher's sessions (a teacher's own view). */
  teacherId?: number,
  /** Only group classes (the members' timetable: lessons, 私教/小班, are booked by their own path). */
  o: { groupClasses?: boolean } = {},
) {
  return ex
    .selectFrom('timetable as t')
    .$if(teacherId !== undefined, (q) => q.where('t.teacherId', '=', teacherId!))
    .$call(withCourseName)
    .$if(o.groupClasses === true, (q) => q.where('c.kind', '=', 'group'))
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', `${fromDate} 00:00:00`)
    .where('t.startTime', '<', `${addDays(toDate, 1)} 00:00:00`)
    .select([
      't.id',
      't.courseId',
      't.color',
      't.startTime',
      't.endTime',
      'te.name as teacherName',
      'a.name as areaName',
      't.reservableCount',
      't.realCount',
      't.waitCount',
      't.isOnline',
      'c.kind',
      't.appointmentStatus',
    ])
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
}
