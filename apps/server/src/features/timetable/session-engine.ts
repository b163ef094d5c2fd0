import { sessionDeleted, sessionMoving } from './events.ts';
import { event, type Events, type PayloadOf } from '../../lib/events.ts';
import { audit, changedFields, recordForUndo, scopeOf } from '../../lib/audit.ts';
import { amountText, BIG_TYPE_COUNT, BIG_TYPE_MONEY, Msg, OperateType, TimetableMsg } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import {
  namesOf,
  requireCourse,
  teacherAreaMaterialCheck,
  type CourseWithCards,
  type TeacherAreaMaterial,
} from '../reference/public.ts';
import { liveBookingCharges, liveBookings, waitingPendings } from './booking-repository.ts';
import {
  changeSession,
  insertAllowedCards,
  insertSession,
  insertSessionRows,
  liveSession,
  markSessionDeleted,
  raiseCapacity,
  sessionRow,
  sessionTimes,
} from './session-repository.ts';
import { cancelPendingLocked, cancelReservationLocked } from './booking-engine.ts';
import { refuseClashes } from './clashes.ts';

export interface NewSession {
  courseId: number;
  teacherId: number;
  venueId: number | null;
  materialId: number | null;
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
  /** Defaults to start + the course's duration. */
  endTime?: string;
  /** Capacity; defaults to the course's `count`. */
  reservableCount?: number;
  isOnline?: number;
  /**
   * A booked lesson (私教/小班): the members it books now, who claim its course's machines in the
   * clash rule, and its state (待确认 until a deadline, or confirmed; why it is outside the offered slots).
   */
  lesson?: {
    members: number;
    appointmentStatus: 'pending' | 'confirmed';
    confirmDeadline: string | null;
    outsideReason: string | null;
  };
}

export type { TeacherConflict } from './session-repository.ts';

/** Checks that the teacher, area and material named by a session belong to the store. */
export async function assertSessionRefs(tx: Executor, storeId: number, refs: TeacherAreaMaterial): Promise<void> {
  (await teacherAreaMaterialCheck(tx, storeId, [refs]))(refs);
}

/**
 * What createSession checks of each of many sessions at once: its course (live), teacher (live),
 * venue and material belong to the store. One look-up per distinct course and one per kind for
 * the rest; the 404 is the one creating them one at a time in order would meet first (the first
 * row naming one that is not the store's; in a row the course, then as assertSessionRefs).
 * Answers the courses (with their cards) by id.
 */
export async function requireSessionRefs(
  tx: Executor,
  storeId: number,
  rows: readonly (TeacherAreaMaterial & { courseId: number })[],
): Promise<Map<number, CourseWithCards>> {
  const refsOf = await teacherAreaMaterialCheck(tx, storeId, rows);
  const courses = new Map<number, CourseWithCards>();
  for (const r of rows) {
    if (!courses.has(r.courseId)) courses.set(r.courseId, await requireCourse(tx, storeId, r.courseId));
    refsOf(r);
  }
  return courses;
}

/**
 * Creates a session: copies the course's colour, gender and age limits and allowed cards
 * (timetable_card); end defaults to start + course duration, capacity to the course's count.
 * Every id must belong to the store (404 otherwise); a teacher or room already taken then is refused
 * (409, refuseClashes). Runs inside the caller's transaction.
 */
export async function createSession(tx: Tx, store: StoreScope, args: NewSession): Promise<{ id: number }> {
  const course = (await requireSessionRefs(tx, store.id, [args])).get(args.courseId)!;
  const startTime = args.startTime;
  const endTime = args.endTime ?? addMinutes(startTime, course.duration);
  if (endTime <= startTime) throw badRequest(TimetableMsg.endBeforeStart);
  const reservableCount = args.reservableCount ?? course.count;
  if (reservableCount < 0) throw badRequest(Msg.countNotNegative);
  const slot = { teacherId: args.teacherId, venueId: args.venueId, startTime, endTime };
  await refuseClashes(tx, store.id, [{ ...slot, courseId: course.id, members: args.lesson?.members ?? 0 }], {
    single: true,
  });
  const lesson = args.lesson && {
    appointmentStatus: args.lesson.appointmentStatus,
    confirmDeadline: args.lesson.confirmDeadline,
    outsideReason: args.lesson.outsideReason,
  };
  const id = await insertSession(
    tx,
    {
      ...sessionRow(
        store.id,
        {
          courseId: course.id,
          teacherId: args.teacherId,
          venueId: args.venueId,
          materialId: args.materialId,
          startTime,
          endTime,
          reservableCount,
          realCount: 0,
          isOnline: args.isOnline ?? 0,
        },
        course,
        localDateTime(store.timezone),
      ),
      ...lesson,
    },
    course.cardIds,
  );
  // Within a bulk change (a copy), what its undo deletes; a single new session is its entry's target.
  recordForUndo(tx, { createdSessions: [id] });
  if (!scopeOf(tx)?.recordUndo) audit(tx, { kind: 'session', targets: [{ type: 'session', id }] });
  return { id };
}

/**
 * Writes many new sessions (rows built by `sessionRow`), each with the card products allowed to book
 * it (`cardIds[i]` for `rows[i]`), in multi-row INSERTs: the bulk writer of batch scheduling, the
 * weekly template, copy and the demo seed. A teacher or room taken at one of their times, or two of
 * them meeting, is refused first (409 naming the clashing new sessions, refuseClashes). Answers the
 * ids in row order.
 */
export async function writeSessions(
  tx: Tx,
  storeId: number,
  rows: readonly ReturnType<typeof sessionRow>[],
  cardIds: readonly (readonly number[])[],
): Promise<number[]> {
  if (!rows.length) return [];
  await refuseClashes(
    tx,
    storeId,
    rows.map((r) => ({ teacherId: r.teacherId, venueId: r.areaId, startTime: r.startTime, endTime: r.endTime })),
  );
  // A teacher has at most one of the rows starting at one time (refused above otherwise).
  const idOf = new Map<string, number>();
  for (const r of await insertSessionRows(tx, rows)) {
    idOf.set(`${String(r.teacherId)}|${String(r.startTime)}`, Number(r.id));
  }
  const ids = rows.map((s) => idOf.get(`${s.teacherId}|${s.startTime}`)!);
  await insertAllowedCards(
    tx,
    rows.flatMap((_, i) => cardIds[i].map((cardId) => ({ storeId, timetableId: ids[i], cardId }))),
  );
  return ids;
}

export interface SessionChange {
  id: number;
  teacherId: number;
  startTime: string;
  reservableCount: number;
  venueId: number | null;
  materialId: number | null;
}

/** The entry of a session edit: changed fields with teachers, rooms and materials by name. */
async function noteSessionChange(
  tx: Tx,
  s: { teacherId: number; areaId: number | null; bookId: number | null; startTime: string; reservableCount: number },
  args: SessionChange,
) {
  const ids = (a: number | null, b: number | null) => [a, b].filter((x): x is number => x !== null);
  const [teachers, areas, books] = await Promise.all([
    namesOf(tx, 'teacher', [s.teacherId, args.teacherId]),
    namesOf(tx, 'area', ids(s.areaId, args.venueId)),
    namesOf(tx, 'material', ids(s.bookId, args.materialId)),
  ]);
  const name = (rows: { id: number; name: string }[], id: number | null) => rows.find((r) => r.id === id)?.name ?? null;
  const words = (x: Omit<SessionChange, 'id'>) => ({
    startTime: x.startTime.slice(0, 16),
    teacher: name(teachers, x.teacherId),
    reservableCount: x.reservableCount,
    area: name(areas, x.venueId),
    book: name(books, x.materialId),
  });
  audit(tx, {
    kind: 'session',
    summary: '修改课程',
    ...changedFields(words({ ...s, venueId: s.areaId, materialId: s.bookId }), words(args), {
      startTime: '开课时间',
      teacher: '老师',
      reservableCount: '人数',
      area: '场地',
      book: '教材',
    }),
  });
}

/**
 * Moves or edits a session: teacher, start (the duration is kept), capacity, area, material.
 * A capacity below the booked seats is refused (guarded in the database); so is a teacher or room clash.
 */
export async function updateSession(tx: Tx, store: StoreScope, args: SessionChange, events: Events): Promise<void> {
  const s = await liveSession(tx, store.id, args.id);
  await assertSessionRefs(tx, store.id, args);
  await noteSessionChange(tx, s, args);
  const minutes = Math.round((Date.parse(`${s.endTime}Z`) - Date.parse(`${s.startTime}Z`)) / 60_000);
  const endTime = addMinutes(args.startTime, minutes);
  // Another teacher or start: asked of its listeners first (课时费: a closed month's session keeps both).
  if (s.teacherId !== args.teacherId || s.startTime !== args.startTime) {
    await events.emit(
      tx,
      event(sessionMoving, {
        storeId: store.id,
        sessionId: s.id,
        before: { teacherId: s.teacherId, startTime: s.startTime },
        after: { teacherId: args.teacherId, startTime: args.startTime },
      }),
    );
  }
  // Lock order: the teacher whose time it takes and the room (refuseClashes), then the session row (its guarded UPDATE).
  await refuseClashes(
    tx,
    store.id,
    [
      {
        teacherId: args.teacherId,
        venueId: args.venueId,
        startTime: args.startTime,
        endTime,
        courseId: s.courseId,
        members: s.realCount,
      },
    ],
    { single: true, moving: s.id },
  );
  const changed = await changeSession(tx, s.id, {
    teacherId: args.teacherId,
    startTime: args.startTime,
    endTime,
    reservableCount: args.reservableCount,
    venueId: args.venueId,
    materialId: args.materialId,
  });
  if (!changed) throw conflict(Msg.capacityBelowBooked);
}

/**
 * Makes room for one more member in a live lesson (私教/小班) of the store, up to its type's most
 * members (`maxMembers`; 409 课程人数已满 past it): the clash rule (refuseClashes, its teacher, room
 * and machines locked first) must hold with one more member on its machines; then the session is
 * locked, read again (the check run again when its seats moved meanwhile) and its capacity raised to
 * its seats + 1 when no seat is free (raiseCapacity, guarded). The member's booking then takes the
 * seat through the engine (bookWithCard, addPending), guarded as every seat is.
 */
export async function growLesson(tx: Tx, store: StoreScope, sessionId: number, maxMembers: number): Promise<void> {
  const before = await liveSession(tx, store.id, sessionId);
  const claim = (members: number) =>
    refuseClashes(
      tx,
      store.id,
      [
        {
          teacherId: before.teacherId,
          venueId: before.areaId,
          startTime: before.startTime,
          endTime: before.endTime,
          courseId: before.courseId,
          members,
        },
      ],
      { single: true, moving: before.id },
    );
  if (before.realCount >= maxMembers) throw conflict(Msg.sessionFull);
  await claim(before.realCount + 1);
  const s = await liveSession(tx, store.id, sessionId, { lock: true });
  if (s.realCount >= maxMembers) throw conflict(Msg.sessionFull);
  if (s.realCount !== before.realCount) await claim(s.realCount + 1);
  await raiseCapacity(tx, s.id, maxMembers);
}

/** 409 when the session has ended and deleting it would cancel bookings or pendings (names the refunds). */
async function refuseEndedDelete(tx: Tx, sessionId: number, now: string): Promise<void> {
  const s = await sessionTimes(tx, sessionId);
  if (s.endTime > now) return;
  const live = await liveBookingCharges(tx, sessionId);
  const pendings = await waitingPendings(tx, sessionId);
  if (!live.length && !pendings.length) return;
  const sum = (bigType: number) =>
    live.filter((r) => r.bigType === bigType).reduce((n, r) => n + Number(r.usedCount), 0);
  const refund = [BIG_TYPE_COUNT, BIG_TYPE_MONEY]
    .filter((t) => sum(t) > 0)
    .map((t) => amountText(t, sum(t)))
    .join('、');
  throw conflict(TimetableMsg.endedDelete(s.endTime.slice(0, 16), live.length + pendings.length, refund));
}

/**
 * Deletes a session: cancels every waiting pending and every live booking (refunding what each
 * deducted, once), writes their history, then soft-deletes it (timetable.deleted = 1).
 */
export async function deleteSession(
  tx: Tx,
  store: StoreScope,
  args: {
    sessionId: number;
    operatorId: number | null;
    /**
     * A staff delete: a session that has ended and still has live bookings or pendings is deleted
     * only when `confirmEnded` (409 naming what would be cancelled and refunded otherwise).
     */
    ended?: { confirmed: boolean };
  },
): Promise<Pick<PayloadOf<typeof sessionDeleted>, 'refunds'>> {
  // Lock order: the session row, then its pendings, then its reservations with their cards in
  // ascending card id (the order every path that charges or refunds several cards uses).
  if (!(await markSessionDeleted(tx, store.id, args.sessionId))) throw notFound('课程');
  audit(tx, { kind: 'session', targets: [{ type: 'session', id: args.sessionId }] });
  const now = localDateTime(store.timezone);
  if (args.ended && !args.ended.confirmed) await refuseEndedDelete(tx, args.sessionId, now);
  const pendings = await waitingPendings(tx, args.sessionId);
  for (const p of pendings) {
    await cancelPendingLocked(tx, p, { operatorId: args.operatorId, now });
  }
  const reservations = await liveBookings(tx, args.sessionId);
  const refunded = new Map<number, number>();
  for (const r of reservations) {
    refunded.set(
      r.id,
      await cancelReservationLocked(tx, r, {
        operatorId: args.operatorId,
        operateType: OperateType.ADMIN_CANCELLED,
        now,
      }),
    );
  }
  const refunds = [...reservations]
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      memberId: r.memberId,
      memberName: r.memberName,
      memberCardId: r.memberCardId,
      bigType: r.bigType,
      amount: refunded.get(r.id)!,
    }));
  return { refunds };
}
