import { isUniqueViolation } from '../../db/dialect.ts';
import { OperateType, StaffMsg, UNDO_PREVIEW_LINES, type UndoPreview } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { lockCards, lockSessions, lockStore } from '../../db/locks.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { event } from '../../lib/events.ts';
import { localDateTime } from '../../lib/time.ts';
import { deleteSessions, trailWatermark } from '../batch/public.ts';
import { importChangedSince, undoImport, type ImportUndo } from '../import-export/public.ts';
import { namesOf } from '../reference/public.ts';
import {
  sessionChanged,
  cancelPendingLocked,
  cancelReservationLocked,
  deduct,
  bookingTrail,
  pendingTrail,
  retakeSeatsOf,
  writeTrail,
  type TrailEntry,
} from '../timetable/public.ts';
import {
  cardsUsedAfter,
  chargedCardsOf,
  clashesOfDeleted,
  deletedSessionsAmong,
  findEntry,
  findUndoOf,
  pendingsById,
  pendingsNoLongerWaiting,
  reinstatePending,
  reinstateReservation,
  reservationsById,
  reservationsNoLongerBooked,
  restoreSessions,
  sessionsNamedAfter,
  sessionsWithCourse,
  sessionsWithHistoryAfter,
  sessionsWithWaits,
  undoTrailSince,
} from './repository.ts';

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
  /** What an import (导入) made and changed. */
  imported?: ImportUndo;
}

const shortTime = (t: string) => t.slice(5, 16);
/** At most this many things named in a refusal. */
const NAMED = 3;

/** Sessions by id with their course name and start, for messages. */
async function sessionNames(tx: Tx, ids: number[]) {
  const rows = await sessionsWithCourse(tx, ids);
  return new Map(rows.map((r) => [r.id, `${r.courseName} ${shortTime(r.startTime)}`]));
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
      deletedSessionsAmong(tx, created),
      sessionsWithHistoryAfter(tx, created, mark.history),
      sessionsWithWaits(tx, created),
      // A later entry about one of them (a capacity or time change, an online room...).
      sessionsNamedAfter(tx, storeId, created, entryId),
    ]);
    for (const s of gone) out.push(`${names.get(s.id)} 已被删除`);
    for (const s of booked) out.push(`${names.get(s.id)} 之后有预约变动`);
    for (const s of waiting) out.push(`${names.get(s.id)} 有会员候补`);
    const said = new Set([...gone, ...booked, ...waiting].map((s) => s.id));
    for (const s of edited) if (!said.has(s.id)) out.push(`${names.get(s.id)} 之后被修改`);
  }
  if (deleted.length) {
    const clash = await clashesOfDeleted(tx, deleted);
    for (const c of clash) {
      out.push(
        c.teacherId === c.own
          ? `${names.get(c.id)} 的时间${c.name}老师已有别的课`
          : `${names.get(c.id)} 的时间场地已有别的课`,
      );
    }
    // The cards the batch delete refunded (of the bookings it cancelled that had deducted).
    const cards = await chargedCardsOf(
      tx,
      (f.reservations ?? []).map((r) => r.id),
    );
    if (cards.length) {
      const used = await cardsUsedAfter(tx, cards, mark.ledger);
      for (const u of used) out.push(`${u.name}的${u.cardName}在退回后已使用`);
    }
  }
  const booked = f.bookedReservations ?? [];
  if (booked.length) {
    const moved = await reservationsNoLongerBooked(tx, booked);
    for (const r of moved) out.push(`${r.name} ${shortTime(r.startTime)} 的预约已签到或取消`);
  }
  const held = f.bookedPendings ?? [];
  if (held.length) {
    const moved = await pendingsNoLongerWaiting(tx, held);
    for (const p of moved) out.push(`${p.name} ${shortTime(p.startTime)} 的待签到已签到或取消`);
  }
  return out;
}

/**
 * Brings back what a batch delete took: the sessions, their bookings and pendings as they were, the
 * deductions. The sessions are locked already (undoBulk, before its checks).
 */
async function restoreDeleted(tx: Tx, ctx: CallCtx, f: UndoFacts, now: string) {
  const sessions = f.deletedSessions ?? [];
  const back = await restoreSessions(tx, ctx.store.id, sessions);
  if (back.length !== sessions.length) throw conflict(StaffMsg.undoBlocked('部分课程已不是删除状态'));
  const prior = new Map((f.reservations ?? []).map((r) => [r.id, r.status]));
  const reservations = await reservationsById(tx, [...prior.keys()]);
  const pendingPrior = new Map((f.pendings ?? []).map((p) => [p.id, p.status]));
  const pendings = await pendingsById(tx, [...pendingPrior.keys()]);
  // Cards in ascending id after the sessions: the engine's lock order.
  await lockCards(
    tx,
    reservations.map((r) => r.memberCardId),
  );
  const seats = new Map<number, number>();
  const addSeats = (sessionId: number, n: number) => seats.set(sessionId, (seats.get(sessionId) ?? 0) + n);
  // The history and ledger of what comes back, written at once after the rows.
  const trail: TrailEntry[] = [];
  for (const r of reservations) {
    if (!(await reinstateReservation(tx, r.id, prior.get(r.id)!)))
      throw conflict(StaffMsg.undoBlocked('部分预约已有变动'));
    const amount = Number(r.usedCount);
    if (amount > 0) {
      try {
        await deduct(tx, r.memberCardId, amount);
      } catch {
        const [who] = await namesOf(tx, 'member', [r.memberId]);
        throw conflict(StaffMsg.undoBlocked(`${who?.name}的会员卡余额不足或已冻结，无法重新扣除`));
      }
    }
    addSeats(r.timetableId, r.studentCount);
    trail.push(
      bookingTrail(r, { operateType: OperateType.ADMIN_BOOKED, operatorId: ctx.staff.id, remark: '撤销批量删除', now }),
    );
  }
  const fromReservation = new Set(reservations.flatMap((r) => (r.pendingId === null ? [] : [r.pendingId])));
  for (const p of pendings) {
    if (!(await reinstatePending(tx, p.id, pendingPrior.get(p.id)!)))
      throw conflict(StaffMsg.undoBlocked('部分待签到已有变动'));
    // A signed-in pending's seat came back with its booking; a waiting one's is its own.
    if (fromReservation.has(p.id)) continue;
    addSeats(p.timetableId, p.studentCount);
    trail.push(
      pendingTrail(p, { operateType: OperateType.ADMIN_BOOKED, operatorId: ctx.staff.id, now, remark: '撤销批量删除' }),
    );
  }
  await writeTrail(tx, ctx.store.id, trail);
  await retakeSeatsOf(tx, seats);
}

/** Takes back what a drop-in booked: its bookings cancelled and refunded, its pendings cancelled. */
async function cancelBooked(tx: Tx, ctx: CallCtx, f: UndoFacts, now: string) {
  const rIds = f.bookedReservations ?? [];
  const pIds = f.bookedPendings ?? [];
  const reservations = await reservationsById(tx, rIds);
  const pendings = await pendingsById(tx, pIds);
  const sessions = [...new Set([...reservations, ...pendings].map((b) => b.timetableId))];
  await lockSessions(tx, sessions);
  const o = { operatorId: ctx.staff.id, operateType: OperateType.ADMIN_CANCELLED, now };
  for (const r of reservations) await cancelReservationLocked(tx, r, o);
  for (const p of pendings) await cancelPendingLocked(tx, p, o);
  // Freed seats go to whoever waits, as after any cancel.
  await ctx.events.emit(
    tx,
    ...sessions.map((sessionId) => event(sessionChanged, { storeId: ctx.store.id, sessionId })),
  );
}

/** Thrown inside an undo's dry run so that it rolls back; carries the preview out. */
class UndoPreviewDone extends Error {
  constructor(readonly preview: UndoPreview) {
    super('undo dry run');
  }
}

const CANCEL_TYPES: number[] = [OperateType.USER_CANCELLED, OperateType.ADMIN_CANCELLED];

/**
 * What the undo just wrote (above `mark`, in its own transaction), in the words its confirm uses:
 * sessions deleted and brought back, bookings cancelled and brought back, and each refund and each
 * deduction again with its member, card and class. Deductions are those of the bookings it brings
 * back (a seat it frees may promote someone from the queue: that is the queue's doing, not listed).
 */
async function undoPreviewOf(
  tx: Tx,
  storeId: number,
  mark: { history: number; ledger: number },
  f: UndoFacts,
): Promise<UndoPreview> {
  const { history, money } = await undoTrailSince(tx, storeId, mark);
  const restored = new Set((f.reservations ?? []).map((r) => r.id));
  const refunds = money.filter((m) => m.kind === 'refund');
  const charges = money.filter((m) => m.kind === 'deduct' && m.reservationId !== null && restored.has(m.reservationId));
  const lines = (list: typeof money) =>
    list.slice(0, UNDO_PREVIEW_LINES).map((m) => ({
      memberName: m.memberName,
      memberMobile: m.memberMobile,
      cardName: m.cardName,
      courseName: m.courseName ?? '',
      startTime: m.startTime ?? '',
      bigType: m.bigType,
      amount: Math.abs(Number(m.amount)),
    }));
  const total = (list: typeof money) => {
    const per = new Map<number, number>();
    for (const m of list) per.set(m.bigType, (per.get(m.bigType) ?? 0) + Math.abs(Number(m.amount)));
    return [...per].sort(([a], [b]) => a - b).map(([bigType, amount]) => ({ bigType, amount }));
  };
  const members = (list: typeof money) => new Set(list.map((m) => m.memberId)).size;
  return {
    sessionsDeleted: f.createdSessions?.length ?? 0,
    sessionsRestored: f.deletedSessions?.length ?? 0,
    bookingsCancelled: history.filter((h) => CANCEL_TYPES.includes(h.operateType)).length,
    bookingsRestored: history.filter((h) => h.operateType === OperateType.ADMIN_BOOKED).length,
    refunds: lines(refunds),
    moreRefunds: Math.max(0, refunds.length - UNDO_PREVIEW_LINES),
    refundTotal: total(refunds),
    refundedMembers: members(refunds),
    charges: lines(charges),
    moreCharges: Math.max(0, charges.length - UNDO_PREVIEW_LINES),
    chargeTotal: total(charges),
    chargedMembers: members(charges),
  };
}

/**
 * Undoes the bulk change of an audit entry, in one transaction: sessions it created are deleted with
 * their bookings refunded, sessions it deleted come back with their bookings, pendings and
 * deductions, bookings it made are cancelled and refunded. Refused, naming what changed, when
 * anything that depends on it changed since; within 24 hours; once (the undo's own entry names the
 * entry it undoes, unique).
 *
 * With `dryRun` the very same undo runs, what it wrote is read back (its refunds and deductions with
 * member, card and class) and its transaction is rolled back: the answer is its preview, for the
 * confirm. A refusal is answered as it would be by the undo.
 */
export async function undoBulk(ctx: CallCtx, auditId: number, dryRun = false): Promise<UndoPreview | null> {
  try {
    await inOwnTx(ctx.db, async (tx) => {
      // Undos of one store run one at a time (so "once" and the checks below hold under concurrency).
      await lockStore(tx, ctx.store.id);
      const entry = await findEntry(tx, ctx.store.id, auditId);
      if (!entry) throw notFound('操作记录');
      if (!entry.undoJson) throw conflict(StaffMsg.undoNotBulk);
      const done = await findUndoOf(tx, entry.id);
      if (done) throw conflict(StaffMsg.undoDone);
      if (Date.now() - Number(entry.at) >= UNDO_WINDOW_MS) throw conflict(StaffMsg.undoExpired);
      const facts = JSON.parse(entry.undoJson) as UndoFacts;
      const touched = [...(facts.createdSessions ?? []), ...(facts.deletedSessions ?? [])];
      await lockSessions(tx, touched);
      const changed = await changedSince(tx, ctx.store.id, entry.id, facts);
      if (facts.imported) changed.push(...(await importChangedSince(tx, ctx.store.id, entry.id, facts.imported)));
      if (changed.length) {
        const more = changed.length > NAMED ? ` 等${changed.length}项` : '';
        throw conflict(StaffMsg.undoBlocked(`${changed.slice(0, NAMED).join('；')}${more}`));
      }
      const now = localDateTime(ctx.store.timezone);
      // A dry run reads back what the undo writes above these ids.
      const mark = dryRun ? await trailWatermark(tx) : null;
      if (facts.createdSessions?.length) {
        await deleteSessions(tx, ctx.store, facts.createdSessions, ctx.staff.id, ctx.events);
      }
      if (facts.bookedReservations?.length || facts.bookedPendings?.length) await cancelBooked(tx, ctx, facts, now);
      if (facts.deletedSessions?.length) await restoreDeleted(tx, ctx, facts, now);
      if (facts.imported) await undoImport(tx, ctx.store.id, facts.imported);
      audit(tx, {
        kind: 'bulk',
        summary: `撤销：${entry.summary}`,
        undoOf: entry.id,
        targets: touched.map((id) => ({ type: 'session' as const, id })),
      });
      if (mark) throw new UndoPreviewDone(await undoPreviewOf(tx, ctx.store.id, mark, facts));
    });
  } catch (e) {
    if (e instanceof UndoPreviewDone) return e.preview;
    if (isUniqueViolation(e)) throw conflict(StaffMsg.undoDone);
    throw e;
  }
  return null;
}
