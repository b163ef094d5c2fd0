import { sql, type Kysely } from 'kysely';

/**
 * What a member card holds open: a new booking with a card reads the seats of its
 * pendings waiting for sign-in (what they will charge it) and counts its open bookings
 * (`openUseOf`, timetable/booking-repository.ts). Bookings are found by card through
 * `reservation_card`; pendings had no such index: a partial one over the waiting ones.
 */
export function cardOpenBookings() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`create index pending_waiting_card on pending (member_card_id) where status = 1`.execute(db);
    },
  };
}
