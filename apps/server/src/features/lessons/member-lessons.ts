import {
  MEMBER_LESSON_DAYS,
  MemberLessonMsg,
  LessonBookingMsg,
  type MemberLessonType,
  type OpenLesson,
} from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addDays, addMinutes, localDateTime, toDateTime } from '../../lib/time.ts';
import { lessonTermsOf } from '../cards/public.ts';
import { cardsChoice } from '../member-channel/public.ts';
import { requireTeacher } from '../reference/public.ts';
import { heldPairs } from '../timetable/public.ts';
import { givesLesson, lessonType, openSmallGroups } from './booking-repository.ts';
import { freeSlotsByDay, listLessonTypes } from './service.ts';

/**
 * 私教 and 小班 on the members' phone (issue 43): what a member picks before booking a lesson — the
 * store's enabled lesson types, a day's free start times of one (the free-slot finder's, as the
 * desk sees them), the day's 小班 already booked that still have room, and their cards for it (the
 * booking's card rules). Booking, joining and cancelling are booking-service.ts's.
 */

/** The store's enabled lesson types, with who gives each (name, level) and its prices. */
export async function memberLessonTypes(ctx: CallCtx): Promise<MemberLessonType[]> {
  return (await listLessonTypes(ctx))
    .filter((t) => t.enabled === 1)
    .map(({ areas: _a, equipment: _e, enabled: _n, slotStep: _s, ...t }) => t);
}

/**
 * An enabled lesson type of the store (404 课程不存在 otherwise: a group class is not one) and,
 * when asked, a teacher of the store (404 老师不存在) who gives it (409 该老师不教这门课).
 */
async function typeAndTeacher(ctx: CallCtx, courseId: number, teacherId: number | null | undefined) {
  const type = await lessonType(ctx.db, ctx.store.id, courseId);
  if (!type || type.kind === 'group' || type.enabled !== 1) throw notFound('课程');
  if (teacherId == null) return type;
  await requireTeacher(ctx.db, ctx.store.id, teacherId);
  if (!(await givesLesson(ctx.db, courseId, teacherId))) throw conflict(LessonBookingMsg.notTeacher);
  return type;
}

/** A day the phone offers: from today (store-local) for MEMBER_LESSON_DAYS days (400 otherwise). */
function offeredDay(ctx: CallCtx, date: string) {
  const today = localDateTime(ctx.store.timezone).slice(0, 10);
  if (date < today || date > addDays(today, MEMBER_LESSON_DAYS - 1)) throw badRequest(MemberLessonMsg.days);
}

/**
 * A day's free start times of a lesson type for one member, by teacher (null: every teacher who
 * gives it, 任意老师): the finder's (`freeSlotsByDay`), for a day from today to the last the phone
 * offers.
 */
export async function memberLessonSlots(
  ctx: CallCtx,
  input: { courseId: number; teacherId?: number | null; date: string },
) {
  await typeAndTeacher(ctx, input.courseId, input.teacherId);
  offeredDay(ctx, input.date);
  const days = await freeSlotsByDay(ctx, {
    courseId: input.courseId,
    teacherIds: input.teacherId == null ? [] : [input.teacherId],
    from: input.date,
    to: input.date,
    members: 1,
  });
  return (days.find((d) => d.date === input.date)?.teachers ?? []).map((t) => ({
    ...t,
    slots: t.slots.map(({ startTime, endTime }) => ({ startTime, endTime })),
  }));
}

/**
 * The day's 小班 of a type already booked (by teacher, or all of them) that the member may join: not
 * started within the type's notice, a place free, the member not in it already; none for a type
 * that is not a 小班. Joining is `addLessonMember`'s (it checks each of these again under its locks).
 */
export async function memberOpenLessons(
  ctx: CallCtx,
  input: { courseId: number; teacherId?: number | null; date: string },
): Promise<OpenLesson[]> {
  const type = await typeAndTeacher(ctx, input.courseId, input.teacherId);
  offeredDay(ctx, input.date);
  if (type.kind !== 'small_group') return [];
  const earliest = addMinutes(localDateTime(ctx.store.timezone), type.minNoticeMinutes);
  const dayStart = toDateTime(input.date);
  const rows = await openSmallGroups(ctx.db, ctx.store.id, {
    courseId: type.id,
    teacherId: input.teacherId ?? null,
    from: earliest > dayStart ? earliest : dayStart,
    to: toDateTime(addDays(input.date, 1)),
  });
  const mine = new Set(
    (
      await heldPairs(
        ctx.db,
        rows.map((r) => r.id),
        [ctx.member.id],
      )
    ).map(([sessionId]) => sessionId),
  );
  return rows
    .filter((r) => !mine.has(r.id))
    .map((r) => ({
      id: r.id,
      startTime: r.startTime,
      endTime: r.endTime,
      teacherId: r.teacherId,
      teacherName: r.teacherName,
      booked: r.realCount,
      maxMembers: r.maxMembers,
      pending: r.appointmentStatus === 'pending',
    }));
}

/**
 * The member's cards for a lesson of the type with the teacher at a start, each usable or why not:
 * the booking's card rules, with what the type allows (its cards, a lesson pack's teacher or level)
 * and what a 储值卡 pays (the type's price at the teacher's level), as booking it would read them.
 */
export async function memberCardsForLesson(
  ctx: CallCtx,
  input: { courseId: number; teacherId: number; date: string; time: string },
) {
  await typeAndTeacher(ctx, input.courseId, input.teacherId);
  const lesson = { courseId: input.courseId, teacherId: input.teacherId };
  const scope = { db: ctx.db, dialect: ctx.dialect, store: ctx.store, memberId: ctx.member.id, events: ctx.events };
  return cardsChoice(scope, toDateTime(input.date, input.time), async (cards) => {
    const terms = await lessonTermsOf(
      ctx.db,
      ctx.store.id,
      cards.map((c) => c.id),
      lesson,
    );
    const allowedCardIds = cards.filter((c) => terms.get(c.id)?.allowed).map((c) => c.cardId);
    return (c) => ({ allowedCardIds, perCount: terms.get(c.id)?.perCount });
  });
}
