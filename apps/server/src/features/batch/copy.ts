import { Msg, OperateType } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { addMinutes, daysBetween, localDateTime } from '../../lib/time.ts';
import {
  allowedCardsOf,
  bookSet,
  requireSessionRefs,
  sessionForRules,
  sessionRow,
  type SetBooking,
  bookingsMade,
} from '../timetable/public.ts';
import { event } from '../../lib/events.ts';
import { insertNewSessions } from './bulk-arrange.ts';
import { shortTime } from './plan.ts';
import { sessionRowsInRange, waitingPendingsWithMembers } from './repository.ts';
import { areaAndBelow } from '../reference/public.ts';
import { bulkTx } from './preview.ts';

export interface CopyInput {
  formerFromDate: string;
  formerToDate: string;
  afterFromDate: string;
  afterToDate: string;
  isCopyPending: 0 | 1;
  venueId: number | null;
}

/**
 * Copies the live sessions of one range (at most 7 days; venue filter with its sub-venues) to
 * another of the same length: same day offset and time, course, teacher, venue, material,
 * capacity, limits, allowed cards and colour; an online session is copied as "room on demand".
 * With isCopyPending=1 the waiting pendings are copied as pendings (taking their seats).
 * One transaction: a teacher or room clash (409 listing the dates) or a refused pending leaves nothing.
 */
export async function copySessions(ctx: CallCtx, input: CopyInput & { dryRun?: boolean }) {
  const storeId = ctx.store.id;
  const shift = daysBetween(input.formerFromDate, input.afterFromDate) * 24 * 60;
  return bulkTx(ctx, input.dryRun, async (tx) => {
    const venueIds = await areaAndBelow(tx, storeId, input.venueId);
    const sources = await sessionRowsInRange(tx, storeId, input.formerFromDate, input.formerToDate, venueIds);
    if (!sources.length) return { count: 0 };
    const targets = sources.map((s) => ({
      source: s,
      startTime: addMinutes(s.startTime, shift),
      endTime: addMinutes(s.endTime, shift),
    }));
    const sourceIds = sources.map((s) => s.id);
    const cards = await allowedCardsOf(tx, sourceIds);
    const pendings = input.isCopyPending ? await waitingPendingsWithMembers(tx, sourceIds) : [];
    // Every source's course, teacher, venue and material, as createSession checks one session.
    await requireSessionRefs(
      tx,
      storeId,
      sources.map((s) => ({ courseId: s.courseId, teacherId: s.teacherId, venueId: s.areaId, materialId: s.bookId })),
    );
    const now = localDateTime(ctx.store.timezone);
    // The source's own limits, colour and cards may differ from its course's (edited per session).
    const rows = targets.map(({ source: s, startTime, endTime }) =>
      sessionRow(
        storeId,
        {
          ...s,
          venueId: s.areaId,
          materialId: s.bookId,
          startTime,
          endTime,
          realCount: 0,
          isOnline: s.isOnline ? 1 : 0,
        },
        s,
        now,
      ),
    );
    const own = sourceIds.map((id) => cards.get(id)!);
    // The engine's session writer refuses a teacher or room taken at the copies' times (409 naming them).
    const ids = await insertNewSessions(tx, storeId, rows, own);
    const copied: SetBooking[] = [];
    for (const [i, s] of sources.entries()) {
      const session = sessionForRules({ ...rows[i], id: ids[i] }, own[i]);
      for (const p of pendings.filter((x) => x.sessionId === s.id)) {
        const member = { id: p.memberId, name: p.name, gender: p.gender, birthday: p.birthday };
        copied.push({ session, member, card: null, studentCount: p.studentCount, remark: p.remark });
      }
    }
    // The waiting pendings, as pendings of the copies: one set through the engine's rules and writer.
    await bookSet(tx, storeId, copied, {
      mode: 1,
      now,
      operatorId: ctx.staff.id,
      operateType: OperateType.ADMIN_BOOKED,
      refuse: (b, reason) => conflict(Msg.arrangeFailed(shortTime(b.session.startTime), b.member.name, reason)),
    });
    const made = { storeId, source: '复制课程', sessions: targets.length, bookings: copied.length };
    await ctx.events.emit(tx, event(bookingsMade, made));
    return { count: targets.length };
  });
}
