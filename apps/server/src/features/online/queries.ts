import type { Executor } from '../../db/index.ts';

/** A session with what online rooms and messages need: course and teacher, seats, online state. */
export async function onlineSession(db: Executor, id: number, storeId?: number) {
  let q = db
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .select([
      't.id',
      't.storeId',
      't.startTime',
      't.endTime',
      't.realCount',
      't.reservableCount',
      't.isOnline',
      't.meetingId',
      't.meetingInfo',
      't.meetingError',
      't.deleted',
      'c.name as courseName',
      'te.id as teacherId',
      'te.name as teacherName',
      'te.meetingType',
      'te.meetingCode',
      'te.joinUrl',
    ])
    .where('t.id', '=', id);
  if (storeId !== undefined) q = q.where('t.storeId', '=', storeId);
  return q.executeTakeFirst();
}
export type OnlineSession = NonNullable<Awaited<ReturnType<typeof onlineSession>>>;
