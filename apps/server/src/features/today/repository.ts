import { LIVE_RESERVATION, PendingStatus } from '@studio/contract';
import { sql } from 'kysely';
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
    ])
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
}

/**
 * The rosters of the given sessions: live bookings (booked, marked 到店 or signed in) and pendings
 * still waiting (a signed-in pending appears as its booking), in no particular order.
 */
export function rostersOf(ex: Executor, storeId: number, sessionIds: number[]) {
  const bookings = ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .where('r.storeId', '=', storeId)
    .where('r.timetableId', 'in', sessionIds)
    .where('r.status', 'in', LIVE_RESERVATION)
    .select([
      sql<'booking' | 'pending'>`'booking'`.as('kind'),
      'r.id',
      'r.timetableId as sessionId',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
      (eb) => eb.ref('r.memberCardId').$castTo<number | null>().as('memberCardId'),
      (eb) => eb.ref('p.cardName').$castTo<string | null>().as('cardName'),
      'r.studentCount',
      'r.status',
      'r.attendedTime',
      'r.remark',
      'r.createTime',
    ]);
  const pendings = ex
    .selectFrom('pending as pd')
    .innerJoin('member as m', 'm.id', 'pd.memberId')
    .where('pd.storeId', '=', storeId)
    .where('pd.timetableId', 'in', sessionIds)
    .where('pd.status', '=', PendingStatus.WAITING)
    .select([
      sql<'booking' | 'pending'>`'pending'`.as('kind'),
      'pd.id',
      'pd.timetableId as sessionId',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
      sql<number | null>`null`.as('memberCardId'),
      sql<string | null>`null`.as('cardName'),
      'pd.studentCount',
      sql<number>`0`.as('status'),
      sql<string | null>`null`.as('attendedTime'),
      'pd.remark',
      'pd.createTime',
    ]);
  return bookings.unionAll(pendings).execute();
}
