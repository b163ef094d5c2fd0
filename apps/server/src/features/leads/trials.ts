import { LEAD_STAGE_LABEL, LEAD_TRIAL_STATUS as S, LeadMsg, Msg, type LeadStage } from '@studio/contract';
import { isUniqueViolation } from '../../db/dialect.ts';
import { lockSessions } from '../../db/locks.ts';
import type { Executor, Tx } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import type { PayloadOf } from '../../lib/events.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { event } from '../../lib/events.ts';
import { toDateTime } from '../../lib/time.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { localDateTime, storeNow } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { dropTrialReminders, planTrialReminders } from '../reminders/public.ts';
import { sessionOfStore } from '../staff/public.ts';
import { openLesson, releaseIfEmpty } from '../lessons/public.ts';
import { freeSeatsOf, lessonBooked, liveSession, takeSeatsOf, type sessionDeleted } from '../timetable/public.ts';
import { requireLead } from './repository.ts';
import { requireMine } from './service.ts';
import * as repo from './trial-repository.ts';

/**
 * 体验课 (issue 44, item 3): a lead booked into a class without a card. The seat is taken by the
 * sessions' one seat guard (`takeSeatsOf`, as every booking), nothing is charged; one booked trial
 * per lead (`lead_trial_live_uq`).
 */

const when = (t: { startTime: string }) => t.startTime.slice(0, 16);
const lead = (id: number) => ({ type: 'lead' as const, id });
const session = (id: number) => ({ type: 'session' as const, id });

/**
 * Books a lead of one's own (the manager: any) into a group class that has not ended: 已约体验.
 * (A lesson of members is not a trial's: a 私教体验课 opens its own lesson, bookLessonTrial.)
 */
export async function bookTrial(ctx: CallCtx, input: { leadId: number; sessionId: number }) {
  const l = await requireLead(ctx.db, ctx.store.id, input.leadId);
  requireMine(ctx, l);
  const storeId = ctx.store.id;
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = storeNow(ctx);
    // Lock order: the session, then the lead.
    const s = await liveSession(tx, storeId, input.sessionId, { lock: true });
    if (s.endTime <= now) throw conflict(LeadMsg.trialEnded);
    if ((await repo.courseKind(tx, s.courseId)) !== 'group') throw conflict(LeadMsg.trialGroupOnly);
    const stage = await stageForTrial(tx, storeId, l.id);
    if ((await takeSeatsOf(tx, storeId, new Map([[s.id, 1]]))) !== null) throw conflict(Msg.sessionFull);
    const id = await recordTrial(ctx, tx, {
      lead: l,
      stage,
      sessionId: s.id,
      startTime: s.startTime,
      now,
      what: '约体验课',
    });
    return { id };
  });
}

/** The trial's row and the lead's 已约体验, its reminders and entry, once its seat is taken (both kinds of trial). */
async function recordTrial(
  ctx: CallCtx,
  tx: Tx,
  a: {
    lead: { id: number; name: string; mobile: string };
    stage: LeadStage;
    sessionId: number;
    startTime: string;
    now: string;
    what: string;
  },
) {
  const storeId = ctx.store.id;
  let id: number;
  try {
    ({ id } = await repo.insertTrial(tx, {
      storeId,
      leadId: a.lead.id,
      timetableId: a.sessionId,
      stageBefore: a.stage,
      operatorId: ctx.staff.id,
      now: a.now,
    }));
  } catch (e) {
    // Another booking of this lead's trial committed first (another instance).
    if (isUniqueViolation(e)) throw conflict(LeadMsg.trialLive);
    throw e;
  }
  if (!(await repo.markTrialBooked(tx, storeId, a.lead.id, a.stage, a.now))) throw conflict(LeadMsg.trialClosed);
  // 体验课提醒: the day before and at the store's reminder hours, to the lead's mobile.
  await planTrialReminders(tx, { storeId, trialId: id, leadId: a.lead.id, sessionId: a.sessionId, now: a.now });
  audit(tx, {
    kind: 'lead',
    summary: `${a.what} ${a.startTime.slice(0, 16)}`,
    target: `潜客 ${a.lead.name}（${a.lead.mobile}）`,
    targets: [lead(a.lead.id), session(a.sessionId)],
    ...(a.stage !== 'trial_booked'
      ? { before: { 阶段: LEAD_STAGE_LABEL[a.stage] }, after: { 阶段: LEAD_STAGE_LABEL.trial_booked } }
      : {}),
  });
  return id;
}

/** The lead's stage under its row's lock, refused when it may take no trial (已成交, 已流失, one booked). */
async function stageForTrial(tx: Tx, storeId: number, leadId: number): Promise<LeadStage> {
  const stage = (await repo.lockedLeadStage(tx, storeId, leadId))?.stage as LeadStage | undefined;
  if (!stage) throw notFound('潜客');
  await refuseTrialOf(tx, leadId, stage);
  return stage;
}

/** 409 when the lead may not book a trial: 已成交 or 已流失, or holding a booked one already. */
async function refuseTrialOf(ex: Executor, leadId: number, stage: string): Promise<void> {
  if (stage === 'won' || stage === 'lost') throw conflict(LeadMsg.trialClosed);
  if (await repo.hasLiveTrial(ex, leadId)) throw conflict(LeadMsg.trialLive);
}

/**
 * 私教体验课: opens a 1对1 lesson of the type with the teacher at a start in their free hours (the
 * lessons' openLesson: the free-slot finder, notice, room, the clash rule: of two sellers booking the
 * teacher's same start, one lesson), the lead holding its one seat without a card, nothing charged;
 * 已约体验, reminded as a group trial. The teacher is told as for a booked lesson (lessonBooked).
 */
export async function bookLessonTrial(
  ctx: CallCtx,
  input: { leadId: number; courseId: number; teacherId: number; date: string; time: string },
) {
  const l = await requireLead(ctx.db, ctx.store.id, input.leadId);
  requireMine(ctx, l);
  const storeId = ctx.store.id;
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = storeNow(ctx);
    const kind = await repo.courseKind(tx, input.courseId, storeId);
    if (kind === undefined) throw notFound('课程');
    if (kind !== 'one_on_one') throw conflict(LeadMsg.trialOneOnOne);
    // The lead's state read first (its answers before the lesson's); under its lock again below.
    await refuseTrialOf(tx, l.id, l.stage);
    const startTime = toDateTime(input.date, input.time);
    // Lock order: the teacher and rooms, the new session (openLesson), then the lead.
    const lesson = await openLesson(tx, ctx.store, {
      courseId: input.courseId,
      teacherId: input.teacherId,
      startTime,
      seats: 1,
    });
    const stage = await stageForTrial(tx, storeId, l.id);
    if ((await takeSeatsOf(tx, storeId, new Map([[lesson.id, 1]]))) !== null) throw conflict(Msg.sessionFull);
    const id = await recordTrial(ctx, tx, {
      lead: l,
      stage,
      sessionId: lesson.id,
      startTime,
      now,
      what: '约私教体验课',
    });
    await ctx.events.emit(
      tx,
      event(lessonBooked, {
        storeId,
        sessionId: lesson.id,
        status: lesson.status,
        confirmDeadline: lesson.confirmDeadline,
        members: [],
        guest: `${l.name}（体验）`,
      }),
    );
    return { id, sessionId: lesson.id };
  });
}

/** Cancels a booked trial of one's own lead: the seat is free, the lead back at the stage it had. */
export async function cancelTrial(ctx: CallCtx, id: number) {
  const t = await repo.trialOf(ctx.db, ctx.store.id, id);
  if (!t) throw notFound('体验课');
  requireMine(ctx, t);
  if (t.memberId !== null) throw conflict(LeadMsg.trialOfMember);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = storeNow(ctx);
    // Lock order: the session first, as every booking's.
    await lockSessions(tx, [t.sessionId]);
    if (!(await repo.moveBookedTrial(tx, t.id, { move: 'cancel', now }))) {
      const again = await repo.trialOf(tx, ctx.store.id, t.id);
      throw conflict(again?.status === S.ATTENDED ? LeadMsg.trialAttended : LeadMsg.trialCancelled);
    }
    await freeSeatsOf(tx, new Map([[t.sessionId, 1]]));
    await repo.restoreStage(tx, t.leadId, t.stageBefore);
    await dropTrialReminders(tx, ctx.store.id, t.id);
    // A 私教体验课's lesson nobody is left in is released, as a lesson's refunded cancel releases it.
    if ((await repo.courseKind(tx, t.courseId)) !== 'group')
      await releaseIfEmpty(tx, ctx.store, t.sessionId, ctx.staff.id);
    audit(tx, {
      kind: 'lead',
      summary: `取消体验课 ${when(t)} ${t.courseName}`,
      target: `潜客 ${t.leadName}（${t.mobile}）`,
      targets: [lead(t.leadId), session(t.sessionId)],
    });
    return null;
  });
}

/**
 * Marks a trial 到店 (the desk, the lead's owner, the class's teacher): 已体验, the class's teacher
 * recorded. Marking one already 到店 changes nothing (two desks at once); a cancelled one is refused.
 */
export async function markTrial(ctx: CallCtx, input: { id: number; sessionId: number }) {
  const storeId = ctx.store.id;
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = storeNow(ctx);
    const t = await repo.trialOf(tx, storeId, input.id);
    if (!t) throw notFound('体验课');
    // A class of another store (or none) is not found, before telling which class the trial is in.
    if (!(await sessionOfStore(tx, storeId, input.sessionId))) throw notFound('课程');
    if (t.sessionId !== input.sessionId) throw conflict(LeadMsg.trialSession);
    if (t.status === S.CANCELLED) throw conflict(LeadMsg.trialCancelled);
    if (t.memberId !== null) throw conflict(LeadMsg.trialOfMember);
    await lockSessions(tx, [t.sessionId]);
    const changed = await repo.moveBookedTrial(tx, t.id, { move: 'attend', now, teacherId: t.teacherId });
    if (changed) await repo.markTrialDone(tx, t.leadId, t.teacherId, now);
    else if ((await repo.trialOf(tx, storeId, t.id))?.status === S.CANCELLED) throw conflict(LeadMsg.trialCancelled);
    audit(tx, {
      kind: 'lead',
      summary: `体验课记到店 ${when(t)} ${t.courseName}${changed ? '' : '（已是如此，未改变）'}`,
      target: `潜客 ${t.leadName}（${t.mobile}）`,
      targets: [lead(t.leadId), session(t.sessionId)],
    });
    return null;
  });
}

/** The trials of a session (the session drawer's 体验 rows). */
export async function sessionTrials(ctx: CallCtx, sessionId: number) {
  if (!(await sessionOfStore(ctx.db, ctx.store.id, sessionId))) throw notFound('课程');
  return repo.trialsOfSession(ctx.db, ctx.store.id, sessionId);
}

/**
 * A session deleted (the desk's delete, a lesson's, a batch delete): its trials are cancelled and
 * their seats freed in the delete's transaction; a lead still 已约体验 goes back to its stage.
 */
export async function cancelTrialsOfSessions(tx: Tx, storeId: number, sessionIds: readonly number[], now: string) {
  const cancelled = await repo.cancelTrialsOf(tx, sessionIds, now);
  const seats = new Map<number, number>();
  for (const t of cancelled) {
    // A paid trial's seat is its member's booking's (the delete frees that).
    if (t.memberId === null) seats.set(t.timetableId, (seats.get(t.timetableId) ?? 0) + 1);
    if (t.status === S.BOOKED) await repo.restoreStage(tx, t.leadId, t.stageBefore);
    await dropTrialReminders(tx, storeId, t.id);
  }
  await freeSeatsOf(tx, seats);
  if (cancelled.length) audit(tx, { targets: cancelled.map((t) => lead(t.leadId)) });
}

/** The listener of `sessionDeleted`, in the delete's transaction. */
export async function onSessionDeleted(tx: Executor, e: PayloadOf<typeof sessionDeleted>) {
  const store = await findStoreScope(tx, e.storeId);
  if (store) await cancelTrialsOfSessions(tx as Tx, e.storeId, [e.sessionId], localDateTime(store.timezone));
}
