import type { Executor } from '../../db/index.ts';

/** The session, member and seats of a booking or a pending of the store (what events name by id). */
export async function bookingRef(
  db: Executor,
  storeId: number,
  ref: { reservationId: number } | { pendingId: number },
): Promise<{ timetableId: number; memberId: number; studentCount: number } | undefined> {
  const [table, id] =
    'reservationId' in ref ? (['reservation', ref.reservationId] as const) : (['pending', ref.pendingId] as const);
  return db
    .selectFrom(table)
    .select(['timetableId', 'memberId', 'studentCount'])
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
}
