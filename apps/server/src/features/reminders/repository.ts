import { LEAD_TRIAL_STATUS, LIVE_PENDING, LIVE_RESERVATION, ReservationStatus, PendingStatus } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { withCourseName } from '../reference/public.ts';

/** A session as a reminder names it: course, teacher, start; whether deleted. */
export function sessionInfo(ex: Executor, storeId: number, sessionId: number) {
  return ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .where('t.id', '=', sessionId)
    .where('t.storeId', '=', storeId)
    .select(['t.id', 't.startTime', 't.deleted', 't.teacherId', 't.appointmentStatus', 'te.name as teacherName'])
    .executeTakeFirst();
}

/** The member as a reminder reaches them: name, mobile, openid. */
export function memberContact(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('member')
    .where('id', '=', memberId)
    .where('storeId', '=', storeId)
    .select(['id', 'name', 'mobile', 'wechatOpenid'])
    .executeTakeFirst();
}

/** A teacher as a message to them reaches them: name and mobile (SMS; teachers have no openid). */
export function teacherContact(ex: Executor, storeId: number, teacherId: number) {
  return ex
    .selectFrom('teacher')
    .where('id', '=', teacherId)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .select(['id', 'name', 'mobile', sql<string | null>`null`.as('wechatOpenid')])
    .executeTakeFirst();
}

/** A lead (潜客) as a reminder reaches them: name and mobile (SMS only). */
export function leadContact(ex: Executor, storeId: number, leadId: number) {
  return ex
    .selectFrom('lead')
    .where('id', '=', leadId)
    .where('storeId', '=', storeId)
    .select(['id', 'name', 'mobile', sql<string | null>`null`.as('wechatOpenid')])
    .executeTakeFirst();
}

/** Whom a message goes to: the member, else the teacher (`teacherId`) or the lead (`leadId`) it names. */
export function recipientContact(
  ex: Executor,
  storeId: number,
  to: { memberId: number | null; teacherId?: number; leadId?: number },
) {
  if (to.memberId !== null) return memberContact(ex, storeId, to.memberId);
  if (to.teacherId !== undefined) return teacherContact(ex, storeId, to.teacherId);
  if (to.leadId !== undefined) return leadContact(ex, storeId, to.leadId);
  return Promise.resolve(undefined);
}

/** Marks skipped the store's queued messages whose dedupe key starts with `prefix`, but those in `keep`. */
export async function skipQueuedBut(
  ex: Executor,
  storeId: number,
  prefix: string,
  reason: string,
  keep: readonly string[] = [],
) {
  await ex
    .updateTable('notifyLog')
    .set({ status: 'skipped', reason, leaseUntil: null })
    .where('storeId', '=', storeId)
    .where('status', '=', 'queued')
    .where('dedupeKey', 'like', `${prefix}%`)
    .$if(keep.length > 0, (q) => q.where('dedupeKey', 'not in', keep))
    .execute();
}

/** The trials booked (not cancelled, not yet 到店) in a session: id and lead. */
export function trialsBookedIn(ex: Executor, sessionId: number) {
  return ex
    .selectFrom('leadTrial')
    .select(['id', 'leadId'])
    .where('timetableId', '=', sessionId)
    .where('status', '=', LEAD_TRIAL_STATUS.BOOKED)
    .orderBy('id')
    .execute();
}

/** Whether a lead's trial class (体验课) is still booked (not cancelled, not yet 到店) in the session. */
export async function trialStillBooked(ex: Executor, trialId: number, sessionId: number): Promise<boolean> {
  const r = await ex
    .selectFrom('leadTrial')
    .select('id')
    .where('id', '=', trialId)
    .where('timetableId', '=', sessionId)
    .where('status', '=', LEAD_TRIAL_STATUS.BOOKED)
    .executeTakeFirst();
  return r !== undefined;
}

/** Whether the member switched the kind off. */
export async function switchedOff(ex: Executor, memberId: number, kind: string): Promise<boolean> {
  const row = await ex
    .selectFrom('notifyPref')
    .select('off')
    .where('memberId', '=', memberId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.off === 1;
}

export async function offKinds(ex: Executor, memberId: number): Promise<Set<string>> {
  const rows = await ex
    .selectFrom('notifyPref')
    .select('kind')
    .where('memberId', '=', memberId)
    .where('off', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.kind));
}

export async function setSwitch(ex: Executor, storeId: number, memberId: number, kind: string, on: boolean) {
  await ex
    .insertInto('notifyPref')
    .values({ storeId, memberId, kind, off: on ? 0 : 1 })
    .onConflict((oc) => oc.columns(['memberId', 'kind']).doUpdateSet({ off: on ? 0 : 1 }))
    .execute();
}

/** Members with a live booking or pending in the session (each once). */
export async function membersBookedIn(ex: Executor, sessionId: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('reservation')
    .select('memberId')
    .where('timetableId', '=', sessionId)
    .where('status', 'in', LIVE_RESERVATION)
    .union(
      ex
        .selectFrom('pending')
        .select('memberId')
        .where('timetableId', '=', sessionId)
        .where('status', 'in', LIVE_PENDING)
        .where('reservationId', 'is', null),
    )
    .execute();
  return [...new Set(rows.map((r) => r.memberId))];
}

/**
 * Members whose booking or pending of the session was cancelled by its deletion: the cancellations
 * with the session's latest cancel time (the deletion is the last change of its bookings).
 */
export async function membersCancelledWith(ex: Executor, sessionId: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('reservation')
    .select(['memberId', 'cancelTime'])
    .where('timetableId', '=', sessionId)
    .where('status', '=', ReservationStatus.CANCELLED)
    .unionAll(
      ex
        .selectFrom('pending')
        .select(['memberId', 'cancelTime'])
        .where('timetableId', '=', sessionId)
        .where('status', '=', PendingStatus.CANCELLED),
    )
    .execute();
  const last = rows.reduce((m, r) => ((r.cancelTime ?? '') > m ? (r.cancelTime ?? '') : m), '');
  return [...new Set(rows.filter((r) => last && r.cancelTime === last).map((r) => r.memberId))];
}

/** Sessions of the store starting after `from` and at or before `to` (not deleted); a lesson's state (null: a group class). */
export function sessionsStarting(ex: Executor, storeId: number, from: string, to: string) {
  return ex
    .selectFrom('timetable')
    .select(['id', 'startTime', 'appointmentStatus'])
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('startTime', '>', from)
    .where('startTime', '<=', to)
    .orderBy('startTime')
    .execute();
}

/** Inserts a message unless its store and dedupe key exist; answers the row's id when inserted. */
export async function insertOnce(ex: Executor, row: NewRow<'notifyLog'>): Promise<number | null> {
  const res = await ex
    .insertInto('notifyLog')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'dedupeKey']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return res?.id ?? null;
}

/** Ids of the store's messages due at `now` (queued), or whose sender's lease ran out. */
export async function dueIds(ex: Executor, storeId: number, now: string, epoch: number, limit = 200) {
  const rows = await ex
    .selectFrom('notifyLog')
    .select('id')
    .where('storeId', '=', storeId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('dueAt', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<', epoch)]),
      ]),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Claims a message for this sender: queued and due → sending with a lease, in one guarded update
 * (two instances: one gets it); a 'sending' one whose lease ran out is taken again. A message to try
 * again after a failure is queued with its next try as `due_at`: this same claim takes it.
 */
export async function claim(ex: Executor, id: number, now: string, epoch: number, leaseMs: number) {
  const res = await ex
    .updateTable('notifyLog')
    .set({ status: 'sending', leaseUntil: epoch + leaseMs })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('dueAt', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<', epoch)]),
      ]),
    )
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return undefined;
  return ex.selectFrom('notifyLog').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function finish(
  ex: Executor,
  id: number,
  set: {
    status: string;
    channel?: string | null;
    reason?: string;
    sentAt?: string | null;
    dueAt?: string;
    tries?: number;
  },
) {
  await ex
    .updateTable('notifyLog')
    .set({ ...set, leaseUntil: null })
    .where('id', '=', id)
    .execute();
}

export interface LogFilter {
  storeId: number;
  fromDate: string;
  toDate: string;
  memberId?: number;
  kind?: string;
  status?: string;
}

function filtered(ex: Executor, f: LogFilter) {
  let q = ex
    .selectFrom('notifyLog as n')
    .where('n.storeId', '=', f.storeId)
    .where('n.dueAt', '>=', `${f.fromDate} 00:00:00`)
    .where('n.dueAt', '<=', `${f.toDate} 23:59:59`);
  if (f.memberId !== undefined) q = q.where('n.memberId', '=', f.memberId);
  if (f.kind) q = q.where('n.kind', '=', f.kind);
  if (f.status) q = q.where('n.status', '=', f.status);
  return q;
}

export async function logPage(ex: Executor, f: LogFilter, page: number, size: number) {
  const [rows, total] = await Promise.all([
    filtered(ex, f)
      .leftJoin('member as m', 'm.id', 'n.memberId')
      .select([
        'n.id',
        'n.memberId',
        'm.name as memberName',
        'n.kind',
        'n.channel',
        'n.status',
        'n.reason',
        'n.dueAt',
        'n.createdAt',
        'n.sentAt',
        'n.payload',
        'n.tries',
      ])
      .orderBy('n.dueAt', 'desc')
      .orderBy('n.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    filtered(ex, f)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Messages per day (by due time), status and channel, over the range (every member and kind). */
export function dayCounts(ex: Executor, storeId: number, fromDate: string, toDate: string) {
  const day = sql<string>`substr(due_at, 1, 10)`;
  return ex
    .selectFrom('notifyLog')
    .where('storeId', '=', storeId)
    .where('dueAt', '>=', `${fromDate} 00:00:00`)
    .where('dueAt', '<=', `${toDate} 23:59:59`)
    .select([day.as('date'), 'status', 'channel', sql<number>`count(*)`.as('n')])
    .groupBy([day, 'status', 'channel'])
    .execute();
}

export function allStores(ex: Executor) {
  return ex.selectFrom('store').select(['id', 'name', 'timezone']).orderBy('id').execute();
}

/** A card's total (count or fen): a top-up raises it, so a balance low again after one is another event. */
export async function cardTotal(ex: Executor, cardId: number): Promise<number> {
  const row = await ex.selectFrom('memberCard').select('totalCount').where('id', '=', cardId).executeTakeFirst();
  return Number(row?.totalCount ?? 0);
}

export async function bindOpenid(ex: Executor, storeId: number, memberId: number, openid: string) {
  await ex
    .updateTable('member')
    .set({ wechatOpenid: openid })
    .where('id', '=', memberId)
    .where('storeId', '=', storeId)
    .execute();
}

/** Keeps a state of WeChat's web authorisation given to a member's session (expired ones swept then). */
export async function insertWechatState(
  ex: Executor,
  row: { state: string; sessionId: string; storeId: number; memberId: number; expiresAt: number },
  now: number,
): Promise<void> {
  await ex.deleteFrom('wechatOauthState').where('expiresAt', '<=', now).execute();
  await ex.insertInto('wechatOauthState').values(row).execute();
}

/**
 * Takes a state once: deleted only when this session of this member was given it and it has not
 * expired, in one guarded statement (two uses at once, on any instances, take it once). True when taken.
 */
export async function takeWechatState(
  ex: Executor,
  k: { state: string; sessionId: string; storeId: number; memberId: number },
  now: number,
): Promise<boolean> {
  const res = await ex
    .deleteFrom('wechatOauthState')
    .where('state', '=', k.state)
    .where('sessionId', '=', k.sessionId)
    .where('storeId', '=', k.storeId)
    .where('memberId', '=', k.memberId)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}
