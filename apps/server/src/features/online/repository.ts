import type { Executor, Tx } from '../../db/index.ts';
import { withCourseName } from '../reference/public.ts';

/**
 * The online rooms' repository: a session with what rooms and messages need, and the guarded
 * writes of its online state (on demand, room made, creation failure, cancelled). Each write is one
 * UPDATE guarded on the state the caller read, answering whether it took.
 */

/** A session with what online rooms and messages need: course and teacher, seats, online state. */
export async function onlineSession(db: Executor, id: number, storeId?: number) {
  let q = db
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .select([
      't.id',
      't.storeId',
      't.startTime',
      't.endTime',
      't.realCount',
      't.reservableCount',
      't.isOnline',
      't.meetingId',
      't.meetingInfo',
      't.meetingError',
      't.deleted',
      'te.id as teacherId',
      'te.name as teacherName',
      'te.meetingType',
      'te.meetingCode',
      'te.joinUrl',
    ])
    .where('t.id', '=', id);
  if (storeId !== undefined) q = q.where('t.storeId', '=', storeId);
  return q.executeTakeFirst();
}
export type OnlineSession = NonNullable<Awaited<ReturnType<typeof onlineSession>>>;

/** Turns a live session without bookings or room into an on-demand one (isOnline 0 -> 1); false when it changed. */
export async function markOnDemand(tx: Tx, id: number): Promise<boolean> {
  const res = await tx
    .updateTable('timetable')
    .set({ isOnline: 1, meetingError: null })
    .where('id', '=', id)
    .where('isOnline', '=', 0)
    .where('realCount', '=', 0)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Stores a room made for a live session still at online state `whileOnline` without a room, and
 * clears the last failure; with `isOnline`, the session takes that state too. False when it changed.
 */
export async function putRoom(
  tx: Tx,
  id: number,
  o: { whileOnline: number; isOnline?: number; meetingId: string; meetingInfo: string },
): Promise<boolean> {
  const res = await tx
    .updateTable('timetable')
    .set({
      ...(o.isOnline === undefined ? {} : { isOnline: o.isOnline }),
      meetingId: o.meetingId,
      meetingInfo: o.meetingInfo,
      meetingError: null,
    })
    .where('id', '=', id)
    .where('isOnline', '=', o.whileOnline)
    .where('meetingInfo', 'is', null)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Keeps why the room of an on-demand session without a room could not be made. */
export async function setRoomError(tx: Tx, id: number, error: string): Promise<void> {
  await tx
    .updateTable('timetable')
    .set({ meetingError: error })
    .where('id', '=', id)
    .where('isOnline', '=', 1)
    .where('meetingInfo', 'is', null)
    .execute();
}

/**
 * Returns a live session at online state `isOnline` with meeting `meetingId` (null: none) to no
 * online room; false when it changed.
 */
export async function clearRoom(tx: Tx, id: number, isOnline: number, meetingId: string | null): Promise<boolean> {
  let q = tx
    .updateTable('timetable')
    .set({ isOnline: 0, meetingId: null, meetingInfo: null, meetingError: null })
    .where('id', '=', id)
    .where('isOnline', '=', isOnline)
    .where('deleted', '=', 0);
  q = meetingId === null ? q.where('meetingId', 'is', null) : q.where('meetingId', '=', meetingId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
