import { ReservationStatus, type BatchExportRow } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { touchStore } from '../timetable/engine.ts';
import { deleteSessions } from './bulk-delete.ts';
import { sessionsInRange } from './range.ts';
import { areaAndBelow } from './refs.ts';

/**
 * Batch delete: every live session starting in the inclusive range (venue filter with its
 * sub-venues) is deleted, its bookings cancelled and refunded as the engine's deleteSession does,
 * in bulk and in one transaction.
 */
export async function cancelSessionsInRange(
  ctx: CallCtx,
  input: { fromDate: string; toDate: string; areaId: number | null },
): Promise<{ count: number }> {
  const storeId = ctx.store.id;
  return ctx.db.transaction().execute(async (tx) => {
    await touchStore(tx, storeId);
    const areaIds = await areaAndBelow(tx, storeId, input.areaId);
    const sessions = await sessionsInRange(tx, storeId, input.fromDate, input.toDate, areaIds)
      .select('t.id')
      .orderBy('t.startTime')
      .orderBy('t.id')
      .execute();
    const count = await deleteSessions(
      tx,
      ctx.store,
      sessions.map((s) => s.id),
      ctx.staff.id,
    );
    return { count };
  });
}

/** Live bookings (booked or signed in) of the live sessions starting in the inclusive range, by time. */
export async function exportRange(
  ctx: CallCtx,
  input: { fromDate: string; toDate: string },
): Promise<BatchExportRow[]> {
  const rows = await sessionsInRange(ctx.db, ctx.store.id, input.fromDate, input.toDate, null)
    .innerJoin('reservation as r', 'r.timetableId', 't.id')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select([
      't.startTime',
      't.endTime',
      'te.name as teacher',
      'm.name as member',
      'p.cardName as card',
      'r.usedCount',
      'm.mobile',
      'c.name as courseName',
      'r.studentCount',
      'r.remark',
    ])
    .where('r.status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .orderBy('t.startTime')
    .orderBy('t.id')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({
    courseTime: `${r.startTime.slice(0, 16)}-${r.endTime.slice(11, 16)}`,
    teacher: r.teacher,
    member: r.member,
    card: r.card,
    usedCount: Number(r.usedCount),
    mobile: r.mobile,
    courseName: r.courseName,
    studentCount: r.studentCount,
    remark: r.remark,
  }));
}
