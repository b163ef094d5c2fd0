import { WaitStatus } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * A wait's place in its session's queue (1 = next), as a column of a query over `waitlist as w`:
 * the waiting rows of the same session up to it.
 */
export const queuePosition = sql<number>`(select count(*) from waitlist ahead where ahead.timetable_id = w.timetable_id and ahead.status = ${WaitStatus.WAITING} and ahead.id <= w.id)`;

type Wait = { id: number; timetableId: number };

/** The waiting rows of a session, first in line first, with member, card and who queued them. */
export function waitingOf(db: Executor, storeId: number, sessionId: number) {
  return db
    .selectFrom('waitlist as w')
    .innerJoin('member as m', 'm.id', 'w.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'w.memberCardId')
    .$call(joinCardProduct())
    .leftJoin('staff as s', 's.id', 'w.operatorId')
    .select([
      'w.id',
      'w.memberId',
      'w.memberCardId',
      'w.studentCount',
      'w.operatorId',
      'w.skipReason',
      'w.createTime',
      'm.name as memberName',
      'm.mobile',
      'p.cardName',
      'p.bigType',
      's.name as operator',
    ])
    .where('w.storeId', '=', storeId)
    .where('w.timetableId', '=', sessionId)
    .where('w.status', '=', WaitStatus.WAITING)
    .orderBy('w.id')
    .execute();
}

/** A member's waiting row of a session, if any. */
export function waitingRowOf(db: Executor, sessionId: number, memberId: number) {
  return db
    .selectFrom('waitlist')
    .select('id')
    .where('timetableId', '=', sessionId)
    .where('memberId', '=', memberId)
    .where('status', '=', WaitStatus.WAITING)
    .executeTakeFirst();
}

/** Queues a wait; answers its id. */
export async function insertWait(db: Executor, row: NewRow<'waitlist'>): Promise<number> {
  const { id } = await db.insertInto('waitlist').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** A wait of the store by id. */
export function findWait(db: Executor, storeId: number, id: number) {
  return db.selectFrom('waitlist').selectAll().where('id', '=', id).where('storeId', '=', storeId).executeTakeFirst();
}

/** A session of the store (deleted ones too) with its seats and its waiting count, or undefined. */
export function queueSession(db: Executor, storeId: number, sessionId: number) {
  return db
    .selectFrom('timetable')
    .select(['id', 'startTime', 'reservableCount', 'realCount', 'waitCount', 'deleted'])
    .where('id', '=', sessionId)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
}

/** A store's sessions with waits that start at `by` or earlier, in id order, at most 500 (the job's batch). */
export function sessionsWithWaitsBy(db: Executor, storeId: number, by: string) {
  return db
    .selectFrom('timetable')
    .select('id')
    .where('storeId', '=', storeId)
    .where('waitCount', '>', 0)
    .where('startTime', '<=', by)
    .orderBy('id')
    .limit(500)
    .execute();
}

/** Moves a session's waiting count (every queue change also locks and versions the session row). */
export async function addWaitCount(db: Executor, sessionId: number, delta: number) {
  await db
    .updateTable('timetable')
    .set((eb) => ({ waitCount: eb('waitCount', '+', delta) }))
    .where('id', '=', sessionId)
    .execute();
}

/**
 * Ends waiting rows (guarded: only those still waiting) with a new status; answers the rows it
 * ended so the caller can move the sessions' counts.
 */
export async function endWaits(
  db: Executor,
  where: { ids: number[] } | { sessionId: number },
  status: number,
  endTime: string,
): Promise<Wait[]> {
  let q = db.updateTable('waitlist').set({ status, endTime }).where('status', '=', WaitStatus.WAITING);
  q = 'ids' in where ? q.where('id', 'in', where.ids) : q.where('timetableId', '=', where.sessionId);
  return q.returning(['id', 'timetableId']).execute();
}

/** The booking or pending a promoted wait became. */
export async function setResult(
  db: Executor,
  id: number,
  r: { reservationId: number | null; pendingId: number | null },
) {
  await db.updateTable('waitlist').set(r).where('id', '=', id).execute();
}

/** Keeps why the last promotion passed a waiting member over. */
export async function setSkipReason(db: Executor, id: number, reason: string) {
  await db.updateTable('waitlist').set({ skipReason: reason }).where('id', '=', id).execute();
}

/** Where a waiting row stands in its queue: 1 = next. */
export async function positionOf(db: Executor, sessionId: number, id: number) {
  const row = await db
    .selectFrom('waitlist')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('timetableId', '=', sessionId)
    .where('status', '=', WaitStatus.WAITING)
    .where('id', '<=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A member's waits, newest first (the last 30), with the session and card, and positions of the waiting ones. */
export async function waitsOfMember(db: Executor, storeId: number, memberId: number) {
  const rows = await db
    .selectFrom('waitlist as w')
    .innerJoin('timetable as t', 't.id', 'w.timetableId')
    .$call(withCourseName)
    .innerJoin('memberCard as mc', 'mc.id', 'w.memberCardId')
    .$call(joinCardProduct())
    .select([
      'w.id',
      'w.status',
      'w.timetableId as sessionId',
      't.startTime',
      'p.cardName',
      'w.studentCount',
      'w.skipReason',
      'w.createTime',
      'w.endTime',
      queuePosition.as('position'),
    ])
    .where('w.storeId', '=', storeId)
    .where('w.memberId', '=', memberId)
    .orderBy('w.id', 'desc')
    .limit(30)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    position: r.status === WaitStatus.WAITING ? Number(r.position) : null,
    session: { id: r.sessionId, courseName: r.courseName, startTime: r.startTime },
    cardName: r.cardName,
    studentCount: r.studentCount,
    skipReason: r.skipReason,
    createTime: r.createTime,
    endTime: r.endTime,
  }));
}
