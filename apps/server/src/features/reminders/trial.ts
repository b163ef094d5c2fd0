import { TRIAL_REMINDER_HOURS } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import type { PayloadOf } from '../../lib/events.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import type { sessionChanged } from '../timetable/public.ts';
import { dedupeKeyOf, dropQueued, queueReminder, shortTime, startMoved } from './queue.ts';
import * as repo from './repository.ts';
import { loadNotifySetting } from './setting.ts';

/**
 * 体验课提醒 (issue 44): a lead booked into a trial class is texted the day before
 * (TRIAL_REMINDER_HOURS) and at the store's class reminder hours, as members are, through the same
 * log and outbox (kind 'trial_reminder', to the lead's mobile of then). A service message: no
 * marketing consent asked.
 */

/** The dedupe-key prefix of a trial's reminders (every start and point). */
const prefixOf = (trialId: number) => `trial_reminder:${trialId}:`;

/**
 * The store-local times a trial starting at `start` is reminded at, booked at `now`: the day before
 * and the store's hours before, those still ahead; none ahead (booked within the hours): one now.
 * Nothing once the class has started.
 */
export function trialReminderPoints(start: string, now: string, classReminderHours: number) {
  if (start <= now) return [];
  const points = [
    { point: 'day', at: addMinutes(start, -TRIAL_REMINDER_HOURS * 60) },
    ...(classReminderHours > 0 && classReminderHours < TRIAL_REMINDER_HOURS
      ? [{ point: 'hours', at: addMinutes(start, -classReminderHours * 60) }]
      : []),
  ].filter((p) => p.at > now);
  return points.length ? points : [{ point: 'now', at: now }];
}

/**
 * Plans a booked trial's reminders in the booking's (or the class's edit's) transaction: one row per
 * point, unique by trial, start and point; those planned for another start are dropped.
 */
export async function planTrialReminders(
  tx: Executor,
  t: { storeId: number; trialId: number; leadId: number; sessionId: number; now?: string },
) {
  const store = await storeScopeById(tx, t.storeId);
  const s = await repo.sessionInfo(tx, t.storeId, t.sessionId);
  if (!store || !s || s.deleted) return;
  const now = t.now ?? localDateTime(store.timezone);
  const setting = await loadNotifySetting(tx, t.storeId);
  const points = trialReminderPoints(s.startTime, now, setting.classReminderHours);
  const to = { memberId: null, leadId: t.leadId };
  // A reminder planned for another start (the class moved) is not sent.
  const events = points.map((p) => `${t.trialId}:${s.startTime}:${p.point}`);
  await repo.skipQueuedBut(
    tx,
    t.storeId,
    prefixOf(t.trialId),
    '已跳过（上课时间已变更）',
    events.map((e) => dedupeKeyOf('trial_reminder', e, to)),
  );
  for (const [i, p] of points.entries()) {
    await queueReminder(tx, {
      storeId: t.storeId,
      ...to,
      kind: 'trial_reminder',
      event: events[i],
      vars: { course: s.courseName.slice(0, 20), time: shortTime(s.startTime), teacher: s.teacherName },
      sessionId: t.sessionId,
      startTime: s.startTime,
      trialId: t.trialId,
      now,
      at: p.at,
    });
  }
}

/** A trial cancelled (by the desk, or with its class): its reminders still waiting are dropped. */
export function dropTrialReminders(tx: Executor, storeId: number, trialId: number) {
  return dropQueued(tx, storeId, prefixOf(trialId), '已跳过（体验课已取消）');
}

/**
 * A class moved: the trials booked in it are planned again at its new start. Any other edit (its room,
 * capacity) plans nothing: the reminders planned stand (a 'now' point again would text twice).
 */
export async function onSessionChangedTrials(tx: Executor, e: PayloadOf<typeof sessionChanged>) {
  if (!(await startMoved(tx, e))) return;
  for (const t of await repo.trialsBookedIn(tx, e.sessionId)) {
    await planTrialReminders(tx, { storeId: e.storeId, trialId: t.id, leadId: t.leadId, sessionId: e.sessionId });
  }
}
