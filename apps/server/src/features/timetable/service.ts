import { OperateType, TimetableMsg, type ParsedReqOf } from '@studio/contract';
import type { addGroupPending, addMemberReservation, insertTimetable, updateTimetable } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { valueOf } from '../../lib/settled.ts';
import { localDateTime, toDateTime } from '../../lib/time.ts';
import {
  addPending,
  bookingReads,
  bookWithCard,
  cancelPending,
  cancelReservation,
  createSession,
  deleteSession,
  signInPending,
  updateSession,
} from './public.ts';
import { emit, readAhead } from '../../lib/events.ts';
import { bookingRules, loadPolicy } from '../policy/public.ts';
import { onlineDefault } from '../store-admin/public.ts';
import { inWriteTx } from '../../db/write-queue.ts';

/** Adds one session (a teacher or room clash refused). */
export async function addSession(ctx: CallCtx, input: ParsedReqOf<typeof insertTimetable>): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) =>
    createSession(tx, ctx.store, {
      courseId: input.courseId,
      teacherId: input.teacherId,
      areaId: input.areaId,
      bookId: input.bookId,
      startTime: toDateTime(input.date, input.time),
      reservableCount: input.reservableCount ?? undefined,
      // Not said: the store's 新课程默认在线教室 (module 1).
      isOnline: input.isOnline ?? (await onlineDefault(tx, ctx.store.id)),
    }),
  );
}

/** Edits a session: teacher, start, capacity, area, material. */
export async function editSession(ctx: CallCtx, input: ParsedReqOf<typeof updateTimetable>): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await updateSession(tx, ctx.store, {
      id: input.id,
      teacherId: input.teacherId,
      startTime: toDateTime(input.date, input.time),
      reservableCount: input.count,
      areaId: input.areaId,
      bookId: input.bookId,
    });
    await emit(tx, { type: 'session.changed', storeId: ctx.store.id, timetableId: input.id });
  });
}

/** Deletes a session with every booking cancelled and refunded. */
export async function removeSession(ctx: CallCtx, id: number, confirmEnded = false): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const { refunds } = await deleteSession(tx, ctx.store, {
      timetableId: id,
      operatorId: ctx.staff.id,
      ended: { confirmed: confirmEnded },
    });
    await emit(tx, { type: 'session.deleted', storeId: ctx.store.id, timetableId: id, refunds });
  });
}

/**
 * Books a member card (deduction mode 0). In mode 1 staff book through the pending call instead,
 * so this call is refused with a message saying so.
 */
export async function bookCard(ctx: CallCtx, input: ParsedReqOf<typeof addMemberReservation>): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    // The rules, the session and the card in one round trip, with what the listeners of the
    // booking read first (the store's webhook); the mode is checked first.
    readAhead(tx, ctx.store.id, 'reservation.booked');
    const [read, reads] = await Promise.allSettled([
      bookingRules(tx, ctx.store.id),
      bookingReads(tx, ctx.store.id, input.tid, input.mcId, localDateTime(ctx.store.timezone)),
    ]);
    const rules = valueOf(read);
    if (rules.deductionMode === 1) throw conflict(TimetableMsg.useSignInBooking);
    const { reservationId } = await bookWithCard(
      tx,
      ctx.store,
      {
        timetableId: input.tid,
        memberCardId: input.mcId,
        memberId: input.mid ?? undefined,
        studentCount: input.studentCount,
        remark: input.remark,
        operatorId: ctx.staff.id,
        operateType: OperateType.ADMIN_BOOKED,
        staffPolicy: rules.policy,
        entryFirst: true,
      },
      valueOf(reads),
    );
    await emit(tx, { type: 'reservation.booked', storeId: ctx.store.id, reservationId });
  });
}

/** Books a member to sign in later (deduction mode 1 only). */
export async function bookPending(ctx: CallCtx, input: ParsedReqOf<typeof addGroupPending>): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const rules = await bookingRules(tx, ctx.store.id);
    if (rules.deductionMode !== 1) throw conflict(TimetableMsg.usePlainBooking);
    const { pendingId } = await addPending(tx, ctx.store, {
      timetableId: input.tid,
      memberId: input.mid,
      studentCount: input.studentCount,
      remark: input.remark,
      operatorId: ctx.staff.id,
      staffPolicy: rules.policy,
      memberCardId: input.mcId,
      requireUsableCard: true,
    });
    await emit(tx, { type: 'pending.added', storeId: ctx.store.id, pendingId });
  });
}

/** Cancels a booking with its refund. */
export async function cancelBooking(ctx: CallCtx, id: number, confirmEnded = false): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await cancelReservation(tx, ctx.store, {
      confirmEnded,
      reservationId: id,
      operatorId: ctx.staff.id,
      operateType: OperateType.ADMIN_CANCELLED,
      staffPolicy: await loadPolicy(tx, ctx.store.id),
    });
    await emit(tx, { type: 'reservation.cancelled', storeId: ctx.store.id, reservationId: id });
  });
}

/** Cancels a pending booking (nothing to refund). */
export async function cancelWaiting(ctx: CallCtx, pendingId: number): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await cancelPending(tx, ctx.store, { pendingId, operatorId: ctx.staff.id });
    await emit(tx, { type: 'pending.cancelled', storeId: ctx.store.id, pendingId });
  });
}

/** Signs a pending booking in with a card (deducts). */
export async function signIn(
  ctx: CallCtx,
  input: { pendingId: number; mcId: number; remark: string | null },
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, (tx) =>
    signInPending(tx, ctx.store, {
      pendingId: input.pendingId,
      memberCardId: input.mcId,
      remark: input.remark,
      operatorId: ctx.staff.id,
    }),
  );
}
