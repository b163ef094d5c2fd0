import { LEAD_TRIAL_STATUS as S } from '@studio/contract';
import { sql } from 'kysely';
import { onPostgres } from '../../db/dialect.ts';
import type { Executor, Tx } from '../../db/index.ts';
import { withCourseName } from '../reference/public.ts';

/** The trial classes' repository (体验课, issue 44 item 3): a lead's seat in a session without a card. */

/** The lead's stage, its row locked on PostgreSQL (after its session's: the engine's order); undefined when none. */
export function lockedLeadStage(tx: Tx, storeId: number, leadId: number) {
  return tx
    .selectFrom('lead')
    .select(['stage'])
    .where('storeId', '=', storeId)
    .where('id', '=', leadId)
    .$if(onPostgres(tx), (q) => q.forNoKeyUpdate())
    .executeTakeFirst();
}

/**
 * A course's kind ('group': a group class; else a private or small-group lesson type); with
 * `storeId`, only a course of that store not deleted (undefined otherwise).
 */
export async function courseKind(ex: Executor, courseId: number, storeId?: number): Promise<string | undefined> {
  const r = await ex
    .selectFrom('course')
    .select('kind')
    .where('id', '=', courseId)
    .$if(storeId !== undefined, (q) => q.where('storeId', '=', storeId!).where('deleted', '=', 0))
    .executeTakeFirst();
  return r?.kind;
}

/** Whether the lead holds a trial still booked (not attended, not cancelled). */
export async function hasLiveTrial(ex: Executor, leadId: number): Promise<boolean> {
  const r = await ex
    .selectFrom('leadTrial')
    .select('id')
    .where('leadId', '=', leadId)
    .where('status', '=', S.BOOKED)
    .executeTakeFirst();
  return r !== undefined;
}

/** Writes a booked trial; a second booked trial of the lead at once fails on `lead_trial_live_uq`. */
export function insertTrial(
  tx: Tx,
  row: { storeId: number; leadId: number; timetableId: number; stageBefore: string; operatorId: number; now: string },
) {
  return tx
    .insertInto('leadTrial')
    .values({
      storeId: row.storeId,
      leadId: row.leadId,
      timetableId: row.timetableId,
      stageBefore: row.stageBefore,
      operatorId: row.operatorId,
      teacherId: null,
      createTime: row.now,
      attendedTime: null,
      cancelTime: null,
      memberId: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Writes a paid trial riding on the member's booking (no seat of its own); undefined when the lead
 * got a booked trial meanwhile (another instance: `lead_trial_live_uq`, nothing written).
 */
export async function insertPaidTrial(
  tx: Tx,
  row: { storeId: number; leadId: number; timetableId: number; memberId: number; stageBefore: string; now: string },
) {
  const r = await tx
    .insertInto('leadTrial')
    .values({
      storeId: row.storeId,
      leadId: row.leadId,
      timetableId: row.timetableId,
      memberId: row.memberId,
      stageBefore: row.stageBefore,
      operatorId: null,
      teacherId: null,
      createTime: row.now,
      attendedTime: null,
      cancelTime: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/** The booked paid trial riding on the member's booking in the session, if any. */
export function paidTrialOf(ex: Executor, sessionId: number, memberId: number) {
  return ex
    .selectFrom('leadTrial')
    .select(['id', 'leadId', 'stageBefore'])
    .where('timetableId', '=', sessionId)
    .where('memberId', '=', memberId)
    .where('status', '=', S.BOOKED)
    .executeTakeFirst();
}

/** The lead booked a trial: 已约体验 (marking 已联系 and 已约体验 of the funnel), guarded on the stage read. */
export async function markTrialBooked(tx: Tx, storeId: number, leadId: number, stageBefore: string, now: string) {
  const r = await tx
    .updateTable('lead')
    .set((eb) => ({
      stage: 'trial_booked',
      touchedAt: now,
      contactedAt: eb.fn.coalesce('contactedAt', eb.val(now)),
      trialBookedAt: eb.fn.coalesce('trialBookedAt', eb.val(now)),
    }))
    .where('storeId', '=', storeId)
    .where('id', '=', leadId)
    .where('stage', '=', stageBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Trials with their session (`lt`, `t`): each one's id, lead, class, times, course and status. */
const trialRows = (ex: Executor) =>
  withCourseName(ex.selectFrom('leadTrial as lt').innerJoin('timetable as t', 't.id', 'lt.timetableId')).select([
    'lt.id',
    'lt.leadId',
    'lt.timetableId as sessionId',
    'lt.status',
    'lt.memberId',
    't.startTime',
    't.endTime',
  ]);

/** A trial of the store with its session (times, teacher, course) and its lead's owner; undefined when none. */
export function trialOf(ex: Executor, storeId: number, id: number) {
  return trialRows(ex)
    .innerJoin('lead as l', 'l.id', 'lt.leadId')
    .select(['lt.stageBefore', 't.teacherId', 't.courseId', 'l.name as leadName', 'l.mobile', 'l.ownerId'])
    .where('lt.id', '=', id)
    .where('lt.storeId', '=', storeId)
    .executeTakeFirst();
}

/**
 * A booked trial's one guarded move: cancelled, or 到店 with the class's teacher; false when it was
 * not booked any more (a concurrent cancel or mark moved it first).
 */
export async function moveBookedTrial(
  tx: Tx,
  id: number,
  to: { move: 'cancel'; now: string } | { move: 'attend'; now: string; teacherId: number },
) {
  const set =
    to.move === 'cancel'
      ? { status: S.CANCELLED, cancelTime: to.now }
      : { status: S.ATTENDED, attendedTime: to.now, teacherId: to.teacherId };
  const r = await tx
    .updateTable('leadTrial')
    .set(set)
    .where('id', '=', id)
    .where('status', '=', S.BOOKED)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A trial's cancel puts the lead back where it was, while it is still 已约体验 (else it moved on: kept). */
export async function restoreStage(tx: Tx, leadId: number, stageBefore: string) {
  await tx
    .updateTable('lead')
    .set({ stage: stageBefore })
    .where('id', '=', leadId)
    .where('stage', '=', 'trial_booked')
    .execute();
}

/**
 * The lead took its trial: 已体验 when it was 已约体验 (a lead lost or converted meanwhile keeps its
 * stage), the funnel's steps marked, the first attended trial's teacher named.
 */
export async function markTrialDone(tx: Tx, leadId: number, teacherId: number, now: string) {
  await tx
    .updateTable('lead')
    .set((eb) => ({
      stage: eb.case().when('stage', '=', 'trial_booked').then('trial_done').else(eb.ref('stage')).end(),
      touchedAt: now,
      contactedAt: eb.fn.coalesce('contactedAt', eb.val(now)),
      trialBookedAt: eb.fn.coalesce('trialBookedAt', eb.val(now)),
      trialDoneAt: eb.fn.coalesce('trialDoneAt', eb.val(now)),
      trialTeacherId: eb.fn.coalesce('trialTeacherId', eb.val(teacherId)),
    }))
    .where('id', '=', leadId)
    .execute();
}

/** A lead's trials, newest first, with their class. */
export function trialsOfLead(ex: Executor, leadId: number) {
  return trialRows(ex)
    .leftJoin('teacher as te', 'te.id', 't.teacherId')
    .select(['te.name as teacherName', 'lt.attendedTime', 'lt.createTime'])
    .where('lt.leadId', '=', leadId)
    .orderBy('lt.id', 'desc')
    .execute();
}

/** The trials of a session not cancelled, in booking order, with their lead and its owner. */
export function trialsOfSession(ex: Executor, storeId: number, sessionId: number) {
  return (
    ex
      .selectFrom('leadTrial as lt')
      .innerJoin('lead as l', 'l.id', 'lt.leadId')
      .leftJoin('staff as s', 's.id', 'l.ownerId')
      .select([
        'lt.id',
        'lt.leadId',
        'l.name as leadName',
        'l.mobile',
        's.name as ownerName',
        'lt.status',
        'lt.attendedTime',
      ])
      .where('lt.storeId', '=', storeId)
      .where('lt.timetableId', '=', sessionId)
      .where('lt.status', 'in', [S.BOOKED, S.ATTENDED])
      // a paid trial is its member's booking, listed with the bookings
      .where('lt.memberId', 'is', null)
      .orderBy('lt.id')
      .execute()
  );
}

/**
 * Cancels the trials of deleted sessions (booked or attended: a deleted session holds no seat),
 * answering what each held, so the caller frees the seats and gives the booked ones' leads back
 * their stage.
 */
export async function cancelTrialsOf(tx: Tx, sessionIds: readonly number[], now: string) {
  if (!sessionIds.length) return [];
  const live = await tx
    .selectFrom('leadTrial')
    .select(['id', 'leadId', 'timetableId', 'status', 'stageBefore', 'memberId'])
    .where('timetableId', 'in', sessionIds)
    .where('status', 'in', [S.BOOKED, S.ATTENDED])
    .orderBy('id')
    .execute();
  if (!live.length) return [];
  await tx
    .updateTable('leadTrial')
    .set({ status: S.CANCELLED, cancelTime: now })
    .where(
      'id',
      'in',
      live.map((t) => t.id),
    )
    .execute();
  return live;
}

/**
 * 体验课未到 (the condition the todo list reads): the lead holds a trial still booked whose class had
 * ended at `now` (store-local).
 */
export function trialMissedSql(leadAlias: string, now: string) {
  return sql<boolean>`exists (select 1 from lead_trial mt join timetable mtt on mtt.id = mt.timetable_id where mt.lead_id = ${sql.ref(`${leadAlias}.id`)} and mt.status = ${S.BOOKED} and mtt.end_time <= ${now})`;
}
