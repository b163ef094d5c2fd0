import { OperateType, TimetableMsg, type ParsedReqOf } from '@studio/contract';
import type { addGroupPending, addMemberReservation, insertTimetable, updateTimetable } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import type { WithCard, WithSession, WithVenueAndMaterial } from '../../lib/wire-names.ts';
import { conflict } from '../../lib/errors.ts';
import { localDateTime, toDateTime } from '../../lib/time.ts';
import {
  addPending,
  bookWithCard,
  cancelPending,
  cancelReservation,
  createSession,
  deleteSession,
  signInPending,
  updateSession,
} from './public.ts';
import { event } from '../../lib/events.ts';
import { bookingCancelled, bookingMade, memberAttended, sessionChanged, sessionDeleted } from './events.ts';
import { bookingRules, loadPolicy } from '../policy/public.ts';
import { loadDeskBookingContext } from './booking-context-repository.ts';
import { onlineDefault } from '../store-admin/public.ts';
import { inWriteTx } from '../../lib/write-queue.ts';

/** Adds one session (a teacher or room clash refused). */
export async function addSession(
  ctx: CallCtx,
  input: WithVenueAndMaterial<ParsedReqOf<typeof insertTimetable>>,
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) =>
    createSession(tx, ctx.store, {
      courseId: input.courseId,
      teacherId: input.teacherId,
      venueId: input.venueId,
      materialId: input.materialId,
      startTime: toDateTime(input.date, input.time),
      reservableCount: input.reservableCount ?? undefined,
      // Not said: the store's 新课程默认在线教室 (module 1).
      isOnline: input.isOnline ?? (await onlineDefault(tx, ctx.store.id)),
    }),
  );
}

/** Edits a session: teacher, start, capacity, area, material. */
export async function editSession(
  ctx: CallCtx,
  input: WithVenueAndMaterial<ParsedReqOf<typeof updateTimetable>>,
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await updateSession(
      tx,
      ctx.store,
      {
        id: input.id,
        teacherId: input.teacherId,
        startTime: toDateTime(input.date, input.time),
        reservableCount: input.count,
        venueId: input.venueId,
        materialId: input.materialId,
      },
      ctx.events,
    );
    await ctx.events.emit(tx, event(sessionChanged, { storeId: ctx.store.id, sessionId: input.id }));
  });
}

/** Deletes a session with every booking cancelled and refunded. */
export async function removeSession(ctx: CallCtx, id: number, confirmEnded = false): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const { refunds } = await deleteSession(tx, ctx.store, {
      sessionId: id,
      operatorId: ctx.staff.id,
      ended: { confirmed: confirmEnded },
    });
    await ctx.events.emit(tx, event(sessionDeleted, { storeId: ctx.store.id, sessionId: id, refunds }));
  });
}

/**
 * Books a member card (deduction mode 0). In mode 1 staff book through the pending call instead,
 * so this call is refused with a message saying so.
 */
export async function bookCard(
  ctx: CallCtx,
  input: WithCard<WithSession<ParsedReqOf<typeof addMemberReservation>>>,
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    // The store's rules, the session and the card, read together. In 签到后扣费 staff add a pending
    // instead: that refusal comes first, before 404 课程不存在 / 会员卡不存在.
    const { rules, booking } = await loadDeskBookingContext(tx, {
      storeId: ctx.store.id,
      sessionId: input.sessionId,
      memberCardId: input.memberCardId,
      now: localDateTime(ctx.store.timezone),
    });
    if (rules.deductionMode === 1) throw conflict(TimetableMsg.useSignInBooking);
    const { fact } = await bookWithCard(
      tx,
      ctx.store,
      {
        sessionId: input.sessionId,
        memberCardId: input.memberCardId,
        memberId: input.mid ?? undefined,
        studentCount: input.studentCount,
        remark: input.remark,
        operatorId: ctx.staff.id,
        operateType: OperateType.ADMIN_BOOKED,
        staffPolicy: rules.policy,
        isTheCallsChange: true,
      },
      booking(),
    );
    await ctx.events.emit(tx, event(bookingMade, fact));
  });
}

/** Books a member to sign in later (deduction mode 1 only). */
export async function bookPending(
  ctx: CallCtx,
  input: WithCard<WithSession<ParsedReqOf<typeof addGroupPending>>>,
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const rules = await bookingRules(tx, ctx.store.id);
    if (rules.deductionMode !== 1) throw conflict(TimetableMsg.usePlainBooking);
    const { fact } = await addPending(tx, ctx.store, {
      sessionId: input.sessionId,
      memberId: input.mid,
      studentCount: input.studentCount,
      remark: input.remark,
      operatorId: ctx.staff.id,
      staffPolicy: rules.policy,
      memberCardId: input.memberCardId,
      requireUsableCard: true,
    });
    await ctx.events.emit(tx, event(bookingMade, fact));
  });
}

/** Cancels a booking with its refund. */
export async function cancelBooking(ctx: CallCtx, id: number, confirmEnded = false): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const { fact } = await cancelReservation(tx, ctx.store, {
      confirmEnded,
      reservationId: id,
      operatorId: ctx.staff.id,
      operateType: OperateType.ADMIN_CANCELLED,
      staffPolicy: await loadPolicy(tx, ctx.store.id),
    });
    await ctx.events.emit(tx, event(bookingCancelled, fact));
  });
}

/** Cancels a pending booking (nothing to refund). */
export async function cancelWaiting(ctx: CallCtx, pendingId: number): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const fact = await cancelPending(tx, ctx.store, { pendingId, operatorId: ctx.staff.id });
    await ctx.events.emit(tx, event(bookingCancelled, fact));
  });
}

/** Signs a pending booking in with a card (deducts). */
export async function signIn(
  ctx: CallCtx,
  input: { pendingId: number; memberCardId: number; remark: string | null },
): Promise<void> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const done = await signInPending(tx, ctx.store, {
      pendingId: input.pendingId,
      memberCardId: input.memberCardId,
      remark: input.remark,
      operatorId: ctx.staff.id,
    });
    await ctx.events.emit(
      tx,
      event(memberAttended, {
        storeId: ctx.store.id,
        memberId: done.memberId,
        sessionId: done.sessionId,
        now: done.now,
      }),
    );
  });
}
