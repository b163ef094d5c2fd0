import { LessonBookingMsg, LessonSeriesMsg, OperateType, type LessonSeriesDate } from '@studio/contract';
import { inSavepoint } from '../../db/dialect.ts';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import { addDays, toDateTime } from '../../lib/time.ts';
import { bulkTx } from '../batch/public.ts';
import { requireArea } from '../reference/public.ts';
import { lessonType } from './booking-repository.ts';
import { bookLesson, type LessonBooking } from './booking-service.ts';
import { loadSlotFacts } from './slots-repository.ts';
import { workingSpans } from './slots.ts';

/**
 * Fixed weekly lessons (固定时段, issue 43 item 5): the same lesson every week for some weeks. Each
 * date is booked by the one booking path (`bookLesson`: its notice, the free-slot finder, the clash
 * rule, the cards' and members' rules), in a savepoint, one after the other in one transaction, so
 * a card running out or a cap reached by the series' own earlier weeks is seen. The preview
 * (`dryRun`) runs the very same and rolls back (`bulkTx`), answering each date's reason; the commit
 * books the dates asked for, all or nothing, as one bulk change its undo deletes (createSession
 * records the sessions it makes).
 */

export interface LessonSeries {
  courseId: number;
  teacherId: number;
  startDate: string;
  time: string;
  weeks: number;
  venueId?: number | null;
  members: readonly { mid: number; mcId: number }[];
  dates?: readonly string[];
  dryRun?: boolean;
}

/** Thrown inside a savepoint to undo a booking that was only tried. */
class Tried extends Error {}

/**
 * Why the free-slot finder does not offer the start: the teacher does not work then (their hours
 * and exceptions, `workingSpans`), else what the clash rule says when the lesson is tried outside
 * the offered slots (a teacher, room or machine taken), else the finder's own word.
 */
async function notOfferedBecause(tx: Tx, ctx: CallCtx, b: LessonBooking): Promise<string> {
  const date = b.startTime.slice(0, 10);
  const facts = await loadSlotFacts(tx, {
    storeId: ctx.store.id,
    courseId: b.courseId,
    teacherIds: [b.teacherId],
    from: toDateTime(date),
    to: toDateTime(addDays(date, 1)),
  });
  const type = await lessonType(tx, ctx.store.id, b.courseId);
  const minutes = (t: string) => Number(t.slice(11, 13)) * 60 + Number(t.slice(14, 16));
  const start = minutes(b.startTime);
  const end = start + (type?.duration ?? 0);
  const spans = workingSpans(
    date,
    facts.hours.filter((h) => h.teacherId === b.teacherId),
    facts.exceptions.filter((e) => e.teacherId === b.teacherId),
  );
  if (!spans.some((s) => s.start <= start && end <= s.end)) return LessonSeriesMsg.teacherAway;
  try {
    await inSavepoint(tx, async () => {
      await bookLesson(tx, ctx.store, { ...b, outsideReason: '固定时段' }, ctx.events);
      throw new Tried();
    });
  } catch (e) {
    if (e instanceof AppError && e.status === 409) return e.message;
    if (!(e instanceof Tried)) throw e;
  }
  return LessonBookingMsg.notOffered;
}

/** Books one date in a savepoint: null when booked, else why not (a 409 of the booking's rules, in words). */
async function tryDate(tx: Tx, ctx: CallCtx, b: LessonBooking): Promise<string | null> {
  try {
    await inSavepoint(tx, () => bookLesson(tx, ctx.store, b, ctx.events));
    return null;
  } catch (e) {
    if (!(e instanceof AppError) || e.status !== 409) throw e;
    return e.message === LessonBookingMsg.notOffered ? notOfferedBecause(tx, ctx, b) : e.message;
  }
}

/** The series' dates: the start date and the same weekday of each following week. */
export const seriesDates = (startDate: string, weeks: number) =>
  Array.from({ length: weeks }, (_, i) => addDays(startDate, 7 * i));

/**
 * Previews (`dryRun`: every date with why it cannot be booked, and the bulk preview of what booking
 * the bookable ones would charge) or books a fixed weekly lesson. The commit books `dates` (the
 * preview's bookable ones; none given: every date) and refuses, booking nothing, when one of them
 * can no longer be booked (409 naming the date and why: a racing commit, a card used meanwhile).
 */
export async function bookLessonSeries(ctx: CallCtx, s: LessonSeries) {
  const all = seriesDates(s.startDate, s.weeks);
  const asked = s.dates ? [...new Set(s.dates)].sort() : all;
  for (const d of asked) if (!all.includes(d)) throw badRequest(LessonSeriesMsg.notInSeries(d));
  if (!asked.length) throw conflict(LessonSeriesMsg.noDates);
  // A room of another store is not found, before any date is tried.
  if (s.venueId != null) await requireArea(ctx.db, ctx.store.id, s.venueId);
  const booking = (date: string): LessonBooking => ({
    series: { index: asked.indexOf(date), count: asked.length },
    courseId: s.courseId,
    teacherId: s.teacherId,
    startTime: toDateTime(date, s.time),
    venueId: s.venueId,
    members: s.members.map((m) => ({ memberId: m.mid, memberCardId: m.mcId })),
    operatorId: ctx.staff.id,
    operateType: OperateType.ADMIN_BOOKED,
  });
  const dates: LessonSeriesDate[] = [];
  const answer = await bulkTx(ctx, s.dryRun, async (tx) => {
    dates.length = 0;
    for (const date of asked) {
      const reason = await tryDate(tx, ctx, booking(date));
      if (reason && !s.dryRun) throw conflict(LessonSeriesMsg.dateFailed(date, reason));
      dates.push({ date, time: s.time, reason });
    }
    return { count: dates.filter((d) => d.reason === null).length };
  });
  return { ...answer, dates };
}
