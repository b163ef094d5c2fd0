import { Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { lockRooms, lockTeachers } from '../../db/locks.ts';
import { conflict } from '../../lib/errors.ts';
import { findRoomConflicts, findTeacherConflicts, roomOf } from '../timetable/public.ts';
import { groupBy } from '../../lib/group.ts';
import { shortTime } from './plan.ts';

export interface PlannedSlot {
  teacherId: number;
  areaId?: number | null;
  startTime: string;
  endTime: string;
}

interface Span {
  startTime: string;
  endTime: string;
}

/** How many clashing times the message names; `data.dates` lists them all. */
const NAMED = 5;

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

function refuse(clashing: Set<string>, message: (named: string) => string): void {
  if (!clashing.size) return;
  const dates = [...clashing].sort();
  const named = dates.slice(0, NAMED).join('、') + (dates.length > NAMED ? ` 等${dates.length}处` : '');
  throw conflict(message(named), { dates });
}

/**
 * Refuses (409) a batch whose new sessions overlap a live session of their teacher (该老师在 ...
 * 已有课程，时间冲突) or of their room (…在 ... 已有课程，场地冲突), or each other. One engine query
 * per teacher and per room over the batch's whole span, then an interval sweep; the answer's
 * `data.dates` lists every clashing new session (`YYYY-MM-DD HH:mm`). A venue with rooms under it
 * is not a room (the engine's findRoomConflicts): sessions on it never clash.
 */
export async function assertNoTimeClash(tx: Tx, storeId: number, slots: readonly PlannedSlot[]): Promise<void> {
  const byTeacher = groupBy(slots, (s) => s.teacherId);
  // The teachers' locks first, then the rooms' (the engine's lock order), so a concurrent session cannot pass too.
  await lockTeachers(tx, byTeacher.keys());
  const teacherClashes = new Set<string>();
  for (const [teacherId, planned] of byTeacher) {
    const span = spanOf(planned);
    const existing = await findTeacherConflicts(tx, storeId, teacherId, span.startTime, span.endTime);
    for (const d of clashingStarts(planned, existing)) teacherClashes.add(d);
  }
  refuse(teacherClashes, Msg.teacherConflict);

  const byRoom = groupBy(
    slots.filter((s) => s.areaId != null),
    (s) => s.areaId!,
  );
  await lockRooms(tx, byRoom.keys());
  for (const [areaId, planned] of byRoom) {
    const room = await roomOf(tx, storeId, areaId);
    if (!room) continue;
    const span = spanOf(planned);
    const existing = await findRoomConflicts(tx, storeId, areaId, span.startTime, span.endTime);
    refuse(new Set(clashingStarts(planned, existing)), (named) => Msg.roomConflict(room.name, named));
  }
}
