import { LIVE_PENDING, LIVE_RESERVATION } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../../db/index.ts';
import { withCourseName } from '../course/repository.ts';
import { joinCardProduct } from '../../../db/joins.ts';

export type BookingScope = 'upcoming' | 'past';

/**
 * A member's live reservations and pending items (a signed-in pending already has its reservation,
 * so only pendings without one are listed), one row each, on sessions not deleted; `upcoming` keeps
 * sessions whose end is at or after `now`, `past` those that ended before it.
 */
function bookingsOf(ex: Executor, storeId: number, memberId: number, scope: BookingScope, now: string) {
  const op = scope === 'upcoming' ? '>=' : '<';
  const reservations = ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .select([
      sql<string>`'reservation'`.as('kind'),
      'r.id',
      'r.timetableId',
      'r.studentCount',
      'r.usedCount',
      (eb) => eb.ref('p.cardName').$castTo<string | null>().as('cardName'),
      'r.status',
      'r.createTime',
    ])
    .where('r.storeId', '=', storeId)
    .where('r.memberId', '=', memberId)
    .where('r.status', 'in', LIVE_RESERVATION)
    .where('t.deleted', '=', 0)
    .where('t.endTime', op, now);
  const pendings = ex
    .selectFrom('pending as pd')
    .innerJoin('timetable as t', 't.id', 'pd.timetableId')
    .select([
      sql<string>`'pending'`.as('kind'),
      'pd.id',
      'pd.timetableId',
      'pd.studentCount',
      sql<number>`0`.as('usedCount'),
      sql<string | null>`null`.as('cardName'),
      'pd.status',
      'pd.createTime',
    ])
    .where('pd.storeId', '=', storeId)
    .where('pd.memberId', '=', memberId)
    .where('pd.status', 'in', LIVE_PENDING)
    .where('pd.reservationId', 'is', null)
    .where('t.deleted', '=', 0)
    .where('t.endTime', op, now);
  return reservations.unionAll(pendings);
}

/** One page of a member's bookings with their sessions, plus the total. */
export async function memberBookingPage(
  ex: Executor,
  a: { storeId: number; memberId: number; scope: BookingScope; now: string; page: number; pageSize: number },
) {
  const all = bookingsOf(ex, a.storeId, a.memberId, a.scope, a.now).as('b');
  const dir = a.scope === 'upcoming' ? 'asc' : 'desc';
  const [list, total] = await Promise.all([
    ex
      .selectFrom(all)
      .innerJoin('timetable as t', 't.id', 'b.timetableId')
      .$call(withCourseName)
      .innerJoin('teacher as te', 'te.id', 't.teacherId')
      .leftJoin('area as ar', 'ar.id', 't.areaId')
      .select([
        'b.kind',
        'b.id',
        'b.timetableId',
        'te.name as teacherName',
        'ar.name as areaName',
        't.startTime',
        't.endTime',
        'b.studentCount',
        'b.usedCount',
        'b.cardName',
        'b.status',
        'b.createTime',
      ])
      .orderBy('t.startTime', dir)
      .orderBy('b.timetableId', dir)
      .orderBy('b.kind', dir)
      .orderBy('b.id', dir)
      .limit(a.pageSize)
      .offset((a.page - 1) * a.pageSize)
      .execute(),
    ex
      .selectFrom(all)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}
