import { Msg } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { addMinutes, localDateTime, toDateTime } from '../../lib/time.ts';
import { cardsForNewBookings, getDeductionMode, requireSessionRefs } from '../timetable/public.ts';
import { createPlannedSessions, type PlannedSession } from './bulk-arrange.ts';
import { opKey, stampOpLock, takeOpLock } from './op-lock.ts';
import { templateDate } from './plan.ts';
import { templateRows } from './template-repository.ts';
import { checkTemplateCaps } from './template.ts';
import { bulkTx } from './preview.ts';

/**
 * Instantiates the weekly template for `arrangeWeeks` weeks from Monday `fromDate`, every row with
 * its fixed students booked (mode 0) or added as pendings (mode 1), all in one transaction.
 * An identical request while this one runs or within the repeat window is refused (请勿重复操作).
 * A rule broken anywhere rolls everything back and names the week, its date and the member.
 */
export async function arrangeTemplateWeeks(
  ctx: CallCtx,
  input: { fromDate: string; arrangeWeeks: number; dryRun?: boolean },
) {
  const storeId = ctx.store.id;
  const key = opKey('week-arrange', storeId, { fromDate: input.fromDate, arrangeWeeks: input.arrangeWeeks });
  return bulkTx(ctx, input.dryRun, async (tx) => {
    // The operation lock first; createPlannedSessions then takes the engine's locks in order.
    await takeOpLock(tx, key, storeId);
    const rows = await templateRows(tx, storeId);
    if (!rows.length) throw badRequest(Msg.templateEmpty);
    checkTemplateCaps(
      rows.length,
      rows.map((r) => r.students.length),
    );
    // Every row's course, teacher, venue and material, as createSession checks one session.
    const courses = await requireSessionRefs(
      tx,
      storeId,
      rows.map((r) => ({ courseId: r.courseId, teacherId: r.teacherId, venueId: r.areaId, materialId: r.bookId })),
    );
    const cards = await cardsForNewBookings(
      tx,
      storeId,
      rows.flatMap((r) => r.students.map((s) => s.mcId)),
      localDateTime(ctx.store.timezone),
    );
    const plan: PlannedSession[] = [];
    for (let week = 1; week <= input.arrangeWeeks; week++) {
      for (const r of rows) {
        const course = courses.get(r.courseId)!;
        const date = templateDate(input.fromDate, week, r.weekday);
        const startTime = toDateTime(date, r.time);
        plan.push({
          course,
          teacherId: r.teacherId,
          venueId: r.areaId,
          materialId: r.bookId,
          startTime,
          endTime: addMinutes(startTime, course.duration),
          reservableCount: r.reservableCount,
          isOnline: 0,
          students: r.students.map((s) => ({ card: cards.get(s.mcId)!, studentCount: s.studentCount })),
          failure: (member, reason) => Msg.weekArrangeFailed(week, date, member, reason),
        });
      }
    }
    const ids = await createPlannedSessions(tx, ctx.store, plan, {
      mode: await getDeductionMode(tx, storeId),
      operatorId: ctx.staff.id,
      now: localDateTime(ctx.store.timezone),
      source: '按周批量排课',
      events: ctx.events,
    });
    await stampOpLock(tx, key);
    return { count: ids.length };
  });
}
