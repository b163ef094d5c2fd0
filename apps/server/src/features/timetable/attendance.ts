import {
  ATTENDANCE_EDIT_DAYS,
  AttendanceMsg,
  OperateType,
  ReservationStatus,
  type markAttendanceCall,
  type ParsedReqOf,
} from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { event } from '../../lib/events.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { bookingForAttendance, setAttended } from './attendance-repository.ts';
import { writeTrail } from './booking-repository.ts';
import { memberAttended } from './events.ts';

/** The booking whose attendance changes. */
export interface AttendanceBooking {
  id: number;
  sessionId: number;
  memberId: number;
  memberCardId: number;
  studentCount: number;
}

/**
 * Who came, in the caller's transaction (预约即扣费): marks the booking 到店 at `now` or takes it back,
 * with its history line (到店 / 撤销到店, nothing charged: the booking paid) by `operatorId` (null:
 * the member's own scan). False, writing nothing, when it was already so or is no longer booked.
 * The desk, the teacher and the member's self check-in all record the one fact through here.
 */
export async function recordAttendance(
  tx: Tx,
  storeId: number,
  b: AttendanceBooking,
  o: { attended: boolean; now: string; operatorId: number | null; remark?: string | null },
): Promise<boolean> {
  if (!(await setAttended(tx, b.id, o.attended ? o.now : null))) return false;
  await writeTrail(tx, storeId, [
    {
      timetableId: b.sessionId,
      memberId: b.memberId,
      memberCardId: b.memberCardId,
      reservationId: b.id,
      pendingId: null,
      studentCount: b.studentCount,
      usedCount: 0,
      operateType: o.attended ? OperateType.ATTENDED : OperateType.ATTENDANCE_UNDONE,
      operatorId: o.operatorId,
      remark: o.remark ?? null,
      now: o.now,
    },
  ]);
  return true;
}

/** Whether `now` is more than ATTENDANCE_EDIT_DAYS days after the class's end (all store-local). */
const pastEditing = (endTime: string, now: string) =>
  `${addDays(endTime.slice(0, 10), ATTENDANCE_EDIT_DAYS)}${endTime.slice(10)}` < now;

/**
 * The desk or the teacher marks a booking 到店 (attended 1) or takes it back (0). Marking what is
 * already so answers ok and changes nothing but the log's entry (two desks tapping at once, or a
 * member who scanned first); a pending signed in (签到后扣费) came already and its sign-in, which charged, is not undone
 * here. Refused: a cancelled booking; a class ended more than ATTENDANCE_EDIT_DAYS days ago, except
 * for a manager. A teacher names only a booking of their own class (the route loop's teacherOwns).
 */
export async function markAttendance(ctx: CallCtx, input: ParsedReqOf<typeof markAttendanceCall>): Promise<null> {
  const attended = input.attended === 1;
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = localDateTime(ctx.store.timezone);
    const b = await bookingForAttendance(tx, ctx.store.id, input.reservationId);
    if (!b) throw notFound('预约');
    if (b.status === ReservationStatus.CANCELLED) throw conflict(AttendanceMsg.cancelled);
    if (ctx.post.role !== 'manager' && pastEditing(b.endTime, now)) {
      throw conflict(AttendanceMsg.tooOld(ATTENDANCE_EDIT_DAYS));
    }
    if (b.status === ReservationStatus.SIGNED_IN && !attended) throw conflict(AttendanceMsg.signedIn);
    const changed =
      b.status === ReservationStatus.BOOKED &&
      (await recordAttendance(tx, ctx.store.id, b, { attended, now, operatorId: ctx.staff.id }));
    if (!changed) {
      // Cancelled between the read and the write: said so; otherwise it already was what was asked.
      const again = await bookingForAttendance(tx, ctx.store.id, b.id);
      if (again?.status === ReservationStatus.CANCELLED) throw conflict(AttendanceMsg.cancelled);
    }
    if (changed && attended) {
      await ctx.events.emit(
        tx,
        event(memberAttended, { storeId: ctx.store.id, memberId: b.memberId, sessionId: b.sessionId, now }),
      );
    }
    // Every call answered ok leaves its entry; one that found it so already says it changed nothing.
    audit(tx, {
      kind: 'booking',
      summary: `${attended ? '记到店' : '撤销到店'}${changed ? '' : '（已是如此，未改变）'}`,
      targets: [
        { type: 'booking', id: b.id },
        { type: 'session', id: b.sessionId },
        { type: 'member', id: b.memberId },
      ],
    });
  });
  return null;
}
