import { NOTIFY_KIND_LABEL, type NotifyKind } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { scopeOf } from '../../lib/audit.ts';
import type { PayloadOf } from '../../lib/events.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { localDateTime } from '../../lib/time.ts';
import { enqueue } from '../../outbox/enqueue.ts';
import type { leaveDecided } from '../cards/public.ts';
import { storedSmsSetting } from '../messaging/public.ts';
import type {
  lessonBooked,
  lessonCancelled,
  lessonConfirmed,
  sessionChanged,
  sessionDeleted,
} from '../timetable/public.ts';
import type { waitlistPromoted } from '../waitlist/public.ts';
import * as repo from './repository.ts';
import { quietVerdict } from './rules.ts';
import {
  loadNotifySetting,
  smsTemplateOf,
  wechatAccount,
  wechatTemplateOf,
  type StoredNotifySetting,
} from './setting.ts';

/** The outbox topic that sends a message queued by a change right after its commit. */
export const NOTIFY_TOPIC = 'notify.send';

/** What a message carries besides its kind: the template's variables and what it is about. */
export interface NotifyPayload {
  vars: Record<string, string>;
  /**
   * A message about a class (a reminder, a promotion, a class cancelled or moved): the session and
   * its start. A class reminder's booking and start are checked again when sending; any such message
   * the quiet hours hold back is dropped when its class has started by their end.
   */
  sessionId?: number;
  startTime?: string;
  /** A message to a teacher (no member): their id (a lesson waiting for their confirmation). */
  teacherId?: number;
  /** A message to a lead (潜客, no member): their id (a trial class's reminder), sent to the lead's mobile of then. */
  leadId?: number;
  /** A trial class's reminder: the trial (checked still booked when sending). */
  trialId?: number;
}

export interface ReminderInput {
  storeId: number;
  /**
   * Who it goes to: a member, or a teacher (`teacherId`, with memberId null: SMS to their mobile), or
   * a lead (`leadId`, with memberId null: SMS to the lead's mobile).
   */
  memberId: number | null;
  teacherId?: number;
  leadId?: number;
  kind: NotifyKind;
  /**
   * What makes this message one of its kind for the member (with kind and member, the dedupe key):
   * a session and its start, a wait, a card and its expiry, a leave and its decision. The same
   * event queued again (another instance, a retry) adds nothing.
   */
  event: string;
  /** The kind's variables (name and store are filled in here). */
  vars: Record<string, string>;
  /** The class it is about, and its start (see NotifyPayload). */
  sessionId?: number;
  startTime?: string;
  /** Store-local now (tests inject a clock); the store's clock by default. */
  now?: string;
  /** Queued by the minute job, which sends it itself (no outbox message). */
  byJob?: boolean;
  /** A trial class's reminder: the trial (see NotifyPayload). */
  trialId?: number;
  /** Planned for later (store-local): due then (or now, when that has passed); the minute job sends it. */
  at?: string;
}

/** `MM-DD HH:mm` of a store-local time. */
export const shortTime = (t: string) => t.slice(5, 16);

/**
 * Queues one reminder in the caller's transaction: the listeners of this feature call it, with kind
 * 'leave_result' for a leave approved or refused (cards' `leaveDecided`; event `<leaveId>:<decision>`,
 * vars card, result, dates) and the other kinds for the engine's events. At most one message per
 * kind, event and member (the database's unique dedupe key); a member who switched the kind off, or
 * a store with no way to reach them, gets a row skipped with the reason. Queued rows due now are
 * sent right after the commit (the outbox); inside the quiet hours they wait for their end (the minute
 * job sends them), or, about a class that has started by then, are skipped saying why.
 * Answers the row's id, or null when the event already had its message.
 */
export async function queueReminder(tx: Executor, r: ReminderInput): Promise<number | null> {
  const store = await storeScopeById(tx, r.storeId);
  if (!store) return null;
  const member = await repo.recipientContact(tx, r.storeId, r);
  if (!member) return null;
  const now = r.now ?? localDateTime(store.timezone);
  const setting = await loadNotifySetting(tx, r.storeId);
  // A store that sends nothing (no SMS provider, no service account) keeps no log of it.
  if (!(await sendsAnything(tx, r.storeId, setting))) return null;
  const payload: NotifyPayload = {
    vars: { name: member.name, store: store.name, ...r.vars },
    ...(r.sessionId !== undefined ? { sessionId: r.sessionId, startTime: r.startTime } : {}),
    ...(r.memberId === null && r.teacherId !== undefined ? { teacherId: r.teacherId } : {}),
    ...(r.memberId === null && r.leadId !== undefined ? { leadId: r.leadId } : {}),
    ...(r.trialId !== undefined ? { trialId: r.trialId } : {}),
  };
  let status = 'queued';
  let reason = '';
  let dueAt = r.at && r.at > now ? r.at : now;
  if (r.memberId !== null && (await repo.switchedOff(tx, r.memberId, r.kind))) {
    status = 'skipped';
    reason = '已跳过（已关闭）';
  } else if (!(await reachable(tx, r.storeId, r.kind, member))) {
    status = 'skipped';
    reason = '已跳过（未设置模板）';
  } else {
    // Inside the quiet hours: at their end, or dropped when its class has started by then.
    const quiet = quietVerdict(dueAt, setting, r.startTime);
    if (quiet.go === 'later') [dueAt, reason] = [quiet.at, quiet.reason];
    if (quiet.go === 'dropped') [status, reason] = ['skipped', quiet.reason];
  }
  const id = await repo.insertOnce(tx, {
    storeId: r.storeId,
    memberId: r.memberId,
    kind: r.kind,
    dedupeKey: dedupeKeyOf(r.kind, r.event, r),
    channel: null,
    status,
    reason,
    dueAt,
    createdAt: now,
    sentAt: null,
    leaseUntil: null,
    payload: JSON.stringify(payload),
  });
  if (id !== null && status === 'queued' && dueAt <= now && !r.byJob) {
    await enqueue(tx, r.storeId, NOTIFY_TOPIC, `notify:${id}`, { id });
  }
  return id;
}

/** A message's dedupe key: kind, event and whom (a member's id, `t<id>` a teacher, `l<id>` a lead). */
export const dedupeKeyOf = (
  kind: NotifyKind,
  event: string,
  to: { memberId: number | null; teacherId?: number; leadId?: number },
) => `${kind}:${event}:${to.memberId ?? (to.leadId !== undefined ? `l${to.leadId}` : `t${to.teacherId}`)}`;

/**
 * Drops the messages still waiting (queued) whose dedupe key starts with `prefix`: what they were
 * about is gone (a trial cancelled), saying why. One guarded UPDATE: a message a sender has claimed
 * already goes.
 */
export async function dropQueued(tx: Executor, storeId: number, prefix: string, reason: string) {
  await repo.skipQueuedBut(tx, storeId, prefix, reason);
}

/** Whether the store has any channel: an SMS provider or a WeChat service account. */
export async function sendsAnything(ex: Executor, storeId: number, setting: StoredNotifySetting): Promise<boolean> {
  return Boolean(wechatAccount(setting) || (await storedSmsSetting(ex, storeId)));
}

/** Whether the store can reach the member (or teacher) for the kind: WeChat (openid, account, template) or SMS (mobile, provider, template). */
export async function reachable(
  ex: Executor,
  storeId: number,
  kind: NotifyKind,
  member: { mobile: string | null; wechatOpenid: string | null },
): Promise<boolean> {
  const setting = await loadNotifySetting(ex, storeId);
  if (member.wechatOpenid && wechatAccount(setting) && wechatTemplateOf(setting, kind)) return true;
  const sms = await storedSmsSetting(ex, storeId);
  return Boolean(member.mobile && sms && (await smsTemplateOf(ex, storeId, setting, kind)));
}

// ---- the engine-event listeners (in the transaction of the change)

/** A member promoted from the waitlist: one message per wait. */
export async function onPromoted(tx: Executor, e: PayloadOf<typeof waitlistPromoted>) {
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s) return;
  await queueReminder(tx, {
    storeId: e.storeId,
    memberId: e.memberId,
    kind: 'promoted',
    event: String(e.waitId),
    vars: { course: s.courseName.slice(0, 20), time: shortTime(s.startTime) },
    sessionId: e.sessionId,
    startTime: s.startTime,
  });
}

/** A member's leave request decided by the desk: one message per decision. */
export async function onLeaveDecided(tx: Executor, e: PayloadOf<typeof leaveDecided>) {
  await queueReminder(tx, {
    storeId: e.storeId,
    memberId: e.memberId,
    kind: 'leave_result',
    event: `${e.leaveId}:${e.refusedFor === null ? 'approved' : 'refused'}`,
    vars: {
      card: e.cardName,
      result: e.refusedFor === null ? '已批准' : `未批准（${e.refusedFor}）`,
      dates: `${e.fromDate} 至 ${e.toDate}`,
    },
  });
}

/** A class deleted by the studio: its members whose bookings it cancelled, once per session. */
export async function onSessionDeleted(tx: Executor, e: PayloadOf<typeof sessionDeleted>) {
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s) return;
  const members = new Set([...e.refunds.map((x) => x.memberId), ...(await repo.membersCancelledWith(tx, e.sessionId))]);
  for (const memberId of members) {
    await queueReminder(tx, {
      storeId: e.storeId,
      memberId,
      kind: 'class_cancelled',
      event: `${e.sessionId}:deleted`,
      vars: { course: s.courseName.slice(0, 20), time: shortTime(s.startTime), change: e.change ?? '已取消' },
      sessionId: e.sessionId,
      startTime: s.startTime,
    });
  }
}

/**
 * A class edited by the studio: when its start moved (the edit's audit note says the start before),
 * each member booked gets one message per new start.
 */
/**
 * A class edited: its start before the edit (the edit's audit note) and the class as it is now, only
 * when the start moved; null for any other edit (its room, capacity, teacher) or a deleted class.
 */
export async function startMoved(tx: Executor, e: PayloadOf<typeof sessionChanged>) {
  const before = scopeOf(tx)?.note.before?.['开课时间'];
  if (typeof before !== 'string') return null;
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s || s.deleted) return null;
  if (s.startTime.slice(0, 16) === before.slice(0, 16)) return null;
  return { before, s };
}

export async function onSessionChanged(tx: Executor, e: PayloadOf<typeof sessionChanged>) {
  const moved = await startMoved(tx, e);
  if (!moved) return;
  const { before, s } = moved;
  for (const memberId of await repo.membersBookedIn(tx, e.sessionId)) {
    await queueReminder(tx, {
      storeId: e.storeId,
      memberId,
      kind: 'class_cancelled',
      event: `${e.sessionId}:moved:${s.startTime}`,
      vars: {
        course: s.courseName.slice(0, 20),
        time: shortTime(before),
        change: `时间调整为 ${shortTime(s.startTime)}`,
      },
      // the class as it is now: a message about a move means nothing once the moved class has started
      sessionId: e.sessionId,
      startTime: s.startTime,
    });
  }
}

/**
 * A lesson booked: each member booked by the call is told (预约成功, saying whether it waits for the
 * teacher); a lesson waiting for its teacher (待确认) is sent to the teacher once, naming who booked and
 * by when to confirm. A weekly series booked in one call is told once, at its first date, as
 * `12-10 19:00起每周共8节`.
 */
export async function onLessonBooked(tx: Executor, e: PayloadOf<typeof lessonBooked>) {
  if (e.series && e.series.index > 0) return;
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s) return;
  const about = { sessionId: e.sessionId, startTime: s.startTime };
  const time =
    e.series && e.series.count > 1 ? `${shortTime(s.startTime)}起每周共${e.series.count}节` : shortTime(s.startTime);
  const lesson = { course: s.courseName.slice(0, 20), time };
  const state = e.status === 'pending' ? '待老师确认' : '预约成功';
  for (const m of e.members) {
    await queueReminder(tx, {
      storeId: e.storeId,
      memberId: m.id,
      kind: 'lesson_booked',
      event: String(e.sessionId),
      vars: { ...lesson, teacher: s.teacherName, state },
      ...about,
    });
  }
  if (e.status !== 'pending') {
    if (e.joined) await joinedToTeacher(tx, e, s, lesson);
    return;
  }
  await queueReminder(tx, {
    storeId: e.storeId,
    memberId: null,
    teacherId: s.teacherId,
    kind: 'lesson_request',
    event: String(e.sessionId),
    vars: {
      ...lesson,
      name: s.teacherName,
      member: [...e.members.map((m) => m.name), ...(e.guest ? [e.guest] : [])].join('、').slice(0, 20),
      deadline: e.confirmDeadline ? shortTime(e.confirmDeadline) : '',
    },
    ...about,
  });
}

/**
 * A member joined a confirmed lesson (a 小班 joined from the phone, or 添加学员 at the desk): its
 * teacher is told who, and how many are booked now, once per member and lesson. (A lesson still
 * waiting for its teacher asks them already: lesson_request.)
 */
async function joinedToTeacher(
  tx: Executor,
  e: PayloadOf<typeof lessonBooked>,
  s: { startTime: string; teacherId: number; teacherName: string },
  lesson: { course: string; time: string },
) {
  const count = (await repo.membersBookedIn(tx, e.sessionId)).length;
  for (const m of e.members) {
    await queueReminder(tx, {
      storeId: e.storeId,
      memberId: null,
      teacherId: s.teacherId,
      kind: 'lesson_joined',
      event: `${e.sessionId}:${m.id}`,
      vars: { ...lesson, name: s.teacherName, member: m.name.slice(0, 20), count: String(count) },
      sessionId: e.sessionId,
      startTime: s.startTime,
    });
  }
}

/** A lesson confirmed by its teacher: each member booked in it is told, once per lesson. */
export async function onLessonConfirmed(tx: Executor, e: PayloadOf<typeof lessonConfirmed>) {
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s) return;
  for (const memberId of await repo.membersBookedIn(tx, e.sessionId)) {
    await queueReminder(tx, {
      storeId: e.storeId,
      memberId,
      kind: 'lesson_confirmed',
      event: String(e.sessionId),
      vars: { course: s.courseName.slice(0, 20), time: shortTime(s.startTime), teacher: s.teacherName },
      sessionId: e.sessionId,
      startTime: s.startTime,
    });
  }
}

/** A member's lesson booking cancelled by the desk or the teacher: the member is told, once per booking. */
export async function onLessonCancelled(tx: Executor, e: PayloadOf<typeof lessonCancelled>) {
  const s = await repo.sessionInfo(tx, e.storeId, e.sessionId);
  if (!s) return;
  await queueReminder(tx, {
    storeId: e.storeId,
    memberId: e.memberId,
    kind: 'class_cancelled',
    event: `${e.sessionId}:${e.booking.kind}:${e.booking.id}`,
    vars: {
      course: s.courseName.slice(0, 20),
      time: shortTime(s.startTime),
      change: e.refunded ? '预约已被门店取消' : '预约已被门店取消（迟到取消，本节照常扣除）',
    },
    sessionId: e.sessionId,
    startTime: s.startTime,
  });
}

export const kindLabel = (kind: string) => NOTIFY_KIND_LABEL[kind as NotifyKind] ?? kind;
