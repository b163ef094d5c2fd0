import { Msg } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { addMinutes, localDateTime, toDateTime } from '../../lib/time.ts';
import { onlineDefault } from '../store-admin/public.ts';
import { cardsForNewBookings, getDeductionMode, requireSessionRefs } from '../timetable/public.ts';
import { createPlannedSessions, type PlannedSession } from './bulk-arrange.ts';
import { arrangeSlots, shortTime } from './plan.ts';
import { bulkTx } from './preview.ts';

export interface ArrangeCourseInput {
  cid: number;
  venueId: number | null;
  students: number;
  teacherId: number;
  startDate: string;
  arrangeTimes: number;
  courseTimes: { weekday: number; arrangeTime?: string | null }[];
  memberCardIds: number[];
  /** Absent: the store's 新课程默认在线教室 (module 1). */
  isOnline?: 0 | 1;
  dryRun?: boolean;
}

/**
 * Batch scheduling: from `startDate`, a session on every ticked weekday at its time until
 * `arrangeTimes` exist (capacity `students`, duration the course's), each with every fixed
 * student (`memberCardIds`, one seat each) booked, or added as a pending in deduction mode 1. One
 * transaction, written in bulk: a teacher clash (409 listing the dates) or a refused booking
 * (naming date and member) leaves nothing.
 */
export async function arrangeCourse(ctx: CallCtx, input: ArrangeCourseInput) {
  const storeId = ctx.store.id;
  const times = input.courseTimes.map((t) => ({ weekday: t.weekday, arrangeTime: t.arrangeTime ?? '' }));
  const slots = arrangeSlots(input.startDate, times, input.arrangeTimes);
  const r = await bulkTx(ctx, input.dryRun, async (tx) => {
    const refs = { courseId: input.cid, teacherId: input.teacherId, venueId: input.venueId, materialId: null };
    const course = (await requireSessionRefs(tx, storeId, [refs])).get(input.cid)!;
    const isOnline = input.isOnline ?? (await onlineDefault(tx, storeId));
    const cards = await cardsForNewBookings(tx, storeId, input.memberCardIds, localDateTime(ctx.store.timezone));
    const fixed = input.memberCardIds.map((id) => cards.get(id)!);
    const members = new Set<number>();
    for (const c of fixed) {
      if (members.has(c.memberId)) throw conflict(Msg.sameMemberTwice(c.memberName));
      members.add(c.memberId);
    }
    const plan: PlannedSession[] = slots.map((s) => {
      const startTime = toDateTime(s.date, s.time);
      return {
        course,
        teacherId: input.teacherId,
        venueId: input.venueId,
        materialId: null,
        startTime,
        endTime: addMinutes(startTime, course.duration),
        reservableCount: input.students,
        isOnline,
        students: fixed.map((card) => ({ card, studentCount: 1 })),
        failure: (member, reason) => Msg.arrangeFailed(shortTime(startTime), member, reason),
      };
    });
    const ids = await createPlannedSessions(tx, ctx.store, plan, {
      mode: await getDeductionMode(tx, storeId),
      operatorId: ctx.staff.id,
      now: localDateTime(ctx.store.timezone),
      source: '按课程批量排课',
      events: ctx.events,
    });
    return { count: ids.length, ids };
  });
  return { ids: [], ...r };
}
