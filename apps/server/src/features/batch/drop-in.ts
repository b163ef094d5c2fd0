import { Msg, OperateType } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { recordForUndo } from '../../lib/audit.ts';
import { conflict } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { lockSessions } from '../../db/locks.ts';
import {
  allowedCardsOf,
  bookSet,
  cardsForNewBookings,
  getDeductionMode,
  sessionForRules,
  bookingsMade,
} from '../timetable/public.ts';
import { event } from '../../lib/events.ts';
import { shortTime } from './plan.ts';
import { requireCourse, requireTeachers } from '../reference/public.ts';
import { bulkTx } from './preview.ts';
import { countUpcoming, teachersOfUpcoming, upcomingNotHeld, type UpcomingFilter } from './repository.ts';

/**
 * Live sessions of a course still to come (not yet over) from `startDate` on: the ones a drop-in
 * student can be booked into. Optionally only those of some teachers.
 */
function upcoming(ctx: CallCtx, cid: number, startDate: string, teacherIds?: readonly number[]): UpcomingFilter {
  return {
    storeId: ctx.store.id,
    courseId: cid,
    startDate,
    now: localDateTime(ctx.store.timezone),
    ...(teacherIds ? { teacherIds } : {}),
  };
}

/** Teachers who teach course `cid` in sessions still to come from `startDate` on. */
export async function teachersWithSessions(ctx: CallCtx, input: { cid: number; startDate: string }) {
  await requireCourse(ctx.db, ctx.store.id, input.cid);
  return teachersOfUpcoming(ctx.db, upcoming(ctx, input.cid, input.startDate));
}

/** How many sessions of course `cid` taught by any of `teacherIds` are still to come from `startDate` on. */
export async function sessionsLeft(ctx: CallCtx, input: { cid: number; startDate: string; teacherIds: number[] }) {
  await requireCourse(ctx.db, ctx.store.id, input.cid);
  await requireTeachers(ctx.db, ctx.store.id, input.teacherIds);
  return countUpcoming(ctx.db, upcoming(ctx, input.cid, input.startDate, input.teacherIds));
}

/**
 * Books a member card into the next `times` sessions of course `cid` taught by any of `teacherIds` from
 * `startDate` on, skipping sessions the member already holds a booking or pending in. Fewer such
 * sessions than `times` is refused (409 仅有N节课可预约) rather than booking part of the request.
 * Each booking goes through the engine (mode 0 with the card, mode 1 as a pending); all or nothing.
 */
export async function addDropInStudent(
  ctx: CallCtx,
  input: {
    memberCardId: number;
    cid: number;
    teacherIds: number[];
    startDate: string;
    times: number;
    dryRun?: boolean;
  },
) {
  const storeId = ctx.store.id;
  return bulkTx(ctx, input.dryRun, async (tx) => {
    await requireCourse(tx, storeId, input.cid);
    await requireTeachers(tx, storeId, input.teacherIds);
    const card = (await cardsForNewBookings(tx, storeId, [input.memberCardId], localDateTime(ctx.store.timezone))).get(
      input.memberCardId,
    )!;
    const sessions = await upcomingNotHeld(
      tx,
      upcoming(ctx, input.cid, input.startDate, input.teacherIds),
      card.memberId,
      input.times,
    );
    if (sessions.length < input.times) throw conflict(Msg.fewerSessions(sessions.length));
    const mode = await getDeductionMode(tx, storeId);
    const allowed = await allowedCardsOf(
      tx,
      sessions.map((s) => s.id),
    );
    // Lock order: every session (ascending id) before the card that pays for them.
    await lockSessions(
      tx,
      sessions.map((s) => s.id),
    );
    // One set through the engine: its rules over every booking, then the seats, the card, the trail.
    const member = { id: card.memberId, name: card.memberName, gender: card.gender, birthday: card.birthday };
    const ids = await bookSet(
      tx,
      storeId,
      sessions.map((s) => ({
        session: sessionForRules(s, allowed.get(s.id) ?? []),
        member,
        card,
        studentCount: 1,
        remark: null,
      })),
      {
        mode,
        now: localDateTime(ctx.store.timezone),
        operatorId: ctx.staff.id,
        operateType: OperateType.ADMIN_BOOKED,
        refuse: (b, reason) => conflict(Msg.arrangeFailed(shortTime(b.session.startTime), card.memberName, reason)),
      },
    );
    // What an undo cancels: the bookings (or pendings) just made.
    recordForUndo(
      tx,
      mode === 0 ? { bookedReservations: ids, bookedPendings: [] } : { bookedReservations: [], bookedPendings: ids },
    );
    const made = { storeId, source: '批量预约', sessions: sessions.length, bookings: ids.length };
    await ctx.events.emit(tx, event(bookingsMade, made));
    return { count: sessions.length };
  });
}
