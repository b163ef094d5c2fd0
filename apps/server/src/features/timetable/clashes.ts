import { Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { lockEquipment, lockRooms, lockTeachers } from '../../db/locks.ts';
import { conflict } from '../../lib/errors.ts';
import { groupBy } from '../../lib/group.ts';
import { roomOf } from '../reference/public.ts';
import {
  equipmentClaims,
  equipmentOfCourses,
  overlappingSessions,
  type TeacherConflict,
} from './session-repository.ts';

/**
 * The one clash rule of the schedule: a teacher teaches one class at a time, and so does a room (a
 * venue without rooms under it; a venue with rooms under it stands for a whole branch and never
 * clashes); and a machine (私教/小班 equipment) is never used by more members at once than the store
 * has (its count minus the booked members x per-member use of the live lessons overlapping). Every writer of sessions passes `refuseClashes` before its row is written or moved:
 * adding one (createSession), editing one (updateSession), and every bulk writer (writeSessions:
 * batch scheduling, the weekly template, copy, the demo seed).
 */

/** Where and when a new (or moved) session is. */
export interface PlannedSlot {
  teacherId: number;
  venueId?: number | null;
  startTime: string;
  endTime: string;
  /** A lesson's course and the members it books: they claim its course's machines (none for a group class). */
  courseId?: number;
  members?: number;
}

interface Span {
  startTime: string;
  endTime: string;
}

/** How many clashing times a bulk refusal names; `data.dates` lists them all. */
const NAMED = 5;

/** `YYYY-MM-DD HH:mm` of a store-local date-time (what the conflict lists show). */
const shortTime = (dateTime: string) => dateTime.slice(0, 16);

/** The span [earliest start, latest end) of some slots. */
function spanOf(slots: readonly Span[]): Span {
  let from = slots[0].startTime;
  let to = slots[0].endTime;
  for (const p of slots) {
    if (p.startTime < from) from = p.startTime;
    if (p.endTime > to) to = p.endTime;
  }
  return { startTime: from, endTime: to };
}

/**
 * Start times (`YYYY-MM-DD HH:mm`) of the planned slots that overlap each other or an existing
 * session: one interval sweep in start order (an interval clashes with the one reaching furthest
 * before it).
 */
function clashingStarts(planned: readonly Span[], existing: readonly Span[]): string[] {
  const all = [
    ...planned.map((p) => ({ ...p, planned: true })),
    ...existing.map((e) => ({ startTime: e.startTime, endTime: e.endTime, planned: false })),
  ].sort((a, b) => a.startTime.localeCompare(b.startTime) || a.endTime.localeCompare(b.endTime));
  const out: string[] = [];
  let reach: (typeof all)[number] | null = null;
  for (const cur of all) {
    if (reach && cur.startTime < reach.endTime) {
      if (cur.planned) out.push(shortTime(cur.startTime));
      if (reach.planned) out.push(shortTime(reach.startTime));
    }
    if (!reach || cur.endTime > reach.endTime) reach = cur;
  }
  return out;
}

/** A claim on machines over a time: how many of them. */
interface Claim extends Span {
  units: number;
}

/**
 * The start (`YYYY-MM-DD HH:mm`) of the first planned claim during which the claims in use at once
 * (planned and existing) exceed `count`, or null. Use peaks where a claim starts, so each planned
 * claim is checked at its own start and at every start of another within it.
 */
function overbooked(planned: readonly Claim[], existing: readonly Claim[], count: number): string | null {
  const all = [...planned, ...existing];
  for (const p of planned) {
    const within = all.filter((c) => c.startTime < p.endTime && c.endTime > p.startTime);
    for (const c of within) {
      const at = c.startTime < p.startTime ? p.startTime : c.startTime;
      const used = within.filter((x) => x.startTime <= at && x.endTime > at).reduce((n, x) => n + x.units, 0);
      if (used > count) return shortTime(p.startTime);
    }
  }
  return null;
}

/**
 * Refuses (409 …器械冲突) lessons whose members would use more of a machine at once than the store
 * has. Locks the machines (after teachers and rooms: the engine's lock order), then reads the live
 * lessons using each over the slots' span.
 */
async function refuseMachineShortage(
  tx: Tx,
  storeId: number,
  slots: readonly PlannedSlot[],
  moving: number | undefined,
): Promise<void> {
  const claiming = slots.filter((s) => s.courseId !== undefined && (s.members ?? 0) > 0);
  if (!claiming.length) return;
  const uses = await equipmentOfCourses(
    tx,
    storeId,
    claiming.map((s) => s.courseId!),
  );
  const byMachine = groupBy(uses, (u) => u.equipmentId);
  await lockEquipment(tx, byMachine.keys());
  for (const [equipmentId, perCourse] of byMachine) {
    const { name, count } = perCourse[0];
    const planned = claiming.flatMap((s) => {
      const use = perCourse.find((u) => u.courseId === s.courseId);
      return use ? [{ startTime: s.startTime, endTime: s.endTime, units: s.members! * use.perMember }] : [];
    });
    const span = spanOf(planned);
    const existing = await equipmentClaims(tx, storeId, equipmentId, span.startTime, span.endTime, moving);
    const short = overbooked(planned, existing, count);
    if (short) throw conflict(Msg.equipmentConflict(name, short, count), { equipmentId });
  }
}

/** The refusal naming a single added or moved session's clash: the session it meets (all in `data.conflicts`). */
function refuseOne(existing: readonly TeacherConflict[], message: (when: string) => string, extra = {}): void {
  if (!existing.length) return;
  const c = existing[0];
  throw conflict(message(`${shortTime(c.startTime)}-${c.endTime.slice(11, 16)}`), {
    conflicts: existing.map((e) => ({ ...e, ...extra })),
  });
}

/** The refusal of a bulk change's clashes: its own clashing new sessions (the first five; `data.dates` has all). */
function refuseMany(clashing: ReadonlySet<string>, message: (when: string) => string): void {
  if (!clashing.size) return;
  const dates = [...clashing].sort();
  const named = dates.slice(0, NAMED).join('、') + (dates.length > NAMED ? ` 等${dates.length}处` : '');
  throw conflict(message(named), { dates });
}

/**
 * Refuses (409) sessions about to be written whose times overlap a live session of their teacher
 * (该老师在 ... 已有课程，时间冲突) or of their room (…在 ... 已有课程，场地冲突), or each other, and
 * lessons that would use more of a machine at once than the store has (…器械冲突).
 * Takes the teachers' locks, then the rooms', then the machines' (the engine's lock order), so a concurrent writer
 * cannot pass the same check; then one query per teacher and per room over the slots' whole span,
 * and an interval sweep. `single`: one session added or moved (`moving`: its id, left out of what
 * it could meet): the refusal names the session it meets, with them all in `data.conflicts`.
 * Otherwise a bulk change: the refusal names its clashing new sessions, `data.dates` lists them all.
 */
export async function refuseClashes(
  tx: Tx,
  storeId: number,
  slots: readonly PlannedSlot[],
  o: { single?: boolean; moving?: number } = {},
): Promise<void> {
  if (!slots.length) return;
  const byTeacher = groupBy(slots, (s) => s.teacherId);
  await lockTeachers(tx, byTeacher.keys());
  const teacherClashes = new Set<string>();
  for (const [teacherId, planned] of byTeacher) {
    const span = spanOf(planned);
    const existing = await overlappingSessions(
      tx,
      storeId,
      't.teacherId',
      teacherId,
      span.startTime,
      span.endTime,
      o.moving,
    );
    if (o.single) refuseOne(existing, Msg.teacherConflict);
    else for (const d of clashingStarts(planned, existing)) teacherClashes.add(d);
  }
  refuseMany(teacherClashes, Msg.teacherConflict);

  const byRoom = groupBy(
    slots.filter((s) => s.venueId != null),
    (s) => s.venueId!,
  );
  await lockRooms(tx, byRoom.keys());
  for (const [venueId, planned] of byRoom) {
    const room = await roomOf(tx, storeId, venueId);
    if (!room) continue;
    const span = spanOf(planned);
    const existing = await overlappingSessions(
      tx,
      storeId,
      't.areaId',
      venueId,
      span.startTime,
      span.endTime,
      o.moving,
    );
    const message = (when: string) => Msg.roomConflict(room.name, when);
    if (o.single) refuseOne(existing, message, { roomName: room.name });
    else refuseMany(new Set(clashingStarts(planned, existing)), message);
  }
  await refuseMachineShortage(tx, storeId, slots, o.moving);
}
