import { audit, changedFields, recordForUndo, scopeOf } from '../../lib/audit.ts';
import {
  amountText,
  BIG_TYPE_COUNT,
  BIG_TYPE_MONEY,
  Msg,
  OperateType,
  PendingStatus,
  ReservationStatus,
  TimetableMsg,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { requireArea, requireCourse, requireMaterial, requireTeacher } from '../reference/public.ts';
import { cancelPendingLocked, cancelReservationLocked } from './booking-engine.ts';
import { lockRooms, lockTeachers } from '../../db/locks.ts';

export interface NewSession {
  courseId: number;
  teacherId: number;
  areaId: number | null;
  bookId: number | null;
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
  /** Defaults to start + the course's duration. */
  endTime?: string;
  /** Capacity; defaults to the course's `count`. */
  reservableCount?: number;
  isOnline?: number;
  /** Refuse (409) when the teacher, or the room, already has an overlapping live session. */
  checkTeacherConflict?: boolean;
}

export interface TeacherConflict {
  id: number;
  startTime: string;
  endTime: string;
  courseName: string;
}

/** Live sessions of a teacher overlapping [startTime, endTime), optionally leaving one out. */
export async function findTeacherConflicts(
  tx: Executor,
  storeId: number,
  teacherId: number,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<TeacherConflict[]> {
  return overlapping(tx, storeId, 't.teacherId', teacherId, startTime, endTime, excludeId);
}

/** Live sessions of the store on one teacher or area overlapping [startTime, endTime), in start order. */
function overlapping(
  tx: Executor,
  storeId: number,
  column: 't.teacherId' | 't.areaId',
  id: number,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<TeacherConflict[]> {
  let q = tx
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .select(['t.id', 't.startTime', 't.endTime', 'c.name as courseName'])
    .where('t.storeId', '=', storeId)
    .where(column, '=', id)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<', endTime)
    .where('t.endTime', '>', startTime);
  if (excludeId !== undefined) q = q.where('t.id', '<>', excludeId);
  return q.orderBy('t.startTime').execute();
}

/**
 * The store's area as a room (its name), or null when it is not one: a venue with rooms under it is
 * a whole branch, not a place one class fills, so sessions placed on it clash with nothing
 * (documented in README).
 */
export async function roomOf(tx: Executor, storeId: number, areaId: number): Promise<{ name: string } | null> {
  const a = await tx
    .selectFrom('area as a')
    .select((eb) => [
      'a.name',
      eb.exists(eb.selectFrom('area as c').select('c.id').whereRef('c.parentId', '=', 'a.id')).as('hasRooms'),
    ])
    .where('a.id', '=', areaId)
    .where('a.storeId', '=', storeId)
    .executeTakeFirst();
  return a && !a.hasRooms ? { name: a.name } : null;
}

/** A room's live sessions overlapping [startTime, endTime), optionally leaving one out; none for a branch. */
export async function findRoomConflicts(
  tx: Executor,
  storeId: number,
  areaId: number | null,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<(TeacherConflict & { roomName: string })[]> {
  const room = areaId === null ? null : await roomOf(tx, storeId, areaId);
  if (!room) return [];
  const rows = await overlapping(tx, storeId, 't.areaId', areaId!, startTime, endTime, excludeId);
  return rows.map((r) => ({ ...r, roomName: room.name }));
}

/** 409 …在 ... 已有课程，场地冲突 when the room is taken then; the clashing sessions travel in `data`. */
async function assertRoomFree(
  tx: Tx,
  storeId: number,
  areaId: number | null,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<void> {
  if (areaId === null) return;
  await lockRooms(tx, [areaId]);
  const clashes = await findRoomConflicts(tx, storeId, areaId, startTime, endTime, excludeId);
  if (clashes.length) {
    const c = clashes[0];
    throw conflict(Msg.roomConflict(c.roomName, `${c.startTime.slice(0, 16)}-${c.endTime.slice(11, 16)}`), {
      conflicts: clashes,
    });
  }
}

/** 409 该老师在 ... 已有课程 when the teacher is busy then; the clashing sessions travel in `data`. */
export async function assertTeacherFree(
  tx: Executor,
  storeId: number,
  teacherId: number,
  startTime: string,
  endTime: string,
  excludeId?: number,
): Promise<void> {
  const clashes = await findTeacherConflicts(tx, storeId, teacherId, startTime, endTime, excludeId);
  if (clashes.length) {
    const c = clashes[0];
    throw conflict(Msg.teacherConflict(`${c.startTime.slice(0, 16)}-${c.endTime.slice(11, 16)}`), {
      conflicts: clashes,
    });
  }
}

/** Checks that the teacher, area and material named by a session belong to the store. */
export async function assertSessionRefs(
  tx: Executor,
  storeId: number,
  refs: { teacherId: number; areaId: number | null; bookId: number | null },
): Promise<void> {
  await requireTeacher(tx, storeId, refs.teacherId);
  await requireArea(tx, storeId, refs.areaId);
  await requireMaterial(tx, storeId, refs.bookId);
}

/**
 * Creates a session: copies the course's colour, gender and age limits and allowed cards
 * (timetable_card); end defaults to start + course duration, capacity to the course's count.
 * Every id must belong to the store (404 otherwise). Runs inside the caller's transaction.
 */
export async function createSession(tx: Tx, store: StoreScope, args: NewSession): Promise<{ id: number }> {
  const course = await requireCourse(tx, store.id, args.courseId);
  await assertSessionRefs(tx, store.id, args);
  const startTime = args.startTime;
  const endTime = args.endTime ?? addMinutes(startTime, course.duration);
  if (endTime <= startTime) throw badRequest(TimetableMsg.endBeforeStart);
  const reservableCount = args.reservableCount ?? course.count;
  if (reservableCount < 0) throw badRequest(Msg.countNotNegative);
  if (args.checkTeacherConflict) {
    // The teacher's lock first (the engine's lock order), so two sessions cannot both pass the check.
    await lockTeachers(tx, [args.teacherId]);
    await assertTeacherFree(tx, store.id, args.teacherId, startTime, endTime);
    await assertRoomFree(tx, store.id, args.areaId, startTime, endTime);
  }
  const row = await tx
    .insertInto('timetable')
    .values({
      storeId: store.id,
      courseId: course.id,
      teacherId: args.teacherId,
      areaId: args.areaId,
      bookId: args.bookId,
      startTime,
      endTime,
      reservableCount,
      realCount: 0,
      isOnline: args.isOnline ?? 0,
      color: course.color,
      genderLimit: course.genderLimit,
      ageLimit: course.ageLimit,
      syear: course.syear,
      smonth: course.smonth,
      sday: course.sday,
      eyear: course.eyear,
      emonth: course.emonth,
      eday: course.eday,
      deleted: 0,
      createdAt: localDateTime(store.timezone),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Within a bulk change (a copy), what its undo deletes; a single new session is its entry's target.
  recordForUndo(tx, { createdSessions: [row.id] });
  if (!scopeOf(tx)?.recordUndo) audit(tx, { targets: [{ type: 'session', id: row.id }] });
  if (course.cardIds.length) {
    await tx
      .insertInto('timetableCard')
      .values(course.cardIds.map((cardId) => ({ storeId: store.id, timetableId: row.id, cardId })))
      .execute();
  }
  return { id: row.id };
}

export interface SessionChange {
  id: number;
  teacherId: number;
  startTime: string;
  reservableCount: number;
  areaId: number | null;
  bookId: number | null;
}

/** The entry of a session edit: changed fields with teachers, rooms and materials by name. */
async function noteSessionChange(
  tx: Tx,
  s: { teacherId: number; areaId: number | null; bookId: number | null; startTime: string; reservableCount: number },
  args: SessionChange,
) {
  const ids = (a: number | null, b: number | null) => [a, b].filter((x): x is number => x !== null);
  const [teachers, areas, books] = await Promise.all([
    tx.selectFrom('teacher').select(['id', 'name']).where('id', 'in', [s.teacherId, args.teacherId]).execute(),
    ids(s.areaId, args.areaId).length
      ? tx.selectFrom('area').select(['id', 'name']).where('id', 'in', ids(s.areaId, args.areaId)).execute()
      : [],
    ids(s.bookId, args.bookId).length
      ? tx.selectFrom('material').select(['id', 'name']).where('id', 'in', ids(s.bookId, args.bookId)).execute()
      : [],
  ]);
  const name = (rows: { id: number; name: string }[], id: number | null) => rows.find((r) => r.id === id)?.name ?? null;
  const words = (x: typeof s) => ({
    startTime: x.startTime.slice(0, 16),
    teacher: name(teachers, x.teacherId),
    reservableCount: x.reservableCount,
    area: name(areas, x.areaId),
    book: name(books, x.bookId),
  });
  audit(tx, {
    summary: '修改课程',
    ...changedFields(words(s), words(args), {
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
 * A capacity below the booked seats is refused (guarded in the database); so is a teacher clash.
 */
export async function updateSession(tx: Tx, store: StoreScope, args: SessionChange): Promise<void> {
  // Lock order: the teacher whose time it takes, then the session row (its guarded UPDATE).
  await lockTeachers(tx, [args.teacherId]);
  const s = await tx
    .selectFrom('timetable')
    .select(['id', 'startTime', 'endTime', 'teacherId', 'reservableCount', 'areaId', 'bookId'])
    .where('id', '=', args.id)
    .where('storeId', '=', store.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!s) throw notFound('课程');
  await assertSessionRefs(tx, store.id, args);
  await noteSessionChange(tx, s, args);
  const minutes = Math.round((Date.parse(`${s.endTime}Z`) - Date.parse(`${s.startTime}Z`)) / 60_000);
  const endTime = addMinutes(args.startTime, minutes);
  await assertTeacherFree(tx, store.id, args.teacherId, args.startTime, endTime, s.id);
  await assertRoomFree(tx, store.id, args.areaId, args.startTime, endTime, s.id);
  const res = await tx
    .updateTable('timetable')
    .set({
      teacherId: args.teacherId,
      startTime: args.startTime,
      endTime,
      reservableCount: args.reservableCount,
      areaId: args.areaId,
      bookId: args.bookId,
    })
    .where('id', '=', s.id)
    .where('realCount', '<=', args.reservableCount)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.capacityBelowBooked);
}

/**
 * Deletes a session: cancels every waiting pending and every live booking (refunding what each
 * deducted, once), writes their history, then soft-deletes it (timetable.deleted = 1).
 */
/** 409 when the session has ended and deleting it would cancel bookings or pendings (names the refunds). */
async function refuseEndedDelete(tx: Tx, timetableId: number, now: string): Promise<void> {
  const s = await tx.selectFrom('timetable').select('endTime').where('id', '=', timetableId).executeTakeFirstOrThrow();
  if (s.endTime > now) return;
  const live = await tx
    .selectFrom('reservation as r')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select(['p.bigType', 'r.usedCount'])
    .where('r.timetableId', '=', timetableId)
    .where('r.status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .execute();
  const pendings = await tx
    .selectFrom('pending')
    .select('id')
    .where('timetableId', '=', timetableId)
    .where('status', '=', PendingStatus.WAITING)
    .execute();
  if (!live.length && !pendings.length) return;
  const sum = (bigType: number) =>
    live.filter((r) => r.bigType === bigType).reduce((n, r) => n + Number(r.usedCount), 0);
  const refund = [BIG_TYPE_COUNT, BIG_TYPE_MONEY]
    .filter((t) => sum(t) > 0)
    .map((t) => amountText(t, sum(t)))
    .join('、');
  throw conflict(TimetableMsg.endedDelete(s.endTime.slice(0, 16), live.length + pendings.length, refund));
}

export async function deleteSession(
  tx: Tx,
  store: StoreScope,
  args: {
    timetableId: number;
    operatorId: number | null;
    /**
     * A staff delete: a session that has ended and still has live bookings or pendings is deleted
     * only when `confirmEnded` (409 naming what would be cancelled and refunded otherwise).
     */
    ended?: { confirmed: boolean };
  },
): Promise<{ refunds: { memberId: number; memberCardId: number; amount: number }[] }> {
  // Lock order: the session row, then its pendings, then its reservations with their cards in
  // ascending card id (the order every path that charges or refunds several cards uses).
  const res = await tx
    .updateTable('timetable')
    .set({ deleted: 1 })
    .where('id', '=', args.timetableId)
    .where('storeId', '=', store.id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notFound('课程');
  const now = localDateTime(store.timezone);
  if (args.ended && !args.ended.confirmed) await refuseEndedDelete(tx, args.timetableId, now);
  const pendings = await tx
    .selectFrom('pending')
    .selectAll()
    .where('timetableId', '=', args.timetableId)
    .where('status', '=', PendingStatus.WAITING)
    .orderBy('id')
    .execute();
  for (const p of pendings) {
    await cancelPendingLocked(tx, p, { operatorId: args.operatorId, now });
  }
  const reservations = await tx
    .selectFrom('reservation')
    .selectAll()
    .where('timetableId', '=', args.timetableId)
    .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .orderBy('memberCardId')
    .orderBy('id')
    .execute();
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
    .map((r) => ({ memberId: r.memberId, memberCardId: r.memberCardId, amount: refunded.get(r.id)! }));
  return { refunds };
}
