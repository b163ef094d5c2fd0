import { OperateType } from '@studio/contract';
import { recordForUndo } from '../../lib/audit.ts';
import type { Tx } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import {
  refuseSet,
  sessionRow,
  recheckOpenUse,
  writeBookingSet,
  writeSessions,
  type SessionForRules,
  type SetBooking,
  bookingsMade,
} from '../timetable/public.ts';
import { event, type Events } from '../../lib/events.ts';
import type { CourseWithCards } from '../reference/public.ts';
import type { BookingCard } from '../cards/public.ts';

/** One session a bulk run makes, with the fixed students to book into it. */
export interface PlannedSession {
  course: CourseWithCards;
  teacherId: number;
  venueId: number | null;
  materialId: number | null;
  startTime: string;
  endTime: string;
  reservableCount: number;
  isOnline: number;
  students: { card: BookingCard; studentCount: number }[];
  /** The message of a booking of this session that breaks a rule: names the session and the member. */
  failure: (memberName: string, reason: string) => string;
}

/** The session row a plan entry writes, its seats taken by its fixed students. */
function plannedRow(storeId: number, s: PlannedSession, now: string) {
  const realCount = s.students.reduce((n, x) => n + x.studentCount, 0);
  return sessionRow(storeId, { ...s, courseId: s.course.id, realCount }, s.course, now);
}

/**
 * Writes new sessions through the engine's bulk writer (teacher and room clashes refused there, 409
 * naming the clashing new sessions), each with the card products allowed to book it (`cardIds[i]`
 * for `rows[i]`), and records them for the bulk change's undo. Answers their ids in row order.
 */
export async function insertNewSessions(
  tx: Tx,
  storeId: number,
  rows: readonly ReturnType<typeof sessionRow>[],
  cardIds: readonly (readonly number[])[],
): Promise<number[]> {
  const ids = await writeSessions(tx, storeId, rows, cardIds);
  recordForUndo(tx, { createdSessions: ids });
  return ids;
}

/** The bookings of a plan as the engine's rule set reads them; each session's key is its place in the plan until written. */
function intendedBookings(plan: readonly PlannedSession[], rows: readonly ReturnType<typeof plannedRow>[]) {
  const planOf = new Map<SetBooking, PlannedSession>();
  const sessions: SessionForRules[] = [];
  const bookings = plan.flatMap((s, i) => {
    // Checked before its seats are taken: the row is written with them (realCount).
    const session: SessionForRules = { ...rows[i], key: i, realCount: 0, allowedCardIds: s.course.cardIds };
    sessions.push(session);
    return s.students.map(({ card, studentCount }) => {
      const b: SetBooking = {
        session,
        member: { id: card.memberId, name: card.memberName, gender: card.gender, birthday: card.birthday },
        card,
        studentCount,
        remark: null,
      };
      planOf.set(b, s);
      return b;
    });
  });
  const refuse = (b: SetBooking, reason: string) => conflict(planOf.get(b)!.failure(b.member.name, reason));
  /** Once the sessions are written: each session's key becomes its id. */
  const keyBy = (id: (i: number) => number) => sessions.forEach((session, i) => (session.key = id(i)));
  return { bookings, refuse, keyBy };
}

/**
 * Makes many sessions with their fixed students in the caller's transaction, in bulk: the session
 * rows (with their seats taken) in multi-row INSERTs through the engine's writer (a teacher or room
 * clash refused there, before anything is written), then the bookings through the engine's set
 * writer (`writeBookingSet`: each card charged once with its total under the guarded UPDATE, the
 * reservations or pendings and their trail in multi-row INSERTs). Every booking is checked by the
 * engine's rule set (`refuseSet`) before the first booking is written. Returns the new session ids
 * in plan order.
 */
export async function createPlannedSessions(
  tx: Tx,
  store: StoreScope,
  plan: readonly PlannedSession[],
  o: {
    mode: 0 | 1;
    operatorId: number | null;
    now: string;
    /** What makes them, in the staff's words. */ source: string;
    /** The app's listeners, told of the bookings made. */
    events: Events;
  },
): Promise<number[]> {
  if (!plan.length) return [];
  const options = { mode: o.mode, now: o.now, operatorId: o.operatorId, operateType: OperateType.ADMIN_BOOKED };
  const sessionRows = plan.map((s) => plannedRow(store.id, s, o.now));
  const planned = intendedBookings(plan, sessionRows);
  // The sessions first (their clashes are refused before any row is written), then every booking
  // checked by the engine's rule set before the first booking is written.
  const sessionIds = await insertNewSessions(
    tx,
    store.id,
    sessionRows,
    plan.map((s) => s.course.cardIds),
  );
  planned.keyBy((i) => sessionIds[i]);
  const spent = refuseSet(planned.bookings, { ...options, refuse: planned.refuse });
  // On PostgreSQL, cards whose rules depend on what they hold (caps, pendings) are locked and checked again.
  await recheckOpenUse(tx, store.id, planned.bookings, { ...options, refuse: planned.refuse });

  // The sessions were written with their seats taken: the engine writes the bookings and their trail.
  await writeBookingSet(
    tx,
    store.id,
    planned.bookings,
    spent,
    { ...options, refuse: planned.refuse },
    { seatsTaken: true },
  );
  const bookings = planned.bookings.length;
  await o.events.emit(
    tx,
    event(bookingsMade, { storeId: store.id, source: o.source, sessions: sessionIds.length, bookings }),
  );
  return sessionIds;
}
