import { TimetableMsg, type CalendarDay, type LessonMark } from '@studio/contract';
import { MAX_RANGE_DAYS } from '@studio/contract';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../lib/errors.ts';
import { addDays, daysBetween } from '../../lib/time.ts';
import { RawJson } from '../../lib/raw-json.ts';
import { taggedCache } from '../../lib/cache.ts';
import { dataVersion } from '../../db/data-version.ts';
import { areaAndBelow, requireTeachers } from '../reference/public.ts';
import { calendarSessions, rostersOf } from './list-repository.ts';

export interface CalendarQuery {
  fromDate: string;
  toDate: string;
  venueId: number | null;
  teacherId: number | null;
}

/**
 * Answers per app instance, by store and query, tagged with the range's data version
 * (`lib/cache.ts`); at most 500 per database. Kept serialised: a hit then costs one version read
 * and a string write.
 */
const answers = taggedCache<RawJson>({ max: 500 });

/** A session's lesson mark (私教/小班): its course's kind and 待确认; null for a group class (kind 'group'). */
export function lessonMark(s: { kind: string; appointmentStatus: string | null }): LessonMark {
  if (s.kind === 'group') return null;
  return { kind: s.kind as NonNullable<LessonMark>['kind'], pending: s.appointmentStatus === 'pending' };
}

async function compute(db: Db, storeId: number, q: CalendarQuery): Promise<CalendarDay[]> {
  if (q.teacherId !== null) await requireTeachers(db, storeId, [q.teacherId]);
  const venueIds = await areaAndBelow(db, storeId, q.venueId);
  const rows = await calendarSessions(db, storeId, { ...q, venueIds });
  // A lesson shows its members' names (its roster: live bookings and pendings waiting for sign-in).
  const lessonIds = rows.filter((r) => r.kind !== 'group').map((r) => r.id);
  const members = new Map<number, string[]>(lessonIds.map((id) => [id, []]));
  if (lessonIds.length) {
    const roster = await rostersOf(db, storeId, lessonIds);
    roster.sort((a, b) => a.createTime.localeCompare(b.createTime) || a.id - b.id);
    for (const m of roster) members.get(m.sessionId)!.push(m.memberName);
  }
  const days: CalendarDay[] = [];
  for (const r of rows) {
    const date = r.startTime.slice(0, 10);
    let day = days[days.length - 1];
    if (!day || day.date !== date) {
      day = { date, list: [] };
      days.push(day);
    }
    day.list.push({
      id: r.id,
      fromTime: r.startTime,
      toTime: r.endTime,
      courseName: r.courseName,
      teacherId: r.teacherId,
      teacherName: r.teacherName,
      areaName: r.areaName,
      color: r.color,
      isOnline: r.isOnline,
      realCount: r.realCount,
      reservableCount: r.reservableCount,
      waitCount: r.waitCount,
      book: r.bookId !== null && r.bookName !== null ? { id: r.bookId, name: r.bookName } : null,
      lesson: r.kind === 'group' ? null : { ...lessonMark(r)!, members: members.get(r.id)! },
    });
  }
  return days;
}

/**
 * The schedule calendar: per date with sessions, the sessions of [fromDate, toDate] (at most 62
 * days), optionally of one area and its sub-areas and of one teacher. Answers are cached per
 * store and query and reused while the data version of the range (db/data-version.ts: read from
 * the database on each call, so several instances stay correct) has not moved. `opts.cache` off
 * (config CALENDAR_CACHE=0) computes every answer afresh.
 */
export async function calendar(
  db: Db,
  storeId: number,
  q: CalendarQuery,
  opts: { cache: boolean } = { cache: true },
): Promise<CalendarDay[] | RawJson> {
  if (q.toDate < q.fromDate) throw badRequest(TimetableMsg.rangeOrder);
  if (daysBetween(q.fromDate, q.toDate) + 1 > MAX_RANGE_DAYS) throw badRequest(TimetableMsg.rangeTooLong);
  if (!opts.cache) return compute(db, storeId, q);
  const key = `${storeId}|${q.fromDate}|${q.toDate}|${q.venueId ?? 0}|${q.teacherId ?? 0}`;
  // Read the version before the data: a write landing in between only makes the entry stale-tagged.
  const version = await dataVersion(db, storeId, `${q.fromDate} 00:00:00`, `${addDays(q.toDate, 1)} 00:00:00`);
  return answers.get(db, key, version, async () => {
    const days = await compute(db, storeId, q);
    return new RawJson(JSON.stringify(days), days);
  });
}

/** A teacher's sessions (not deleted) starting in [fromDate, toDate], for their calendar feed. */
export function teacherSessions(db: Db, storeId: number, teacherId: number, fromDate: string, toDate: string) {
  return calendarSessions(db, storeId, { fromDate, toDate, teacherId, venueIds: null });
}
