import { LessonBookingMsg, MemberLessonMsg, Msg } from '@studio/contract';
import type { Db, Dialect, Tx } from '../../db/index.ts';
import { lockRooms, lockSessions, lockTeachers } from '../../db/locks.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope } from '../../lib/audit.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { event, type Events } from '../../lib/events.ts';
import { requireArea, requireMember, requireTeacher } from '../reference/public.ts';
import { requireMemberCard } from '../cards/public.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { cancelKind, lessonCancelPolicy } from '../policy/public.ts';
import {
  addPending,
  bookingCancelled,
  bookingMade,
  bookWithCard,
  cancelPending,
  cancelReservation,
  confirmAppointment,
  createSession,
  deleteSession,
  findPending,
  findReservation,
  getDeductionMode,
  growLesson,
  heldPairs,
  lessonBooked,
  lessonCancelled,
  lessonConfirmed,
  liveBookings,
  liveSession,
  loadBookingContext,
  memberHeldOverlapping,
  overlappingSessions,
  sessionChanged,
  sessionDeleted,
  unconfirmedLessons,
  updateSession,
  waitingPendings,
  type BookingFact,
  type MemberRules,
} from '../timetable/public.ts';
import { givesLesson, lessonOfSession, lessonRooms, lessonType, loadLessonSetting } from './booking-repository.ts';
import { findFreeSlots } from './slots.ts';

/**
 * Booking a lesson (私教 1对1, 1对2, 小班): the lesson is a session of its type's course, created in the
 * same transaction as its members' bookings, so the schedule's one clash rule claims its teacher,
 * room and machines (createSession → refuseClashes) and the booking engine its cards (bookWithCard,
 * or addPending in 签到后扣费): everything a group class has applies to it.
 */

export interface LessonBooking {
  courseId: number;
  teacherId: number;
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
  /** A room of the type's; null or undefined: the first of its rooms free then. */
  venueId?: number | null;
  /** Each member with the card that pays (1对2: two cards, or one card shared by both). */
  members: readonly { memberId: number; memberCardId: number }[];
  /** The desk books outside the offered slots: why (recorded on the session). */
  outsideReason?: string | null;
  operatorId: number | null;
  /** History operate type: 2 the desk booked, 1 the member's own booking. */
  operateType: number;
  /** A member's own booking: held to the store's policy (suspension, a period card's open bookings). */
  member?: MemberRules;
  /** One date (`index`, from 0) of a weekly series of `count` booked in one call: told once, at the first. */
  series?: { index: number; count: number };
}

/**
 * The room a lesson takes: the one asked for (it must be one of the type's rooms, when the type
 * names rooms), else the first of the type's rooms free over the lesson's time, else none (a type
 * that needs no room). The teacher and then the rooms are locked first (the engine's lock order;
 * refuseClashes takes them again, already held), so the room found free stays free until the commit.
 */
async function roomFor(tx: Tx, storeId: number, b: LessonOpening, duration: number): Promise<number | null> {
  const rooms = await lessonRooms(tx, storeId, b.courseId);
  if (b.venueId != null) {
    // A room of another store (or none) is not found, before whether the type may use it.
    await requireArea(tx, storeId, b.venueId);
    if (rooms.length && !rooms.includes(b.venueId)) throw conflict(LessonBookingMsg.notItsRoom);
    return b.venueId;
  }
  if (!rooms.length) return null;
  await lockTeachers(tx, [b.teacherId]);
  await lockRooms(tx, rooms);
  const endTime = addMinutes(b.startTime, duration);
  for (const room of rooms) {
    if (!(await overlappingSessions(tx, storeId, 't.areaId', room, b.startTime, endTime)).length) return room;
  }
  throw conflict(LessonBookingMsg.noRoom);
}

/**
 * Whether the free-slot finder offers the start to the teacher for the lesson's members: their
 * hours, their time, a room and the machines free, the notice met. Read before any lock: what
 * guards the claim is the clash rule under its locks (createSession), this only keeps bookings to
 * the offered times.
 */
async function offered(tx: Tx, storeId: number, b: LessonOpening, now: string): Promise<boolean> {
  const date = b.startTime.slice(0, 10);
  const slots = await findFreeSlots(tx, {
    storeId,
    courseId: b.courseId,
    teacherIds: [b.teacherId],
    from: date,
    to: date,
    members: b.seats,
    now,
  });
  return slots.some((s) => s.startTime === b.startTime);
}

/**
 * Books one member of a lesson with their card through the booking engine: in 签到后扣费 (`mode` 1) a
 * pending holding their seat (the card charged at sign-in), else a booking charging the card now.
 * The engine's rules hold (the card's, the member's, the seat's).
 */
async function bookMember(
  tx: Tx,
  store: StoreScope,
  m: Pick<LessonBooking, 'operatorId' | 'operateType' | 'member'> & {
    sessionId: number;
    memberId: number;
    memberCardId: number;
    mode: number;
    now: string;
  },
): Promise<BookingFact> {
  const common = { memberId: m.memberId, studentCount: 1, remark: null, operatorId: m.operatorId };
  const by = { sessionId: m.sessionId, memberCardId: m.memberCardId, operateType: m.operateType, member: m.member };
  if (m.mode === 1) return (await addPending(tx, store, { ...common, ...by })).fact;
  const booking = await loadBookingContext(tx, {
    storeId: store.id,
    sessionId: m.sessionId,
    memberCardId: m.memberCardId,
    now: m.now,
  });
  return (await bookWithCard(tx, store, { ...common, ...by }, booking)).fact;
}

/** A lesson to open: its type, teacher, start and room, and how many seats its first bookers take. */
export interface LessonOpening {
  courseId: number;
  teacherId: number;
  /** Store-local `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
  /** A room of the type's; null or undefined: the first of its rooms free then. */
  venueId?: number | null;
  /** The seats (1 to the type's most): its members, or a lead's trial (one). */
  seats: number;
  /** The desk books outside the offered slots: why (recorded on the session). */
  outsideReason?: string | null;
}

/**
 * Opens a lesson in the caller's transaction, before anyone takes its seats: its type (a course not
 * 'group'), a teacher who gives it, 1 to its most seats, the least notice and a start the free-slot
 * finder offers (unless the desk books outside the offered slots with a reason, recorded); then the
 * session (待确认 until the store's time limit when its teacher must confirm, else confirmed) through
 * the clash rule. Its seats are taken by the caller: members' bookings (bookLesson) or a lead's trial
 * (leads: 私教体验课).
 */
export async function openLesson(
  tx: Tx,
  store: StoreScope,
  o: LessonOpening,
): Promise<{ id: number; status: 'pending' | 'confirmed'; confirmDeadline: string | null }> {
  const type = await lessonType(tx, store.id, o.courseId);
  if (!type) throw notFound('课程');
  if (type.kind === 'group') throw conflict(LessonBookingMsg.notLesson);
  if (o.seats < 1 || o.seats > type.maxMembers) throw badRequest(LessonBookingMsg.members(type.maxMembers));
  // A teacher of another store (or none) is not found, before whether they give the type.
  await requireTeacher(tx, store.id, o.teacherId);
  if (!(await givesLesson(tx, type.id, o.teacherId))) throw conflict(LessonBookingMsg.notTeacher);
  const now = localDateTime(store.timezone);
  if (!o.outsideReason) {
    if (o.startTime < addMinutes(now, type.minNoticeMinutes)) {
      throw conflict(LessonBookingMsg.notice(type.minNoticeMinutes));
    }
    if (!(await offered(tx, store.id, o, now))) throw conflict(LessonBookingMsg.notOffered);
  }
  const venueId = await roomFor(tx, store.id, o, type.duration);
  const setting = await loadLessonSetting(tx, store.id);
  const status = setting.teacherConfirms ? 'pending' : 'confirmed';
  const confirmDeadline = status === 'pending' ? addMinutes(now, setting.confirmHours * 60) : null;
  const { id } = await createSession(tx, store, {
    courseId: type.id,
    teacherId: o.teacherId,
    venueId,
    materialId: null,
    startTime: o.startTime,
    reservableCount: o.seats,
    lesson: {
      members: o.seats,
      appointmentStatus: status,
      confirmDeadline,
      outsideReason: o.outsideReason ?? null,
    },
  });
  return { id, status, confirmDeadline };
}

/**
 * Books a lesson in the caller's transaction: the lesson opened for its members (openLesson: its
 * type, teacher, notice, offered start, room, the clash rule), then each member booked with their
 * card by the engine.
 */
export async function bookLesson(
  tx: Tx,
  store: StoreScope,
  b: LessonBooking,
  events: Events,
): Promise<{ id: number; status: 'pending' | 'confirmed'; facts: BookingFact[] }> {
  if (new Set(b.members.map((m) => m.memberId)).size !== b.members.length) {
    throw badRequest(LessonBookingMsg.sameMember);
  }
  const { id, status, confirmDeadline } = await openLesson(tx, store, { ...b, seats: b.members.length });
  const now = localDateTime(store.timezone);
  const mode = await getDeductionMode(tx, store.id);
  const facts: BookingFact[] = [];
  for (const m of b.members) facts.push(await bookMember(tx, store, { ...b, ...m, sessionId: id, mode, now }));
  for (const fact of facts) await events.emit(tx, event(bookingMade, fact));
  const members = facts.map((f) => ({ id: f.memberId, name: f.memberName }));
  await events.emit(
    tx,
    event(lessonBooked, { storeId: store.id, sessionId: id, status, confirmDeadline, members, series: b.series }),
  );
  return { id, status, facts };
}

/** One member joining a booked lesson with one of their cards. */
export interface LessonJoin {
  sessionId: number;
  memberId: number;
  memberCardId: number;
  operatorId: number | null;
  /** History operate type: 2 the desk added them, 1 the member joined. */
  operateType: number;
  /**
   * A member's own join (the phone): only a 小班 of an enabled type, held to the type's notice and
   * to the store's policy (suspension, a period card's open bookings).
   */
  member?: MemberRules;
}

/**
 * Adds a member with one of their cards to a booked lesson that still has room, in the caller's
 * transaction — the desk's 添加学员 and a member joining a 小班 from the phone alike: ids of the store
 * first (404 课程, 会员, 会员卡), then a lesson (not a group class; a member: a 小班), not released
 * (已取消) nor ended (a member: the type's notice met), the member not in it already nor in another
 * class then; room made for them (growLesson: up to the type's most members, its machines), and the
 * member booked by the engine as a lesson's booking books each member (bookMember: the card rules,
 * the member's rules, the seat guarded). Staff are not held to the notice. The member joins the
 * lesson's state (待确认 while it waits for its teacher) and is told as a booking's members are
 * (lessonBooked, `joined`: the teacher of a confirmed lesson is told who joined).
 */
export async function addLessonMember(
  tx: Tx,
  store: StoreScope,
  a: LessonJoin,
  events: Events,
): Promise<{ id: number; kind: 'reservation' | 'pending'; status: 'pending' | 'confirmed' }> {
  const lesson = await lessonOfSession(tx, store.id, a.sessionId, { withDeleted: true });
  // A member sees no lesson of a type the store has switched off.
  if (!lesson || (a.member && lesson.kind !== 'group' && lesson.enabled !== 1)) throw notFound('课程');
  await requireMember(tx, store.id, a.memberId);
  await requireMemberCard(tx, store.id, a.memberCardId);
  if (lesson.kind === 'group') throw conflict(LessonBookingMsg.notLesson);
  if (a.member && lesson.kind !== 'small_group') throw conflict(MemberLessonMsg.notSmallGroup);
  if (lesson.deleted) throw conflict(LessonBookingMsg.cancelled);
  const now = localDateTime(store.timezone);
  if (lesson.endTime <= now) throw conflict(Msg.sessionStarted);
  if (a.member && lesson.startTime < addMinutes(now, lesson.minNoticeMinutes)) {
    throw conflict(LessonBookingMsg.notice(lesson.minNoticeMinutes));
  }
  if ((await heldPairs(tx, [lesson.id], [a.memberId])).length) throw conflict(Msg.alreadyBooked);
  const busy = await memberHeldOverlapping(tx, store.id, a.memberId, lesson, lesson.id);
  if (busy) throw conflict(LessonBookingMsg.memberBusy(`${busy.startTime.slice(0, 16)}-${busy.endTime.slice(11, 16)}`));
  // The call's one entry: the engine's note of the booking or pending joins it.
  audit(tx, {
    kind: 'booking',
    summary: a.member ? '会员加入小班' : '私教/小班添加学员',
    targets: [
      { type: 'session', id: lesson.id },
      { type: 'member', id: a.memberId },
      { type: 'card', id: a.memberCardId },
    ],
  });
  await growLesson(tx, store, lesson.id, lesson.maxMembers);
  const fact = await bookMember(tx, store, {
    sessionId: lesson.id,
    memberId: a.memberId,
    memberCardId: a.memberCardId,
    operatorId: a.operatorId,
    operateType: a.operateType,
    member: a.member,
    mode: await getDeductionMode(tx, store.id),
    now,
  });
  await events.emit(tx, event(bookingMade, fact));
  const status = lesson.appointmentStatus === 'pending' ? 'pending' : 'confirmed';
  const members = [{ id: fact.memberId, name: fact.memberName }];
  await events.emit(
    tx,
    event(lessonBooked, {
      storeId: store.id,
      sessionId: lesson.id,
      status,
      confirmDeadline: lesson.confirmDeadline,
      members,
      joined: true,
    }),
  );
  return { id: fact.booking.id, kind: fact.booking.kind, status };
}

/**
 * Cancels one member's booking of a lesson — a booking, or a pending held for sign-in in 签到后扣费
 * (`kind`) — (`memberId`: a member's own cancel, only theirs): before the type's cutoff refunded (a
 * pending: nothing was charged), and when no live booking or pending is left the lesson is released
 * (its session deleted: the teacher, room and machines are free again); after the cutoff kept as a
 * late cancel (迟到取消; a pending charged what its sign-in would), as the group rule. Refused once
 * the lesson has started. A cancel by the studio (the desk, the teacher) tells the member
 * (`lessonCancelled`).
 */
export async function cancelLessonBooking(
  tx: Tx,
  store: StoreScope,
  a: {
    id: number;
    kind: 'reservation' | 'pending';
    operatorId: number | null;
    operateType: number;
    memberId?: number;
  },
  events: Events,
): Promise<{ refunded: boolean; released: boolean }> {
  const row = a.kind === 'pending' ? await findPending(tx, store.id, a.id) : await findReservation(tx, store.id, a.id);
  if (!row || (a.memberId !== undefined && row.memberId !== a.memberId)) throw notFound('预约');
  const lesson = await lessonOfSession(tx, store.id, row.timetableId);
  if (!lesson || lesson.kind === 'group') throw conflict(LessonBookingMsg.notLesson);
  const now = localDateTime(store.timezone);
  if (now >= lesson.startTime) throw conflict(LessonBookingMsg.started);
  const policy = lessonCancelPolicy(lesson.cancelCutoffMinutes);
  const free = cancelKind(policy, { startTime: lesson.startTime, now }) === 'free';
  const by = { operatorId: a.operatorId, operateType: a.operateType, member: { id: row.memberId, policy } };
  const fact =
    a.kind === 'pending'
      ? await cancelPending(tx, store, { pendingId: row.id, ...by })
      : (await cancelReservation(tx, store, { reservationId: row.id, ...by })).fact;
  await events.emit(tx, event(bookingCancelled, fact));
  if (a.memberId === undefined) {
    const told = { storeId: store.id, sessionId: lesson.id, memberId: row.memberId, booking: fact.booking };
    await events.emit(tx, event(lessonCancelled, { ...told, refunded: free }));
  }
  if (!free) return { refunded: false, released: false };
  return { refunded: true, released: await releaseIfEmpty(tx, store, lesson.id, a.operatorId) };
}

/**
 * A lesson nobody is left in is released (its session deleted: the teacher, room and machines are
 * free again): no live booking, no pending waiting, no seat held (a lead's 私教体验课 holds one). After
 * a refunded cancel (cancelLessonBooking) and a lead's trial cancelled (leads). Answers whether it was.
 */
export async function releaseIfEmpty(tx: Tx, store: StoreScope, sessionId: number, operatorId: number | null) {
  const left = (await liveBookings(tx, sessionId)).length + (await waitingPendings(tx, sessionId)).length;
  if (left || (await liveSession(tx, store.id, sessionId)).realCount > 0) return false;
  await deleteSession(tx, store, { sessionId, operatorId });
  return true;
}

/** The teacher (or the desk) confirms a lesson waiting for them (待确认); guarded, once. */
export async function confirmLessonBooking(
  tx: Tx,
  store: StoreScope,
  sessionId: number,
  events: Events,
): Promise<void> {
  audit(tx, { kind: 'session', summary: '确认私教预约', targets: [{ type: 'session', id: sessionId }] });
  if (await confirmAppointment(tx, store.id, sessionId)) {
    await events.emit(tx, event(lessonConfirmed, { storeId: store.id, sessionId }));
    return;
  }
  if (!(await lessonOfSession(tx, store.id, sessionId))) throw notFound('课程');
  throw conflict(LessonBookingMsg.notPending);
}

/**
 * Moves a lesson to another start (same teacher, room and length) through the schedule's edit
 * (updateSession: the one clash rule, teacher pay's closed months); its members are told (the
 * reminders hear sessionChanged). Refused once it has started.
 */
export async function moveLessonBooking(
  tx: Tx,
  store: StoreScope,
  a: { sessionId: number; startTime: string },
  events: Events,
): Promise<void> {
  const lesson = await lessonOfSession(tx, store.id, a.sessionId);
  if (!lesson) throw notFound('课程');
  if (lesson.kind === 'group') throw conflict(LessonBookingMsg.notLesson);
  if (localDateTime(store.timezone) >= lesson.startTime) throw conflict(LessonBookingMsg.started);
  await updateSession(
    tx,
    store,
    {
      id: lesson.id,
      teacherId: lesson.teacherId,
      startTime: a.startTime,
      reservableCount: lesson.reservableCount,
      venueId: lesson.areaId,
      materialId: lesson.bookId,
    },
    events,
  );
  await events.emit(tx, event(sessionChanged, { storeId: store.id, sessionId: lesson.id }));
}

/**
 * The release job: each lesson still waiting for its teacher past its confirm deadline (store-local)
 * is released as a delete by the studio is (every booking refunded), its members told (the reminders
 * hear sessionDeleted). The session's lock is taken and its state read again under it, so a teacher
 * confirming at the same moment either comes first (the lesson stays) or finds it gone. Safe on every
 * instance at once. Answers how many it released.
 */
export async function releaseUnconfirmed({
  db,
  dialect,
  events,
}: {
  db: Db;
  dialect: Dialect;
  events: Events;
}): Promise<number> {
  let n = 0;
  for (const l of await unconfirmedLessons(db)) {
    const store = await storeScopeById(db, l.storeId);
    if (!store || l.confirmDeadline === null || l.confirmDeadline > localDateTime(store.timezone)) continue;
    const scope = systemScope('私教确认超时', 'job/lesson-release', 'session', store.id);
    const released = await inWriteTx(
      db,
      dialect,
      async (tx: Tx) => {
        await lockSessions(tx, [l.id]);
        const lesson = await lessonOfSession(tx, store.id, l.id);
        if (lesson?.appointmentStatus !== 'pending') {
          skipAudit(tx);
          return false;
        }
        const { refunds } = await deleteSession(tx, store, { sessionId: l.id, operatorId: null });
        // What its members are told (the reminders' 课程取消或调整).
        const change = '老师未及时确认，预约已取消';
        await events.emit(tx, event(sessionDeleted, { storeId: store.id, sessionId: l.id, refunds, change }));
        return true;
      },
      scope,
    );
    if (released) n++;
  }
  return n;
}
