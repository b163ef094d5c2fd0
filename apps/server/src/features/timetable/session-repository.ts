import { MODULE_DEDUCTION_MODE } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { insertRows } from '../../db/bulk-insert.ts';
import { fixed, mapRead } from '../../db/fixed.ts';
import type { AgeLimitColumns, NewRow, TimetableTable } from '../../db/schema.ts';
import { onPostgres } from '../../db/dialect.ts';
import { notFound } from '../../lib/errors.ts';
import { deductionModeOf } from '../policy/rules.ts';
import { holdsSession } from './booking-repository.ts';
import { getModuleStatus, withCourseName } from '../reference/public.ts';

/** Store module 6: 0 deducts at booking, 1 only at on-site sign-in. */
export async function getDeductionMode(tx: Executor, storeId: number): Promise<0 | 1> {
  return deductionModeOf(await getModuleStatus(tx, storeId, MODULE_DEDUCTION_MODE));
}

const liveSessionRow = fixed(
  (tx, p: { storeId: number; id: number; holder: number | undefined; lock: true | undefined }) =>
    tx
      .selectFrom('timetable as t')
      .selectAll('t')
      .$if(p.holder !== undefined, (q) =>
        q.select((eb) =>
          holdsSession(eb, eb.selectFrom('memberCard').select('memberId').where('id', '=', p.holder!).$asScalar()).as(
            'holderHolds',
          ),
        ),
      )
      .where('t.id', '=', p.id)
      .where('t.storeId', '=', p.storeId)
      .where('t.deleted', '=', 0)
      .$if(p.lock !== undefined, (q) => q.forNoKeyUpdate()),
);

/**
 * A live (not deleted) session of the store, or 404 课程不存在. With `lock`, its row is locked for the
 * transaction on PostgreSQL (the first lock of the engine's order) in the same statement. With
 * `heldByHolderOf` (a member card's id), it also says whether that card's holder already holds a
 * live booking or pending of it (`holderHolds`), in the same statement: a booking reads one row less.
 */
export async function liveSession(
  tx: Executor,
  storeId: number,
  id: number,
  o: { lock?: boolean; heldByHolderOf?: number } = {},
) {
  const s = await liveSessionRow.first(tx, {
    storeId,
    id,
    holder: o.heldByHolderOf,
    lock: o.lock && onPostgres(tx) ? true : undefined,
  });
  if (!s) throw notFound('课程');
  return s;
}

/** `liveSession` (without a lock) as a read to send with others: 404 课程不存在 when its value is taken. */
export function liveSessionRead(tx: Executor, storeId: number, id: number, o: { heldByHolderOf?: number } = {}) {
  return mapRead(liveSessionRow.plan(tx, { storeId, id, holder: o.heldByHolderOf, lock: undefined }), ([s]) => {
    if (!s) throw notFound('课程');
    return s;
  });
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
    .$call(withCourseName)
    .select(['t.id', 't.startTime', 't.endTime'])
    .where('t.storeId', '=', storeId)
    .where(column, '=', id)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<', endTime)
    .where('t.endTime', '>', startTime);
  if (excludeId !== undefined) q = q.where('t.id', '<>', excludeId);
  return q.orderBy('t.startTime').execute();
}

/** The machines the lessons of some courses use: how many one member takes, and how many the store has. */
export function equipmentOfCourses(ex: Executor, storeId: number, courseIds: readonly number[]) {
  if (!courseIds.length) return Promise.resolve([]);
  return ex
    .selectFrom('lessonEquipment as le')
    .innerJoin('equipment as e', 'e.id', 'le.equipmentId')
    .select(['le.courseId', 'le.equipmentId', 'le.perMember', 'e.name', 'e.count'])
    .where('le.storeId', '=', storeId)
    .where('le.courseId', 'in', [...new Set(courseIds)])
    .where('e.deleted', '=', 0)
    .execute();
}

/**
 * Live sessions of the store overlapping [startTime, endTime) whose course uses a machine, each with
 * the machines it holds: its booked members x the machines one member uses.
 */
export async function equipmentClaims(
  ex: Executor,
  storeId: number,
  equipmentId: number,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<{ id: number; startTime: string; endTime: string; units: number }[]> {
  let q = ex
    .selectFrom('timetable as t')
    .innerJoin('lessonEquipment as le', 'le.courseId', 't.courseId')
    .select(['t.id', 't.startTime', 't.endTime', 't.realCount', 'le.perMember'])
    .where('t.storeId', '=', storeId)
    .where('le.equipmentId', '=', equipmentId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<', endTime)
    .where('t.endTime', '>', startTime);
  if (excludeId !== undefined) q = q.where('t.id', '<>', excludeId);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    startTime: r.startTime,
    endTime: r.endTime,
    units: Number(r.realCount) * Number(r.perMember),
  }));
}

/** Confirms a lesson waiting for its teacher (待确认), guarded: false when it is not a live pending lesson. */
export async function confirmAppointment(tx: Tx, storeId: number, id: number): Promise<boolean> {
  const res = await tx
    .updateTable('timetable')
    .set({ appointmentStatus: 'confirmed', confirmDeadline: null })
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('appointmentStatus', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Live lessons still waiting for their teacher (待确认), with their stores and confirm deadlines (store-local). */
export function unconfirmedLessons(ex: Executor) {
  return ex
    .selectFrom('timetable')
    .select(['id', 'storeId', 'confirmDeadline'])
    .where('deleted', '=', 0)
    .where('appointmentStatus', '=', 'pending')
    .orderBy('id')
    .execute();
}

/**
 * Writes a new session with the card products allowed to book it; answers its id. Not public: the
 * engine's writers (createSession, writeSessions) call it after the clash rule (clashes.ts).
 */
export async function insertSession(tx: Tx, row: NewRow<'timetable'>, cardIds: readonly number[]): Promise<number> {
  const { id } = await tx.insertInto('timetable').values(row).returning('id').executeTakeFirstOrThrow();
  await insertAllowedCards(
    tx,
    cardIds.map((cardId) => ({ storeId: row.storeId, timetableId: id, cardId })),
  );
  return id;
}

/** Where and when a new session is, and its seats. */
export type SessionSlot = Pick<
  TimetableTable,
  'courseId' | 'teacherId' | 'startTime' | 'endTime' | 'reservableCount' | 'realCount' | 'isOnline'
> & { venueId: number | null; materialId: number | null };

/**
 * The row of a new session with the colour and gender and age limits of `limits`: its course's for
 * a planned session, the source's own for a copy (edited per session, they may differ from its course's).
 */
export function sessionRow(storeId: number, s: SessionSlot, limits: AgeLimitColumns & { color: string }, now: string) {
  return {
    storeId,
    courseId: s.courseId,
    teacherId: s.teacherId,
    areaId: s.venueId,
    bookId: s.materialId,
    startTime: s.startTime,
    endTime: s.endTime,
    reservableCount: s.reservableCount,
    realCount: s.realCount,
    isOnline: s.isOnline,
    color: limits.color,
    genderLimit: limits.genderLimit,
    ageLimit: limits.ageLimit,
    syear: limits.syear,
    smonth: limits.smonth,
    sday: limits.sday,
    eyear: limits.eyear,
    emonth: limits.emonth,
    eday: limits.eday,
    deleted: 0,
    createdAt: now,
  };
}

/**
 * Inserts session rows in multi-row statements; answers each one's id, teacher and start (in no set
 * order). Not public: only writeSessions calls it, after the clash rule (clashes.ts).
 */
export function insertSessionRows(tx: Tx, rows: readonly NewRow<'timetable'>[]) {
  return insertRows(tx, 'timetable', rows, ['id', 'teacherId', 'startTime']);
}

/** Inserts the card products allowed per session, in multi-row statements. */
export async function insertAllowedCards(tx: Tx, rows: readonly NewRow<'timetableCard'>[]): Promise<void> {
  await insertRows(tx, 'timetableCard', rows);
}

/**
 * Moves or edits a live session, guarded: false when its booked seats exceed the new capacity.
 */
export async function changeSession(
  tx: Tx,
  id: number,
  change: Pick<NewRow<'timetable'>, 'teacherId' | 'startTime' | 'endTime'> & {
    reservableCount: number;
    venueId: number | null;
    materialId: number | null;
  },
): Promise<boolean> {
  const { venueId, materialId, ...rest } = change;
  const res = await tx
    .updateTable('timetable')
    .set({ ...rest, areaId: venueId, bookId: materialId })
    .where('id', '=', id)
    .where('realCount', '<=', change.reservableCount)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Raises a live lesson's capacity to its seats + 1 when none of its seats is free, never past `max`
 * (guarded in the UPDATE): room for one more member, whose booking then takes the seat (itself guarded).
 */
export async function raiseCapacity(tx: Tx, id: number, max: number): Promise<void> {
  await tx
    .updateTable('timetable')
    .set((eb) => ({ reservableCount: eb('realCount', '+', 1) }))
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .where('realCount', '<', max)
    .whereRef('reservableCount', '<=', 'realCount')
    .execute();
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

/** Sets a session's own limits and colour (a copy takes its source's, which may differ from its course's). */
export async function setSessionLimits(
  tx: Tx,
  id: number,
  limits: Pick<
    NewRow<'timetable'>,
    'color' | 'genderLimit' | 'ageLimit' | 'syear' | 'smonth' | 'sday' | 'eyear' | 'emonth' | 'eday'
  >,
): Promise<void> {
  await tx.updateTable('timetable').set(limits).where('id', '=', id).execute();
}

/** Replaces the card products allowed to book a session. */
export async function replaceSessionCards(
  tx: Tx,
  storeId: number,
  sessionId: number,
  cardIds: readonly number[],
): Promise<void> {
  await tx.deleteFrom('timetableCard').where('timetableId', '=', sessionId).execute();
  await insertAllowedCards(
    tx,
    cardIds.map((cardId) => ({ storeId, timetableId: sessionId, cardId })),
  );
}
