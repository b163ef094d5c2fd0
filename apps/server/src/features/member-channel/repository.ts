import { LIVE_RESERVATION, PendingStatus, WaitStatus } from '@studio/contract';
import { sql, type SqlBool } from 'kysely';
import { dataVersionRead } from '../../db/data-version.ts';
import { fixed, noRead, readTogether, type ReadValue } from '../../db/fixed.ts';
import type { Executor } from '../../db/index.ts';
import { suspensionFactsRead } from '../no-show/public.ts';
import { bookingRulesRead, policyRead } from '../policy/public.ts';
import { booksOnCard } from '../cards/public.ts';
import { bookingContextRead, holdsSession, missedSql, type BookingAsked } from '../timetable/public.ts';
import { queuePosition } from '../waitlist/public.ts';
import { withCourseName, withCourseNameIfAny } from '../reference/public.ts';
import { joinCardProduct, leftJoinCardProduct } from '../../db/joins.ts';

/**
 * The queries of the members' channel: what a member holds of the store's sessions (bookings,
 * pendings, waits), their cards' ledger, self check-in, and the store's logo and check-in secret.
 * Login codes and member sessions are in `member-auth-repository.ts`.
 */

/** A card of the store the member books on (held by them or shared with them: 多人共享; its id), or undefined. */
export function findCardBookedOnBy(ex: Executor, storeId: number, memberId: number, memberCardId: number) {
  return ex
    .selectFrom('memberCard as mc')
    .select('mc.id')
    .where('mc.id', '=', memberCardId)
    .where('mc.storeId', '=', storeId)
    .where((eb) => booksOnCard(eb, memberId))
    .executeTakeFirst();
}

/**
 * What the member holds of the store's sessions starting in [from, to), as one statement (a read to
 * send with others): live bookings (booked or signed in, with what each took of which kind of card),
 * pendings waiting for sign-in, and waits still in the queue (with their place, 1 = next). Each over
 * the member's index (member_id first).
 */
const memberState = fixed((ex, p: { storeId: number; memberId: number; from: string; to: string }) => {
  const inRange = () =>
    ex
      .selectFrom('timetable')
      .select('id')
      .where('storeId', '=', p.storeId)
      // Live sessions only, as the range the timetable shows (the overlay drops any other): and so
      // the (store_id, deleted, start_time) index seeks the range instead of walking the store's
      // every session (0.28 ms of a read: bench/README.md, the release rush).
      .where('deleted', '=', 0)
      .where('startTime', '>=', p.from)
      .where('startTime', '<', p.to);
  const bookings = ex
    .selectFrom('reservation as r')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .select([
      sql<'booking' | 'pending' | 'wait'>`'booking'`.as('kind'),
      'r.id',
      'r.timetableId as sessionId',
      (eb) => eb.ref('r.status').$castTo<number | null>().as('status'),
      (eb) => eb.ref('r.usedCount').$castTo<number | null>().as('usedCount'),
      (eb) => eb.ref('p.bigType').$castTo<number | null>().as('bigType'),
      sql<number | null>`cast(null as integer)`.as('position'),
    ])
    .where('r.memberId', '=', p.memberId)
    .where('r.timetableId', 'in', inRange())
    .where('r.status', 'in', LIVE_RESERVATION);
  const pendings = ex
    .selectFrom('pending as pe')
    .select([
      sql<'pending'>`'pending'`.as('kind'),
      'pe.id',
      'pe.timetableId as sessionId',
      sql<null>`cast(null as integer)`.as('status'),
      sql<null>`cast(null as integer)`.as('usedCount'),
      sql<null>`cast(null as integer)`.as('bigType'),
      sql<null>`cast(null as integer)`.as('position'),
    ])
    .where('pe.memberId', '=', p.memberId)
    .where('pe.timetableId', 'in', inRange())
    .where('pe.status', '=', PendingStatus.WAITING);
  const waits = ex
    .selectFrom('waitlist as w')
    .select([
      sql<'wait'>`'wait'`.as('kind'),
      'w.id',
      'w.timetableId as sessionId',
      sql<null>`cast(null as integer)`.as('status'),
      sql<null>`cast(null as integer)`.as('usedCount'),
      sql<null>`cast(null as integer)`.as('bigType'),
      sql<number>`cast(${queuePosition} as integer)`.as('position'),
    ])
    .where('w.memberId', '=', p.memberId)
    .where('w.timetableId', 'in', inRange())
    .where('w.status', '=', WaitStatus.WAITING);
  return bookings.unionAll(pendings).unionAll(waits);
});

const memberStateRead = (ex: Executor, storeId: number, memberId: number, range: { from: string; to: string }) =>
  memberState.plan(ex, { storeId, memberId, ...range });

/** What a member holds of a range's sessions: their bookings, pendings and waits. */
export type MemberState = ReadValue<ReturnType<typeof memberStateRead>>;

/**
 * What the members' timetable reads on every call, in one round trip on PostgreSQL: the range's
 * data version (the key of the sessions' cache), the store's policy and what the member holds there
 * (nothing for `memberId` null: the public page).
 */
export function loadTimetableState(
  ex: Executor,
  storeId: number,
  memberId: number | null,
  range: { from: string; to: string },
) {
  return readTogether(ex, {
    version: dataVersionRead(ex, storeId, range.from, range.to),
    policy: policyRead(ex, storeId),
    held: memberId === null ? noRead<MemberState>([]) : memberStateRead(ex, storeId, memberId, range),
  });
}

/**
 * A member's booking's reads, in one round trip on PostgreSQL: the session and the card
 * (`bookingContextRead`), the store's rules and what the member's suspension is decided from.
 * 404 课程不存在, then 404 会员卡不存在.
 */
export function loadMemberBookingContext(ex: Executor, b: BookingAsked & { memberId: number }) {
  return readTogether(ex, {
    booking: bookingContextRead(ex, b),
    rules: bookingRulesRead(ex, b.storeId),
    suspension: suspensionFactsRead(ex, b.storeId, b.memberId, b.now),
  });
}

/** The session columns of a member's bookings, pendings and waits (`t`, `c`, `te`, `a`). */
const sessionCols = [
  't.id as sessionId',
  't.startTime',
  't.endTime',
  't.isOnline',
  't.meetingInfo',
  'te.name as teacherName',
  'a.name as areaName',
] as const;

/**
 * The sessions whose bookings and pendings 我的预约 lists: those not deleted, and lessons (私教/小班)
 * even once deleted — a lesson's session exists only for its bookings and is deleted when its last
 * one is cancelled or it is released unconfirmed, yet the member's cancelled booking still shows as
 * 已取消, as a cancelled booking of a group class does.
 */
const listedSession = sql<SqlBool>`(${sql.ref('t.deleted')} = 0 or ${sql.ref('t.appointmentStatus')} is not null)`;

/**
 * Every booking of the member on the sessions 我的预约 lists (`listedSession`), with its session and card; `missed`: a
 * no-show of 预约即扣费 at `now` (not marked 到店 in a class whose attendance was taken).
 */
export function reservationsOfMember(ex: Executor, storeId: number, memberId: number, now: string) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .select([
      ...sessionCols,
      'r.id',
      'r.status',
      'r.studentCount',
      'r.usedCount',
      'r.attendedTime',
      'r.pendingId',
      'r.forfeited',
      'r.waivedTime',
      sql<number>`case when ${missedSql('r', 't', now)} then 1 else 0 end`.as('missed'),
      // A lesson (私教/小班): its state (待确认, confirmed) and its type's cancel cutoff; null: a group class.
      't.appointmentStatus',
      'c.cancelCutoffMinutes',
      'mc.id as memberCardId',
      'p.cardName',
      'p.bigType',
    ])
    .where('r.storeId', '=', storeId)
    .where('r.memberId', '=', memberId)
    .where(listedSession)
    .execute();
}

/**
 * The member's pendings waiting, cancelled or not shown on the sessions 我的预约 lists, with their session
 * and card (when one was named). One that became a booking (signed in, or kept as a late cancel
 * that charged its card) is left out: it shows as that booking.
 */
export function pendingsOfMember(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('pending as pe')
    .innerJoin('timetable as t', 't.id', 'pe.timetableId')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .leftJoin('memberCard as mc', 'mc.id', 'pe.memberCardId')
    .$call(leftJoinCardProduct())
    .select([
      ...sessionCols,
      'pe.id',
      'pe.status',
      'pe.studentCount',
      'pe.noShowFee',
      // A lesson's state and its type's cancel cutoff, as a booking's (null: a group class).
      't.appointmentStatus',
      'c.cancelCutoffMinutes',
      'mc.id as memberCardId',
      'p.cardName',
      'p.bigType',
    ])
    .where('pe.storeId', '=', storeId)
    .where('pe.memberId', '=', memberId)
    .where('pe.status', 'in', [PendingStatus.WAITING, PendingStatus.CANCELLED, PendingStatus.NO_SHOW])
    .where('pe.reservationId', 'is', null)
    .where(listedSession)
    .execute();
}

/** The member's waits, waiting or ended, with their session, card and place in the queue. */
export function queueEntriesOfMember(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('waitlist as w')
    .innerJoin('timetable as t', 't.id', 'w.timetableId')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .innerJoin('memberCard as mc', 'mc.id', 'w.memberCardId')
    .$call(joinCardProduct())
    .select([
      ...sessionCols,
      'w.id',
      'w.status',
      'w.studentCount',
      'mc.id as memberCardId',
      'p.cardName',
      'p.bigType',
      queuePosition.as('position'),
    ])
    .where('w.storeId', '=', storeId)
    .where('w.memberId', '=', memberId)
    .where('w.status', 'in', [WaitStatus.WAITING, WaitStatus.ENDED])
    .execute();
}

/** The newest 200 ledger entries of the given cards of the store, with the course they were for. */
export function recentLedgerOf(ex: Executor, storeId: number, memberCardIds: readonly number[]) {
  return ex
    .selectFrom('cardLedger as l')
    .leftJoin('timetable as t', 't.id', 'l.timetableId')
    .$call(withCourseNameIfAny)
    .leftJoin('member as bm', 'bm.id', 'l.memberId')
    .select([
      'l.id',
      'l.memberCardId',
      'l.kind',
      'l.amount',
      'l.createdAt',
      'l.remark',
      'l.memberId',
      'bm.name as bookedBy',
    ])
    .where('l.storeId', '=', storeId)
    .where('l.memberCardId', 'in', memberCardIds)
    .orderBy('l.createdAt', 'desc')
    .orderBy('l.id', 'desc')
    .limit(200)
    .execute();
}

/**
 * The member's first session (by start, then id) of the store, not deleted, starting by `startsBy`
 * and ending after `endsAfter`, that they hold a live booking or a waiting pending of; only session
 * `sessionId` when given.
 */
export function checkInSessionOf(
  ex: Executor,
  storeId: number,
  memberId: number,
  o: { startsBy: string; endsAfter: string; sessionId?: number },
) {
  let q = ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .select(['t.id', 't.startTime'])
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<=', o.startsBy)
    .where('t.endTime', '>', o.endsAfter)
    .where((eb) => holdsSession(eb, memberId, [PendingStatus.WAITING]))
    .orderBy('t.startTime')
    .orderBy('t.id');
  if (o.sessionId !== undefined) q = q.where('t.id', '=', o.sessionId);
  return q.executeTakeFirst();
}

/** The member's pending waiting for sign-in on a session (id and card), or undefined. */
export function waitingPendingOf(ex: Executor, sessionId: number, memberId: number) {
  return ex
    .selectFrom('pending')
    .select(['id', 'memberCardId'])
    .where('timetableId', '=', sessionId)
    .where('memberId', '=', memberId)
    .where('status', '=', PendingStatus.WAITING)
    .executeTakeFirst();
}
