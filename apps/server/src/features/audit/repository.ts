import { PendingStatus, ReservationStatus } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { withCourseName, withCourseNameIfAny } from '../reference/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * The audit log's repository: a store's entries as the log lists them (filters, page, the names of
 * what they are about), their retention, and what the undo of a bulk change reads and writes (its
 * entry, what changed since, the sessions and bookings it brings back). The rules (what blocks an
 * undo, in which words) stay in `undo.ts` and `service.ts`.
 */

/** What the log's list filters on: a store's entries in [from, to) (epoch ms), by whom, of what kind, about what. */
export interface AuditFilter {
  storeId: number;
  from: number;
  to: number;
  staffId?: number | null;
  kind?: string | null;
  /** Entries naming this session. */
  sessionId?: number | null;
  /** Entries made by or naming one of these members. */
  memberIds?: number[];
}

/** One page of the entries `f` finds, newest first, each with when it was undone (if it was), and their count. */
export async function auditPage(ex: Executor, f: AuditFilter, page: { page: number; pageSize: number }) {
  let q = ex
    .selectFrom('auditLog as a')
    .where('a.storeId', '=', f.storeId)
    .where('a.at', '>=', f.from)
    .where('a.at', '<', f.to);
  if (f.staffId) q = q.where('a.staffId', '=', f.staffId);
  if (f.kind) q = q.where('a.kind', '=', f.kind);
  if (f.sessionId) {
    const sessionId = f.sessionId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('auditTarget as t')
          .select('t.auditId')
          .whereRef('t.auditId', '=', 'a.id')
          .where('t.type', '=', 'session')
          .where('t.refId', '=', sessionId),
      ),
    );
  }
  if (f.memberIds) {
    const ids = f.memberIds;
    q = q.where((eb) =>
      eb.or([
        eb('a.memberId', 'in', ids),
        eb.exists(
          eb
            .selectFrom('auditTarget as t')
            .select('t.auditId')
            .whereRef('t.auditId', '=', 'a.id')
            .where('t.type', '=', 'member')
            .where('t.refId', 'in', ids),
        ),
      ]),
    );
  }
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .leftJoin('auditLog as u', 'u.undoOf', 'a.id')
      .select([
        'a.id',
        'a.at',
        'a.actorKind',
        'a.actorName',
        'a.kind',
        'a.target',
        'a.summary',
        'a.beforeJson',
        'a.afterJson',
        'a.undoJson',
        'u.at as undoneAt',
      ])
      .orderBy('a.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A session of the store (deleted ones too), or undefined. */
export function findSessionOfStore(ex: Executor, storeId: number, id: number) {
  return ex.selectFrom('timetable').select('id').where('storeId', '=', storeId).where('id', '=', id).executeTakeFirst();
}

/** What some entries of the store are about: each target's entry, type and id. */
export function entryTargets(ex: Executor, storeId: number, auditIds: readonly number[]) {
  return ex
    .selectFrom('auditTarget')
    .select(['auditId', 'type', 'refId'])
    .where('auditId', 'in', auditIds)
    .where('storeId', '=', storeId)
    .execute();
}

/** Sessions by id with their course's name and their start (deleted ones too). */
export async function sessionsWithCourse(ex: Executor, ids: readonly number[]) {
  if (!ids.length) return [];
  return ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .select(['t.id', 't.startTime'])
    .where('t.id', 'in', ids)
    .execute();
}

/**
 * What an undo wrote (read back inside its own transaction, for its preview): the store's history
 * rows above the mark (their type), and its deductions and refunds above the mark, each with the
 * booking's member, card and class, by class time.
 */
export async function undoTrailSince(ex: Executor, storeId: number, mark: { history: number; ledger: number }) {
  const [history, money] = await Promise.all([
    ex
      .selectFrom('history')
      .select(['operateType'])
      .where('storeId', '=', storeId)
      .where('id', '>', mark.history)
      .execute(),
    ex
      .selectFrom('cardLedger as l')
      .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
      .$call(joinCardProduct())
      .innerJoin('member as m', 'm.id', 'mc.memberId')
      .leftJoin('timetable as t', 't.id', 'l.timetableId')
      .$call(withCourseNameIfAny)
      .select([
        'l.id',
        'l.kind',
        'l.amount',
        'l.reservationId',
        'mc.memberId',
        'm.name as memberName',
        'm.mobile as memberMobile',
        'p.cardName',
        'p.bigType',
        't.startTime',
      ])
      .where('l.storeId', '=', storeId)
      .where('l.id', '>', mark.ledger)
      .where('l.kind', 'in', ['deduct', 'refund'])
      .orderBy('t.startTime')
      .orderBy('l.id')
      .execute(),
  ]);
  return { history, money };
}

/** Member cards by id with their product's name and their holder's name. */
export async function cardsWithHolder(ex: Executor, ids: readonly number[]) {
  if (!ids.length) return [];
  return ex
    .selectFrom('memberCard')
    .innerJoin('cardProduct', 'cardProduct.id', 'memberCard.cardId')
    .innerJoin('member', 'member.id', 'memberCard.memberId')
    .select(['memberCard.id', 'cardProduct.cardName as name', 'member.name as memberName'])
    .where('memberCard.id', 'in', ids)
    .execute();
}

/** Staff names by id. */
export async function staffNames(ex: Executor, ids: readonly number[]) {
  if (!ids.length) return [];
  return ex.selectFrom('staff').select(['id', 'name']).where('id', 'in', ids).execute();
}

/** The ids of up to `limit` entries made before `before` (epoch ms), oldest first. */
export async function entriesBefore(ex: Executor, before: number, limit: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('auditLog')
    .select('id')
    .where('at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Removes entries with their targets. */
export async function deleteEntries(tx: Tx, ids: readonly number[]): Promise<void> {
  await tx.deleteFrom('auditTarget').where('auditId', 'in', ids).execute();
  await tx.deleteFrom('auditLog').where('id', 'in', ids).execute();
}

/** An entry of the store, or undefined. */
export function findEntry(ex: Executor, storeId: number, id: number) {
  return ex.selectFrom('auditLog').selectAll().where('id', '=', id).where('storeId', '=', storeId).executeTakeFirst();
}

/** The entry of the undo of entry `auditId`, or undefined when it was not undone. */
export function findUndoOf(ex: Executor, auditId: number) {
  return ex.selectFrom('auditLog').select('id').where('undoOf', '=', auditId).executeTakeFirst();
}

/** Which of some sessions are deleted. */
export function deletedSessionsAmong(ex: Executor, ids: readonly number[]) {
  return ex.selectFrom('timetable').select('id').where('id', 'in', ids).where('deleted', '=', 1).execute();
}

/** Which of some sessions have history rows above `historyMark` (bookings changed after it). */
export function sessionsWithHistoryAfter(ex: Executor, ids: readonly number[], historyMark: number) {
  return ex
    .selectFrom('history')
    .select('timetableId as id')
    .distinct()
    .where('timetableId', 'in', ids)
    .where('id', '>', historyMark)
    .execute();
}

/** Which of some sessions have waitlist rows. */
export function sessionsWithWaits(ex: Executor, ids: readonly number[]) {
  return ex.selectFrom('waitlist').select('timetableId as id').distinct().where('timetableId', 'in', ids).execute();
}

/** Which of some sessions of the store are named by an entry after entry `auditId`. */
export function sessionsNamedAfter(ex: Executor, storeId: number, ids: readonly number[], auditId: number) {
  return ex
    .selectFrom('auditTarget as t')
    .innerJoin('auditLog as a', 'a.id', 't.auditId')
    .select('t.refId as id')
    .distinct()
    .where('t.storeId', '=', storeId)
    .where('t.type', '=', 'session')
    .where('t.refId', 'in', ids)
    .where('a.id', '>', auditId)
    .execute();
}

/**
 * The live sessions that overlap some deleted sessions in time and share their teacher or their
 * room: each with the deleted session's id, its teacher's name and id (`own`), its room (`ownArea`),
 * and the live one's teacher and room.
 */
export function clashesOfDeleted(ex: Executor, ids: readonly number[]) {
  return ex
    .selectFrom('timetable as d')
    .innerJoin('timetable as t', (j) =>
      j
        .onRef('t.storeId', '=', 'd.storeId')
        .on('t.deleted', '=', 0)
        .onRef('t.startTime', '<', 'd.endTime')
        .onRef('t.endTime', '>', 'd.startTime'),
    )
    .innerJoin('teacher as te', 'te.id', 'd.teacherId')
    .select(['d.id', 'te.name', 't.teacherId', 'd.teacherId as own', 't.areaId', 'd.areaId as ownArea'])
    .where('d.id', 'in', ids)
    .where((eb) => eb.or([eb('t.teacherId', '=', eb.ref('d.teacherId')), eb('t.areaId', '=', eb.ref('d.areaId'))]))
    .execute();
}

/** The cards among `cardIds` with ledger rows above `ledgerMark`, with their holder's and product's names. */
export function cardsUsedAfter(ex: Executor, cardIds: readonly number[], ledgerMark: number) {
  return ex
    .selectFrom('cardLedger as l')
    .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .select(['mc.id', 'm.name', 'p.cardName'])
    .distinct()
    .where('l.memberCardId', 'in', cardIds)
    .where('l.id', '>', ledgerMark)
    .execute();
}

/** Of some bookings, those no longer booked (signed in or cancelled): their member's name and session's start. */
export function reservationsNoLongerBooked(ex: Executor, ids: readonly number[]) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .select(['m.name', 't.startTime'])
    .where('r.id', 'in', ids)
    .where('r.status', '!=', ReservationStatus.BOOKED)
    .execute();
}

/** Of some pendings, those no longer waiting (signed in or cancelled): their member's name and session's start. */
export function pendingsNoLongerWaiting(ex: Executor, ids: readonly number[]) {
  return ex
    .selectFrom('pending as p')
    .innerJoin('member as m', 'm.id', 'p.memberId')
    .innerJoin('timetable as t', 't.id', 'p.timetableId')
    .select(['m.name', 't.startTime'])
    .where('p.id', 'in', ids)
    .where('p.status', '!=', PendingStatus.WAITING)
    .execute();
}

/** The cards some bookings charged (those that deducted something), each once. */
export async function chargedCardsOf(ex: Executor, reservationIds: readonly number[]): Promise<number[]> {
  if (!reservationIds.length) return [];
  const rows = await ex
    .selectFrom('reservation')
    .select('memberCardId')
    .distinct()
    .where('id', 'in', reservationIds)
    .where('usedCount', '>', 0)
    .execute();
  return rows.map((r) => r.memberCardId);
}

/** Bookings (reservations) by id, in id order. */
export async function reservationsById(ex: Executor, ids: readonly number[]) {
  if (!ids.length) return [];
  return ex.selectFrom('reservation').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Pendings by id, in id order. */
export async function pendingsById(ex: Executor, ids: readonly number[]) {
  if (!ids.length) return [];
  return ex.selectFrom('pending').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Brings back deleted sessions of the store; answers those that were deleted (and now are not). */
export async function restoreSessions(tx: Tx, storeId: number, ids: readonly number[]): Promise<number[]> {
  const rows = await tx
    .updateTable('timetable')
    .set({ deleted: 0 })
    .where('storeId', '=', storeId)
    .where('id', 'in', ids)
    .where('deleted', '=', 1)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Sets a cancelled booking back to `status` (guarded: only while cancelled); false when it was not cancelled. */
export async function reinstateReservation(tx: Tx, id: number, status: number): Promise<boolean> {
  const res = await tx
    .updateTable('reservation')
    .set({ status, cancelTime: null })
    .where('id', '=', id)
    .where('status', '=', ReservationStatus.CANCELLED)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Sets a cancelled pending back to `status` (guarded: only while cancelled); false when it was not cancelled. */
export async function reinstatePending(tx: Tx, id: number, status: number): Promise<boolean> {
  const res = await tx
    .updateTable('pending')
    .set({ status, cancelTime: null })
    .where('id', '=', id)
    .where('status', '=', PendingStatus.CANCELLED)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
