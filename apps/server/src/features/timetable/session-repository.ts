import { DEDUCT_AT_SIGN_IN, MODULE_DEDUCTION_MODE } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { onPostgres } from '../../db/dialect.ts';
import { notFound } from '../../lib/errors.ts';
import { getModuleStatus } from '../reference/public.ts';

/** Store module 6: 0 deducts at booking, 1 only at on-site sign-in. */
export async function getDeductionMode(tx: Executor, storeId: number): Promise<0 | 1> {
  return (await getModuleStatus(tx, storeId, MODULE_DEDUCTION_MODE)) === DEDUCT_AT_SIGN_IN ? 1 : 0;
}

/**
 * A live (not deleted) session of the store, or 404 课程不存在. With `lock`, its row is locked for the
 * transaction on PostgreSQL (the first lock of the engine's order) in the same statement.
 */
export async function liveSession(tx: Executor, storeId: number, id: number, o: { lock?: boolean } = {}) {
  const q = tx
    .selectFrom('timetable')
    .selectAll()
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0);
  const s = await (o.lock && onPostgres(tx) ? q.forNoKeyUpdate() : q).executeTakeFirst();
  if (!s) throw notFound('课程');
  return s;
}

/** The session's start and end (deleted sessions too). */
export function sessionTimes(ex: Executor, id: number) {
  return ex.selectFrom('timetable').select(['startTime', 'endTime']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The card products allowed to book each of some sessions. */
export async function allowedCardsOf(ex: Executor, sessionIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await ex
    .selectFrom('timetableCard')
    .select(['timetableId', 'cardId'])
    .where('timetableId', 'in', [...new Set(sessionIds)])
    .execute();
  for (const r of rows) out.get(r.timetableId)?.push(r.cardId);
  return out;
}

/** A clashing session: its time and its course's name. */
export interface TeacherConflict {
  id: number;
  startTime: string;
  endTime: string;
  courseName: string;
}

/** Live sessions of the store on one teacher or area overlapping [startTime, endTime), in start order. */
export function overlappingSessions(
  ex: Executor,
  storeId: number,
  column: 't.teacherId' | 't.areaId',
  id: number,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<TeacherConflict[]> {
  let q = ex
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .select(['t.id', 't.startTime', 't.endTime', 'c.name as courseName'])
    .where('t.storeId', '=', storeId)
    .where(column, '=', id)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<', endTime)
    .where('t.endTime', '>', startTime);
  if (excludeId !== undefined) q = q.where('t.id', '<>', excludeId);
  return q.orderBy('t.startTime').execute();
}

/** Writes a new session with the card products allowed to book it; answers its id. */
export async function insertSession(tx: Tx, row: NewRow<'timetable'>, cardIds: readonly number[]): Promise<number> {
  const { id } = await tx.insertInto('timetable').values(row).returning('id').executeTakeFirstOrThrow();
  if (cardIds.length) {
    await tx
      .insertInto('timetableCard')
      .values(cardIds.map((cardId) => ({ storeId: row.storeId, timetableId: id, cardId })))
      .execute();
  }
  return id;
}

/**
 * Moves or edits a live session, guarded: false when its booked seats exceed the new capacity.
 */
export async function changeSession(
  tx: Tx,
  id: number,
  change: Pick<NewRow<'timetable'>, 'teacherId' | 'startTime' | 'endTime' | 'reservableCount' | 'areaId' | 'bookId'> & {
    reservableCount: number;
  },
): Promise<boolean> {
  const res = await tx
    .updateTable('timetable')
    .set(change)
    .where('id', '=', id)
    .where('realCount', '<=', change.reservableCount)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a live session of the store deleted; false when there is none (deleted or another store's). */
export async function markSessionDeleted(tx: Tx, storeId: number, id: number): Promise<boolean> {
  const res = await tx
    .updateTable('timetable')
    .set({ deleted: 1 })
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
