import { LessonMsg } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { addDays, daysBetween, weekday } from '../../lib/time.ts';
import { loadSlotFacts, type SlotFacts } from './slots-repository.ts';

/**
 * The free-slot finder of 私教 and 小班 (issue 43): where a lesson of a type can start. A start time
 * is offered, every `slot_step` minutes of the store's clock (xx:00, xx:15 …), for a teacher who
 * gives the type when, for the whole lesson [start, start + duration):
 * - the teacher works: their weekly hours of that weekday and the day's extra hours (加班), minus
 *   the day's time off (休息: the whole day, or a span);
 * - the teacher has no live session (a group class or a lesson) overlapping it (with the above:
 *   inside the teacher's free spans, `teacherFreeSpans`);
 * - one of the type's rooms has no live session overlapping it (the first free one, in the rooms'
 *   order, is offered; a type without rooms needs none);
 * - each machine the type uses has enough left: at every moment of the lesson, its count minus
 *   what the live lesson sessions then hold of it (their booked members × their type's per-member
 *   need; `peakUse`) covers members × per member;
 * - the start is at least the type's minimum notice after now.
 * Everything is read at once over the whole range (`slots-repository.ts`), then worked out in
 * memory by `freeSlots`, a pure function.
 */

/** A free start: who, when (store-local `YYYY-MM-DD HH:mm:ss`, the timetable's text) and which room (null: none needed). */
export interface FreeSlot {
  teacherId: number;
  startTime: string;
  endTime: string;
  areaId: number | null;
}

export interface SlotQuery {
  storeId: number;
  /** The lesson type (a course of a kind other than 'group'). */
  courseId: number;
  /** The teachers asked about; undefined or empty: everyone who gives the type (任意老师). */
  teacherIds?: readonly number[];
  /** Store-local dates `YYYY-MM-DD`, both included. */
  from: string;
  to: string;
  /** How many members the lesson is for. */
  members: number;
  /** Store-local now, `YYYY-MM-DD HH:mm:ss`. */
  now: string;
}

/** What `freeSlots` works from: the type and the facts of the range (as `loadSlotFacts` answers them). */
export interface SlotInput {
  type: { duration: number; slotStep: number; minNoticeMinutes: number };
  teacherIds: readonly number[];
  hours: readonly { teacherId: number; weekday: number; startTime: string; endTime: string }[];
  exceptions: readonly {
    teacherId: number;
    date: string;
    kind: 'off' | 'extra';
    startTime: string | null;
    endTime: string | null;
  }[];
  /** The type's rooms, in the order one is picked. */
  rooms: readonly number[];
  equipment: readonly { equipmentId: number; perMember: number; count: number }[];
  sessions: readonly { teacherId: number; areaId: number | null; startTime: string; endTime: string }[];
  machineUse: readonly { equipmentId: number; startTime: string; endTime: string; used: number }[];
  from: string;
  to: string;
  members: number;
  now: string;
}

const DAY = 1440;

/** Minutes of `HH:mm` (or `HH:mm:ss`) after midnight. */
const clockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whole minutes from `base` (`YYYY-MM-DD`, midnight) to a store-local date-time, rounded up. */
function minutesFrom(base: string, dateTime: string): number {
  const ms =
    Date.parse(`${dateTime.slice(0, 10)}T${dateTime.slice(11, 19) || '00:00:00'}Z`) - Date.parse(`${base}T00:00:00Z`);
  return Math.ceil(ms / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

export interface Span {
  start: number;
  end: number;
}

/** Spans merged where they meet or overlap, in start order. */
function merged(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.start < s.end).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** `spans` (merged) without the parts covered by `cut`. */
function without(spans: Span[], cut: Span[]): Span[] {
  let out = spans;
  for (const c of cut) {
    const next: Span[] = [];
    for (const s of out) {
      if (c.end <= s.start || c.start >= s.end) next.push(s);
      else {
        if (s.start < c.start) next.push({ start: s.start, end: c.start });
        if (c.end < s.end) next.push({ start: c.end, end: s.end });
      }
    }
    out = next;
  }
  return out;
}

/** Intervals on the range's minute line, kept per day they touch (a lesson lies within one day). */
class DayBuckets<T extends Span> {
  private readonly days = new Map<number, T[]>();
  constructor(private readonly dayCount: number) {}
  add(item: T): void {
    const first = Math.max(0, Math.floor(item.start / DAY));
    const last = Math.min(this.dayCount - 1, Math.floor((item.end - 1) / DAY));
    for (let d = first; d <= last; d++) {
      const list = this.days.get(d);
      if (list) list.push(item);
      else this.days.set(d, [item]);
    }
  }
  /** The intervals overlapping [start, end) of day `day`. */
  overlapping(day: number, start: number, end: number): T[] {
    return (this.days.get(day) ?? []).filter((i) => i.start < end && i.end > start);
  }
  anyOverlapping(day: number, start: number, end: number): boolean {
    return (this.days.get(day) ?? []).some((i) => i.start < end && i.end > start);
  }
}

/**
 * The most of a machine held at any one moment of [start, end) by some uses of it (each holding
 * `used` over [start, end)): uses in sequence do not add up, uses at once do.
 */
export function peakUse(uses: readonly (Span & { used: number })[], start: number, end: number): number {
  let peak = 0;
  for (const at of uses) {
    const moment = Math.max(at.start, start);
    if (moment >= end || at.end <= start) continue;
    let held = 0;
    for (const u of uses) if (u.start <= moment && u.end > moment) held += u.used;
    peak = Math.max(peak, held);
  }
  return peak;
}

/** The teacher's working spans of one day (minutes after its midnight): weekly + extra − off. */
export function workingSpans(
  date: string,
  hours: readonly { weekday: number; startTime: string; endTime: string }[],
  exceptions: readonly { date: string; kind: 'off' | 'extra'; startTime: string | null; endTime: string | null }[],
): Span[] {
  const isoWeekday = weekday(date) || 7;
  const work: Span[] = [];
  const off: Span[] = [];
  for (const h of hours) {
    if (h.weekday === isoWeekday) work.push({ start: clockMinutes(h.startTime), end: clockMinutes(h.endTime) });
  }
  for (const e of exceptions) {
    if (e.date !== date) continue;
    if (e.kind === 'off' && (e.startTime == null || e.endTime == null)) return [];
    if (e.startTime == null || e.endTime == null) continue;
    (e.kind === 'off' ? off : work).push({ start: clockMinutes(e.startTime), end: clockMinutes(e.endTime) });
  }
  return without(merged(work), off);
}

/**
 * A teacher's free spans of one day (minutes after its midnight): their working spans
 * (`workingSpans`: hours and extra hours less time off) less what their live sessions — group
 * classes and lessons — take (`busy`, on the same minute line). The one free-time rule: the finder
 * offers starts inside these spans, the teachers' day view shades them.
 */
export function teacherFreeSpans(
  date: string,
  hours: Parameters<typeof workingSpans>[1],
  exceptions: Parameters<typeof workingSpans>[2],
  busy: readonly Span[],
): Span[] {
  return without(workingSpans(date, hours, exceptions), [...busy]);
}

/** The free starts of a lesson type over a range, worked out from the range's facts (pure). */
export function freeSlots(input: SlotInput): FreeSlot[] {
  const { duration, slotStep, minNoticeMinutes } = input.type;
  const base = input.from;
  const dayCount = daysBetween(input.from, input.to) + 1;
  if (dayCount <= 0 || duration <= 0 || slotStep <= 0) return [];
  const earliest = minutesFrom(base, input.now) + minNoticeMinutes;
  const toLine = (s: { startTime: string; endTime: string }) => ({
    start: minutesFrom(base, s.startTime),
    end: minutesFrom(base, s.endTime),
  });

  const asked = new Set(input.teacherIds);
  const rooms = new Set(input.rooms);
  const teacherBusy = new Map<number, DayBuckets<Span>>();
  const roomBusy = new Map<number, DayBuckets<Span>>();
  const bucketOf = (m: Map<number, DayBuckets<Span>>, id: number) => {
    let b = m.get(id);
    if (!b) m.set(id, (b = new DayBuckets(dayCount)));
    return b;
  };
  for (const s of input.sessions) {
    const span = toLine(s);
    if (asked.has(s.teacherId)) bucketOf(teacherBusy, s.teacherId).add(span);
    if (s.areaId != null && rooms.has(s.areaId)) bucketOf(roomBusy, s.areaId).add(span);
  }
  const machineUse = new Map<number, DayBuckets<Span & { used: number }>>();
  for (const u of input.machineUse) {
    let b = machineUse.get(u.equipmentId);
    if (!b) machineUse.set(u.equipmentId, (b = new DayBuckets(dayCount)));
    b.add({ ...toLine(u), used: u.used });
  }
  const machinesFree = (day: number, start: number, end: number) =>
    input.equipment.every((e) => {
      const held = peakUse(machineUse.get(e.equipmentId)?.overlapping(day, start, end) ?? [], start, end);
      return e.count - held >= input.members * e.perMember;
    });
  const freeRoom = (day: number, start: number, end: number): number | null | undefined => {
    if (!input.rooms.length) return null;
    return input.rooms.find((r) => !roomBusy.get(r)?.anyOverlapping(day, start, end));
  };

  const out: FreeSlot[] = [];
  for (let day = 0; day < dayCount; day++) {
    const date = addDays(base, day);
    const at = (m: number) => {
      const inDay = m - day * DAY;
      return inDay >= DAY
        ? `${addDays(date, 1)} 00:00:00`
        : `${date} ${pad(Math.floor(inDay / 60))}:${pad(inDay % 60)}:00`;
    };
    for (const teacherId of input.teacherIds) {
      // The teacher's sessions touching the day, on the day's own minute line.
      const busy = (teacherBusy.get(teacherId)?.overlapping(day, day * DAY, (day + 1) * DAY) ?? []).map((b) => ({
        start: b.start - day * DAY,
        end: b.end - day * DAY,
      }));
      const spans = teacherFreeSpans(
        date,
        input.hours.filter((h) => h.teacherId === teacherId),
        input.exceptions.filter((e) => e.teacherId === teacherId),
        busy,
      );
      for (const span of spans) {
        for (let t = Math.ceil(span.start / slotStep) * slotStep; t + duration <= span.end; t += slotStep) {
          const start = day * DAY + t;
          const end = start + duration;
          if (start < earliest) continue;
          const areaId = freeRoom(day, start, end);
          if (areaId === undefined) continue;
          if (!machinesFree(day, start, end)) continue;
          out.push({ teacherId, startTime: at(start), endTime: at(end), areaId });
        }
      }
    }
  }
  return out.sort((a, b) => a.startTime.localeCompare(b.startTime) || a.teacherId - b.teacherId);
}

/** The finder's input from what `loadSlotFacts` read. */
export function slotInput(facts: SlotFacts, q: SlotQuery): SlotInput {
  const type = facts.type[0];
  return {
    type,
    teacherIds: facts.teachers.map((t) => t.teacherId),
    hours: facts.hours,
    exceptions: facts.exceptions,
    rooms: facts.rooms.map((r) => r.areaId),
    equipment: facts.equipment,
    sessions: facts.sessions,
    machineUse: facts.machineUse.map((u) => ({ ...u, used: Number(u.used) })),
    from: q.from,
    to: q.to,
    members: q.members,
    now: q.now,
  };
}

/**
 * The free starts of a lesson type for some teachers (or all who give it) over store-local dates
 * `from`..`to`, for `members` members, in start order, with the teachers asked about (name, level):
 * one read of everything the range needs, then `freeSlots`. 404 课程不存在 when the type is not an
 * enabled lesson type of the store; 400 when more members are asked for than the type takes.
 */
export async function loadFreeSlots(db: Executor, q: SlotQuery) {
  if (q.teacherIds?.length === 0) q = { ...q, teacherIds: undefined };
  const facts = await loadSlotFacts(db, {
    storeId: q.storeId,
    courseId: q.courseId,
    teacherIds: q.teacherIds,
    from: `${q.from} 00:00:00`,
    to: `${addDays(q.to, 1)} 00:00:00`,
  });
  const type = facts.type[0];
  if (!type) throw notFound('课程');
  if (q.members < 1 || q.members > type.maxMembers) throw badRequest(LessonMsg.membersMax(type.maxMembers));
  return { slots: freeSlots(slotInput(facts, q)), teachers: facts.teachers };
}

/** `loadFreeSlots`'s slots: where a lesson of the type can start (the booking engine's question). */
export async function findFreeSlots(db: Executor, q: SlotQuery): Promise<FreeSlot[]> {
  return (await loadFreeSlots(db, q)).slots;
}
