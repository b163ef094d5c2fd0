import { isUniqueViolation } from '../../db/dialect.ts';
import { OperateType, PendingStatus, ReservationStatus, StaffMsg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { lockCards, lockSessions, lockStore } from '../../db/locks.ts';
import { inOwnTx } from '../../db/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { emit } from '../../lib/events.ts';
import { localDateTime } from '../../lib/time.ts';
import { deleteSessions } from '../batch/public.ts';
import {
  cancelPendingLocked,
  cancelReservationLocked,
  deduct,
  bookingTrail,
  writeTrail,
  type TrailEntry,
} from '../timetable/public.ts';

/** A bulk change can be undone this long after it was made. */
export const UNDO_WINDOW_MS = 24 * 3600 * 1000;

/** What a bulk change recorded for its undo (recordForUndo in the bulk writers; bulkTx adds the marks). */
interface UndoFacts {
  createdSessions?: number[];
  deletedSessions?: number[];
  /** Bookings a batch delete cancelled, with their status before. */
  reservations?: { id: number; status: number }[];
  pendings?: { id: number; status: number }[];
  /** Bookings (or pendings) a drop-in made. */
  bookedReservations?: number[];
  bookedPendings?: number[];
  /** The highest history and ledger ids when the change committed: rows above them came after it. */
  marks?: { history: number; ledger: number }[];
}

const shortTime = (t: string) => t.slice(5, 16);
/** At most this many things named in a refusal. */
const NAMED = 3;

/** Sessions by id with their course name and start, for messages. */
async function sessionNames(tx: Tx, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const rows = await tx
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .select(['t.id', 'c.name', 't.startTime'])
    .where('t.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.name} ${shortTime(r.startTime)}`]));
}

/**
 * What changed since the bulk change that its undo would overwrite or lose, in words; empty when
 * nothing did. Checked under the locks the undo then writes under.
 */
async function changedSince(tx: Tx, storeId: number, entryId: number, f: UndoFacts): Promise<string[]> {
  const mark = {
    history: Math.max(0, ...(f.marks ?? []).map((m) => m.history)),
    ledger: Math.max(0, ...(f.marks ?? []).map((m) => m.ledger)),
  };
  const out: string[] = [];
  const created = f.createdSessions ?? [];
  const deleted = f.deletedSessions ?? [];
  const names = await sessionNames(tx, [...created, ...deleted]);
  if (created.length) {
    const [gone, booked, waiting, edited] = await Promise.all([
      tx.selectFrom('timetable').select('id').where('id', 'in', created).where('deleted', '=', 1).execute(),
      tx
        .selectFrom('history')
        .select('timetableId as id')
        .distinct()
        .where('timetableId', 'in', created)
        .where('id', '>', mark.history)
        .execute(),
      tx.selectFrom('waitlist').select('timetableId as id').distinct().where('timetableId', 'in', created).execute(),
      // A later entry about one of them (a capacity or time change, an online room...).
      tx
        .selectFrom('auditTarget as t')
        .innerJoin('auditLog as a', 'a.id', 't.auditId')
        .select('t.refId as id')
        .distinct()
        .where('t.storeId', '=', storeId)
        .where('t.type', '=', 'session')
        .where('t.refId', 'in', created)
        .where('a.id', '>', entryId)
        .execute(),
    ]);
    for (const s of gone) out.push(`${names.get(s.id)} 已被删除`);
    for (const s of booked) out.push(`${names.get(s.id)} 之后有预约变动`);
    for (const s of waiting) out.push(`${names.get(s.id)} 有会员候补`);
    const said = new Set([...gone, ...booked, ...waiting].map((s) => s.id));
    for (const s of edited) if (!said.has(s.id)) out.push(`${names.get(s.id)} 之后被修改`);
  }
  if (deleted.length) {
    const clash = await tx
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
      .where('d.id', 'in', deleted)
      .where((eb) => eb.or([eb('t.teacherId', '=', eb.ref('d.teacherId')), eb('t.areaId', '=', eb.ref('d.areaId'))]))
      .execute();
    for (const c of clash) {
      out.push(
        c.teacherId === c.own
          ? `${names.get(c.id)} 的时间${c.name}老师已有别的课`
          : `${names.get(c.id)} 的时间场地已有别的课`,
      );
    }
    const cards = await refundedCards(tx, f);
    if (cards.length) {
      const used = await tx
        .selectFrom('cardLedger as l')
        .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
        .innerJoin('member as m', 'm.id', 'mc.memberId')
        .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
        .select(['mc.id', 'm.name', 'p.cardName'])
        .distinct()
        .where('l.memberCardId', 'in', cards)
        .where('l.id', '>', mark.ledger)
        .execute();
      for (const u of used) out.push(`${u.name}的${u.cardName}在退回后已使用`);
    }
  }
  const booked = f.bookedReservations ?? [];
  if (booked.length) {
    const moved = await tx
      .selectFrom('reservation as r')
      .innerJoin('member as m', 'm.id', 'r.memberId')
      .innerJoin('timetable as t', 't.id', 'r.timetableId')
      .select(['m.name', 't.startTime'])
      .where('r.id', 'in', booked)
      .where('r.status', '!=', ReservationStatus.BOOKED)
      .execute();
    for (const r of moved) out.push(`${r.name} ${shortTime(r.startTime)} 的预约已签到或取消`);
  }
  const held = f.bookedPendings ?? [];
  if (held.length) {
    const moved = await tx
      .selectFrom('pending as p')
      .innerJoin('member as m', 'm.id', 'p.memberId')
      .innerJoin('timetable as t', 't.id', 'p.timetableId')
      .select(['m.name', 't.startTime'])
      .where('p.id', 'in', held)
      .where('p.status', '!=', PendingStatus.WAITING)
      .execute();
    for (const p of moved) out.push(`${p.name} ${shortTime(p.startTime)} 的待签到已签到或取消`);
  }
  return out;
}

/** The cards a batch delete refunded (of the bookings it cancelled that had deducted). */
async function refundedCards(tx: Tx, f: UndoFacts): Promise<number[]> {
  const ids = (f.reservations ?? []).map((r) => r.id);
  if (!ids.length) return [];
  const rows = await tx
    .selectFrom('reservation')
    .select('memberCardId')
    .distinct()
    .where('id', 'in', ids)
    .where('usedCount', '>', 0)
    .execute();
  return rows.map((r) => r.memberCardId);
}

/** Brings back what a batch delete took: the sessions, their bookings and pendings as they were, the deductions. */
async function restoreDeleted(tx: Tx, ctx: CallCtx, f: UndoFacts, now: string) {
  const sessions = f.deletedSessions ?? [];
  await lockSessions(tx, sessions);
  const back = await tx
    .updateTable('timetable')
    .set({ deleted: 0 })
    .where('storeId', '=', ctx.store.id)
    .where('id', 'in', sessions)
    .where('deleted', '=', 1)
    .returning('id')
    .execute();
  if (back.length !== sessions.length) throw conflict(StaffMsg.undoBlocked('部分课程已不是删除状态'));
  const prior = new Map((f.reservations ?? []).map((r) => [r.id, r.status]));
  const reservations = prior.size
    ? await tx
        .selectFrom('reservation')
        .selectAll()
        .where('id', 'in', [...prior.keys()])
        .orderBy('id')
        .execute()
    : [];
  const pendingPrior = new Map((f.pendings ?? []).map((p) => [p.id, p.status]));
  const pendings = pendingPrior.size
    ? await tx
        .selectFrom('pending')
        .selectAll()
        .where('id', 'in', [...pendingPrior.keys()])
        .orderBy('id')
        .execute()
    : [];
  // Cards in ascending id after the sessions: the engine's lock order.
  await lockCards(
    tx,
    reservations.map((r) => r.memberCardId),
  );
  const seats = new Map<number, number>();
  const addSeats = (tid: number, n: number) => seats.set(tid, (seats.get(tid) ?? 0) + n);
  // The history and ledger of what comes back, written at once after the rows.
  const trail: TrailEntry[] = [];
  for (const r of reservations) {
    const res = await tx
      .updateTable('reservation')
      .set({ status: prior.get(r.id)!, cancelTime: null })
      .where('id', '=', r.id)
      .where('status', '=', ReservationStatus.CANCELLED)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict(StaffMsg.undoBlocked('部分预约已有变动'));
    const amount = Number(r.usedCount);
    if (amount > 0) {
      try {
        await deduct(tx, r.memberCardId, amount);
      } catch {
        const who = await tx.selectFrom('member').select('name').where('id', '=', r.memberId).executeTakeFirstOrThrow();
        throw conflict(StaffMsg.undoBlocked(`${who.name}的会员卡余额不足或已冻结，无法重新扣除`));
      }
    }
    addSeats(r.timetableId, r.studentCount);
    trail.push(
      bookingTrail(r, { operateType: OperateType.ADMIN_BOOKED, operatorId: ctx.staff.id, remark: '撤销批量删除', now }),
    );
  }
  const fromReservation = new Set(reservations.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId])));
  for (const p of pendings) {
    const res = await tx
      .updateTable('pending')
      .set({ status: pendingPrior.get(p.id)!, cancelTime: null })
      .where('id', '=', p.id)
      .where('status', '=', PendingStatus.CANCELLED)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict(StaffMsg.undoBlocked('部分待签到已有变动'));
    // A signed-in pending's seat came back with its booking; a waiting one's is its own.
    if (fromReservation.has(p.id)) continue;
    addSeats(p.timetableId, p.studentCount);
    trail.push({
      timetableId: p.timetableId,
      memberId: p.memberId,
      memberCardId: null,
      reservationId: null,
      pendingId: p.id,
      studentCount: p.studentCount,
      usedCount: 0,
      operateType: OperateType.ADMIN_BOOKED,
      operatorId: ctx.staff.id,
      remark: '撤销批量删除',
      now,
    });
  }
  await writeTrail(tx, ctx.store.id, trail);
  for (const [tid, n] of [...seats].sort(([a], [b]) => a - b)) {
    await tx
      .updateTable('timetable')
      .set((eb) => ({ realCount: eb('realCount', '+', n) }))
      .where('id', '=', tid)
      .execute();
  }
}

/** Takes back what a drop-in booked: its bookings cancelled and refunded, its pendings cancelled. */
async function cancelBooked(tx: Tx, ctx: CallCtx, f: UndoFacts, now: string) {
  const rIds = f.bookedReservations ?? [];
  const pIds = f.bookedPendings ?? [];
  const reservations = rIds.length
    ? await tx.selectFrom('reservation').selectAll().where('id', 'in', rIds).orderBy('id').execute()
    : [];
  const pendings = pIds.length
    ? await tx.selectFrom('pending').selectAll().where('id', 'in', pIds).orderBy('id').execute()
    : [];
  const sessions = [...new Set([...reservations, ...pendings].map((b) => b.timetableId))];
  await lockSessions(tx, sessions);
  const o = { operatorId: ctx.staff.id, operateType: OperateType.ADMIN_CANCELLED, now };
  for (const r of reservations) await cancelReservationLocked(tx, r, o);
  for (const p of pendings) await cancelPendingLocked(tx, p, o);
  // Freed seats go to whoever waits, as after any cancel.
  for (const timetableId of sessions) await emit(tx, { type: 'session.changed', storeId: ctx.store.id, timetableId });
}

/**
 * Undoes the bulk change of an audit entry, in one transaction: sessions it created are deleted with
 * their bookings refunded, sessions it deleted come back with their bookings, pendings and
 * deductions, bookings it made are cancelled and refunded. Refused, naming what changed, when
 * anything that depends on it changed since; within 24 hours; once (the undo's own entry names the
 * entry it undoes, unique).
 */
export async function undoBulk(ctx: CallCtx, auditId: number): Promise<void> {
  try {
    await inOwnTx(ctx.db, async (tx) => {
      // Undos of one store run one at a time (so "once" and the checks below hold under concurrency).
      await lockStore(tx, ctx.store.id);
      const entry = await tx
        .selectFrom('auditLog')
        .selectAll()
        .where('id', '=', auditId)
        .where('storeId', '=', ctx.store.id)
        .executeTakeFirst();
      if (!entry) throw notFound('操作记录');
      if (!entry.undoJson) throw conflict(StaffMsg.undoNotBulk);
      const done = await tx.selectFrom('auditLog').select('id').where('undoOf', '=', entry.id).executeTakeFirst();
      if (done) throw conflict(StaffMsg.undoDone);
      if (Date.now() - Number(entry.at) >= UNDO_WINDOW_MS) throw conflict(StaffMsg.undoExpired);
      const facts = JSON.parse(entry.undoJson) as UndoFacts;
      const touched = [...(facts.createdSessions ?? []), ...(facts.deletedSessions ?? [])];
      await lockSessions(tx, touched);
      const changed = await changedSince(tx, ctx.store.id, entry.id, facts);
      if (changed.length) {
        const more = changed.length > NAMED ? ` 等${changed.length}项` : '';
        throw conflict(StaffMsg.undoBlocked(`${changed.slice(0, NAMED).join('；')}${more}`));
      }
      const now = localDateTime(ctx.store.timezone);
      if (facts.createdSessions?.length) {
        await deleteSessions(tx, ctx.store, facts.createdSessions, ctx.staff.id);
      }
      if (facts.bookedReservations?.length || facts.bookedPendings?.length) await cancelBooked(tx, ctx, facts, now);
      if (facts.deletedSessions?.length) await restoreDeleted(tx, ctx, facts, now);
      audit(tx, {
        kind: 'bulk',
        summary: `撤销：${entry.summary}`,
        undoOf: entry.id,
        targets: touched.map((id) => ({ type: 'session' as const, id })),
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(StaffMsg.undoDone);
    throw e;
  }
}
