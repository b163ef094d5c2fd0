import { ReservationStatus, type queryToday, type ResOf, type RosterEntry } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { smsToday } from '../messaging/public.ts';
import { exceptionOrderCount } from '../payment/public.ts';
import { getDeductionMode, lessonMark, rostersOf } from '../timetable/public.ts';
import { ownTeacherFilter } from '../reference/public.ts';
import { sessionsOfDay } from './repository.ts';

/** A roster line's state: waiting for sign-in, signed in, marked 到店 (the one attendance fact), or booked. */
function stateOf(r: {
  kind: 'booking' | 'pending';
  status: number;
  attendedTime: string | null;
}): RosterEntry['state'] {
  if (r.kind === 'pending') return 'waiting';
  if (r.status === ReservationStatus.SIGNED_IN) return 'signed';
  return r.attendedTime !== null ? 'attended' : 'booked';
}

/** One day's classes (today unless a date is given) with their rosters, for the desk. */
export async function today(ctx: CallCtx, date: string | null | undefined): Promise<ResOf<typeof queryToday>> {
  const now = localDateTime(ctx.store.timezone);
  const day = date ?? now.slice(0, 10);
  const [sessions, deductionMode] = await Promise.all([
    sessionsOfDay(ctx.db, ctx.store.id, day, ownTeacherFilter(ctx.post)),
    getDeductionMode(ctx.db, ctx.store.id),
  ]);
  const rosters = new Map<number, RosterEntry[]>(sessions.map((s) => [s.id, []]));
  if (sessions.length) {
    const rows = await rostersOf(
      ctx.db,
      ctx.store.id,
      sessions.map((s) => s.id),
    );
    // In the order people were put on the list (a sign-in's booking is dated by the sign-in).
    rows.sort((a, b) => a.createTime.localeCompare(b.createTime) || a.kind.localeCompare(b.kind) || a.id - b.id);
    for (const r of rows) {
      rosters.get(r.sessionId)!.push({
        kind: r.kind,
        id: r.id,
        memberId: r.memberId,
        memberName: r.memberName,
        mobile: r.mobile,
        mcId: r.memberCardId,
        cardName: r.cardName,
        studentCount: r.studentCount,
        state: stateOf(r),
        remark: r.remark,
      });
    }
  }
  return {
    date: day,
    now,
    deductionMode,
    smsCapReached: (await smsToday(ctx.db, ctx.store)).capReached,
    // 店长 is told of online orders paid but not fulfilled (异常订单), to refund them from 线上订单.
    exceptionOrders: ctx.post.role === 'manager' ? await exceptionOrderCount(ctx.db, ctx.store.id) : 0,
    // Field by field: the day's sessions are read as the members' timetable reads them (with the
    // waitlist count), and 今日 answers what its contract declares.
    sessions: sessions.map((s) => ({
      id: s.id,
      courseId: s.courseId,
      courseName: s.courseName,
      color: s.color,
      startTime: s.startTime,
      endTime: s.endTime,
      teacherName: s.teacherName,
      areaName: s.areaName,
      reservableCount: s.reservableCount,
      realCount: s.realCount,
      isOnline: s.isOnline,
      phase: s.endTime <= now ? 'ended' : s.startTime <= now ? 'now' : 'upcoming',
      lesson: lessonMark(s),
      roster: rosters.get(s.id)!,
    })),
  };
}
