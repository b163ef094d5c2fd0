import type { Executor } from '../../db/index.ts';
import { findPending, findReservation } from './booking-repository.ts';

/** The session, member and seats of a booking or a pending of the store (what events name by id). */
export async function bookingRef(
  db: Executor,
  storeId: number,
  ref: { reservationId: number } | { pendingId: number },
): Promise<{ timetableId: number; memberId: number; studentCount: number } | undefined> {
  const row =
    'reservationId' in ref
      ? await findReservation(db, storeId, ref.reservationId)
      : await findPending(db, storeId, ref.pendingId);
  return row && { timetableId: row.timetableId, memberId: row.memberId, studentCount: row.studentCount };
}
