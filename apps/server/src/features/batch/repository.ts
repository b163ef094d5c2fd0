import { LIVE_PENDING, LIVE_RESERVATION, PendingStatus, ReservationStatus } from '@studio/contract';
import { idChunks } from '../../db/chunks.ts';
import type { Executor, Tx } from '../../db/index.ts';
import { addDays, toDateTime } from '../../lib/time.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * The batch runs' repository: the sessions a run reads and writes in bulk (a range, a course's
 * upcoming sessions, many at once deleted with their bookings), the operation locks, and the trail
 * a preview reads back. The weekly template's rows live in `template-repository.ts`.
 */

// Sessions in a date range (batch delete, copy).

/**
 * Live sessions of a store starting within the inclusive store-local dates `from`..`to`,
 * optionally only in some venues.
 */
function sessionsInRange(ex: Executor, storeId: number, from: string, to: string, venueIds: number[] | null) {
  let q = ex
    .selectFrom('timetable as t')
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', toDateTime(from))
    .where('t.startTime', '<', toDateTime(addDays(to, 1)));
  if (venueIds) q = q.where('t.areaId', 'in', venueIds);
  return q;
}

/** The ids of the live sessions starting in the inclusive range (optionally some venues), by time. */
export function sessionIdsInRange(ex: Executor, storeId: number, from: string, to: string, venueIds: number[] | null) {
  return sessionsInRange(ex, storeId, from, to, venueIds)
    .select('t.id')
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
}

/** The live sessions starting in the inclusive range (optionally some venues), whole rows, by time. */
export function sessionRowsInRange(ex: Executor, storeId: number, from: string, to: string, venueIds: number[] | null) {
  return sessionsInRange(ex, storeId, from, to, venueIds)
    .selectAll('t')
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
}

/**
 * The live sessions starting in the inclusive range with what a weekly template row keeps of each
 * (course, teacher, venue, seats, material) and their names, by time (从课表生成).
 */
export function sessionsAsTemplateRows(ex: Executor, storeId: number, from: string, to: string) {
  return sessionsInRange(ex, storeId, from, to, null)
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .select([
      't.startTime',
      't.courseId',
      't.teacherId',
      'te.name as teacherName',
      't.areaId',
      'a.name as areaName',
      't.reservableCount',
      't.bookId',
    ])
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
}

// A course's sessions still to come (drop-in students).

/** What picks a course's upcoming sessions: from `startDate` on, not over at `now`, some teachers. */
export interface UpcomingFilter {
  storeId: number;
  courseId: number;
  startDate: string;
  now: string;
  teacherIds?: readonly number[];
}

/** Live sessions of a course from `startDate` on that are not over at `now`, optionally of some teachers. */
function upcoming(ex: Executor, f: UpcomingFilter) {
  let q = ex
    .selectFrom('timetable as t')
    .where('t.storeId', '=', f.storeId)
    .where('t.courseId', '=', f.courseId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', toDateTime(f.startDate))
    .where('t.endTime', '>', f.now);
  if (f.teacherIds) q = q.where('t.teacherId', 'in', f.teacherIds);
  return q;
}

/** The teachers (id, name) of a course's upcoming sessions, by id. */
export function teachersOfUpcoming(ex: Executor, f: UpcomingFilter) {
  return upcoming(ex, f)
    .innerJoin('teacher as th', 'th.id', 't.teacherId')
    .select(['th.id', 'th.name'])
    .distinct()
    .orderBy('th.id')
    .execute();
}

/** How many upcoming sessions of a course there are. */
export async function countUpcoming(ex: Executor, f: UpcomingFilter): Promise<number> {
  const row = await upcoming(ex, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The first `limit` upcoming sessions of a course (whole rows, by time) in which a member holds
 * neither a live booking nor a live pending.
 */
export function upcomingNotHeld(ex: Executor, f: UpcomingFilter, memberId: number, limit: number) {
  return upcoming(ex, f)
    .selectAll('t')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reservation as r')
            .select('r.id')
            .whereRef('r.timetableId', '=', 't.id')
            .where('r.memberId', '=', memberId)
            .where('r.status', 'in', LIVE_RESERVATION),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pending as p')
            .select('p.id')
            .whereRef('p.timetableId', '=', 't.id')
            .where('p.memberId', '=', memberId)
            .where('p.status', 'in', LIVE_PENDING),
        ),
      ),
    )
    .orderBy('t.startTime')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

// Sessions written in bulk (batch scheduling, the template run, copy).

/** The waiting pendings of some sessions with their member's name, gender and birthday, in id order. */
export function waitingPendingsWithMembers(ex: Executor, sessionIds: readonly number[]) {
  return ex
    .selectFrom('pending as p')
    .innerJoin('member as m', 'm.id', 'p.memberId')
    .select([
      'p.timetableId as sessionId',
      'p.memberId',
      'p.studentCount',
      'p.remark',
      'm.name',
      'm.gender',
      'm.birthday',
    ])
    .where('p.timetableId', 'in', sessionIds)
    .where('p.status', '=', PendingStatus.WAITING)
    .orderBy('p.id')
    .execute();
}

// Sessions deleted in bulk with their bookings (batch delete).

/** Marks the live sessions of the store among `ids` (at most a chunk) deleted; answers the ids it marked. */
export async function markSessionsDeleted(tx: Tx, storeId: number, ids: readonly number[]): Promise<number[]> {
  const rows = await tx
    .updateTable('timetable')
    .set({ deleted: 1 })
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The live bookings (booked or signed in) of some sessions: id, status and the pending each came from. */
export function liveBookingsOf(ex: Executor, sessionIds: readonly number[]) {
  return ex
    .selectFrom('reservation')
    .select(['id', 'status', 'pendingId'])
    .where('timetableId', 'in', sessionIds)
    .where('status', 'in', LIVE_RESERVATION)
    .execute();
}

/** The waiting pendings of some sessions and the pendings `linked` (id and status of each). */
export function pendingStatusesOf(ex: Executor, sessionIds: readonly number[], linked: readonly number[]) {
  return ex
    .selectFrom('pending')
    .select(['id', 'status'])
    .where((eb) =>
      eb.or([
        eb.and([eb('timetableId', 'in', sessionIds), eb('status', '=', PendingStatus.WAITING)]),
        ...(linked.length ? [eb('id', 'in', linked)] : []),
      ]),
    )
    .execute();
}

/** Cancels every live booking of some sessions; answers the cancelled rows. */
export function cancelLiveBookingsOf(tx: Tx, sessionIds: readonly number[], now: string) {
  return tx
    .updateTable('reservation')
    .set({ status: ReservationStatus.CANCELLED, cancelTime: now })
    .where('timetableId', 'in', sessionIds)
    .where('status', 'in', LIVE_RESERVATION)
    .returningAll()
    .execute();
}

/** Cancels pendings by id, a chunk per statement. */
export async function cancelPendingsById(tx: Tx, ids: readonly number[], now: string): Promise<void> {
  for (const part of idChunks(ids)) {
    await tx
      .updateTable('pending')
      .set({ status: PendingStatus.CANCELLED, cancelTime: now })
      .where('id', 'in', part)
      .execute();
  }
}

/** Cancels every waiting pending of some sessions; answers the cancelled rows. */
export function cancelWaitingPendingsOf(tx: Tx, sessionIds: readonly number[], now: string) {
  return tx
    .updateTable('pending')
    .set({ status: PendingStatus.CANCELLED, cancelTime: now })
    .where('timetableId', 'in', sessionIds)
    .where('status', '=', PendingStatus.WAITING)
    .returningAll()
    .execute();
}

// The trail a preview reads back.

/** The highest history and ledger ids written so far. */
export async function trailWatermark(tx: Tx): Promise<{ history: number; ledger: number }> {
  const [h, l] = await Promise.all([
    tx
      .selectFrom('history')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst(),
    tx
      .selectFrom('cardLedger')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst(),
  ]);
  return { history: Number(h?.id ?? 0), ledger: Number(l?.id ?? 0) };
}

/**
 * The store's trail above a watermark: each history row's type and member, and each deduction or
 * refund with its card's kind and member.
 */
export async function trailSince(tx: Tx, storeId: number, mark: { history: number; ledger: number }) {
  const [history, money] = await Promise.all([
    tx
      .selectFrom('history')
      .select(['operateType', 'memberId', 'timetableId'])
      .where('storeId', '=', storeId)
      .where('id', '>', mark.history)
      .orderBy('id')
      .execute(),
    tx
      .selectFrom('cardLedger as l')
      .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
      .$call(joinCardProduct())
      .select(['l.kind', 'l.amount', 'p.bigType', 'mc.memberId'])
      .where('l.storeId', '=', storeId)
      .where('l.id', '>', mark.ledger)
      .where('l.kind', 'in', ['deduct', 'refund'])
      .execute(),
  ]);
  return { history, money };
}

/** The highest session id written so far: sessions above it are what a run being previewed made. */
export async function sessionWatermark(tx: Tx): Promise<number> {
  const row = await tx
    .selectFrom('timetable')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Which sessions a preview lists: those of the store above a watermark (made), or some by id (in time order). */
export type ListedSessions = { afterId: number } | { ids: readonly number[] };

/**
 * Up to `limit` sessions of the store (deleted ones too: a batch delete's, read inside its own
 * transaction) with their course, teacher and venue names, by time, and how many `which` names.
 */
export async function previewSessions(ex: Executor, storeId: number, which: ListedSessions, limit: number) {
  let q = ex
    .selectFrom('timetable as t')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .where('t.storeId', '=', storeId);
  let total: number;
  if ('afterId' in which) {
    q = q.where('t.id', '>', which.afterId);
    const n = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    total = Number(n.n);
  } else {
    if (!which.ids.length) return { rows: [], total: 0 };
    q = q.where('t.id', 'in', which.ids.slice(0, limit));
    total = which.ids.length;
  }
  if (!total) return { rows: [], total };
  const rows = await q
    .$call(withCourseName)
    .select(['t.startTime', 't.endTime', 'te.name as teacherName', 'a.name as areaName'])
    .orderBy('t.startTime')
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return { rows, total };
}
