import { Msg, OperateType, PendingStatus } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { addMinutes, daysBetween, localDateTime } from '../../lib/time.ts';
import { allowedCardsOf, bookSet, createSession, sessionForRules, type SetBooking } from '../timetable/public.ts';
import { assertNoTimeClash } from './conflicts.ts';
import { shortTime } from './plan.ts';
import { sessionsInRange } from './range.ts';
import { areaAndBelow } from '../reference/public.ts';
import { bulkTx } from './preview.ts';

export interface CopyInput {
  formerFromDate: string;
  formerToDate: string;
  afterFromDate: string;
  afterToDate: string;
  isCopyPending: 0 | 1;
  areaId: number | null;
}

/**
 * Copies the live sessions of one range (at most 7 days; venue filter with its sub-venues) to
 * another of the same length: same day offset and time, course, teacher, venue, material,
 * capacity, limits, allowed cards and colour; an online session is copied as "room on demand".
 * With isCopyPending=1 the waiting pendings are copied as pendings (taking their seats).
 * One transaction: a teacher clash (409 listing the dates) or a refused pending leaves nothing.
 */
export async function copySessions(ctx: CallCtx, input: CopyInput & { dryRun?: boolean }) {
  const storeId = ctx.store.id;
  const shift = daysBetween(input.formerFromDate, input.afterFromDate) * 24 * 60;
  return bulkTx(ctx, input.dryRun, async (tx) => {
    const areaIds = await areaAndBelow(tx, storeId, input.areaId);
    const sources = await sessionsInRange(tx, storeId, input.formerFromDate, input.formerToDate, areaIds)
      .selectAll('t')
      .orderBy('t.startTime')
      .orderBy('t.id')
      .execute();
    if (!sources.length) return { count: 0 };
    const targets = sources.map((s) => ({
      source: s,
      teacherId: s.teacherId,
      startTime: addMinutes(s.startTime, shift),
      endTime: addMinutes(s.endTime, shift),
    }));
    await assertNoTimeClash(tx, storeId, targets);
    const sourceIds = sources.map((s) => s.id);
    const cards = await allowedCardsOf(tx, sourceIds);
    const pendings = input.isCopyPending
      ? await tx
          .selectFrom('pending as p')
          .innerJoin('member as m', 'm.id', 'p.memberId')
          .select(['p.timetableId', 'p.memberId', 'p.studentCount', 'p.remark', 'm.name', 'm.gender', 'm.birthday'])
          .where('p.timetableId', 'in', sourceIds)
          .where('p.status', '=', PendingStatus.WAITING)
          .orderBy('p.id')
          .execute()
      : [];
    const copied: SetBooking[] = [];
    for (const t of targets) {
      const s = t.source;
      const { id } = await createSession(tx, ctx.store, {
        courseId: s.courseId,
        teacherId: s.teacherId,
        areaId: s.areaId,
        bookId: s.bookId,
        startTime: t.startTime,
        endTime: t.endTime,
        reservableCount: s.reservableCount,
        isOnline: s.isOnline ? 1 : 0,
      });
      // The source's own limits, colour and cards may differ from its course's (edited per session).
      await tx
        .updateTable('timetable')
        .set({
          color: s.color,
          genderLimit: s.genderLimit,
          ageLimit: s.ageLimit,
          syear: s.syear,
          smonth: s.smonth,
          sday: s.sday,
          eyear: s.eyear,
          emonth: s.emonth,
          eday: s.eday,
        })
        .where('id', '=', id)
        .execute();
      await tx.deleteFrom('timetableCard').where('timetableId', '=', id).execute();
      const own = cards.get(s.id)!;
      if (own.length) {
        await tx
          .insertInto('timetableCard')
          .values(own.map((cardId) => ({ storeId, timetableId: id, cardId })))
          .execute();
      }
      const session = sessionForRules({ ...s, id, startTime: t.startTime, endTime: t.endTime, realCount: 0 }, own);
      for (const p of pendings.filter((x) => x.timetableId === s.id)) {
        const member = { id: p.memberId, name: p.name, gender: p.gender, birthday: p.birthday };
        copied.push({ session, member, card: null, studentCount: p.studentCount, remark: p.remark });
      }
    }
    // The waiting pendings, as pendings of the copies: one set through the engine's rules and writer.
    await bookSet(tx, storeId, copied, {
      mode: 1,
      now: localDateTime(ctx.store.timezone),
      operatorId: ctx.staff.id,
      operateType: OperateType.ADMIN_BOOKED,
      refuse: (b, reason) => conflict(Msg.arrangeFailed(shortTime(b.session.startTime), b.member.name, reason)),
    });
    return { count: targets.length };
  });
}
