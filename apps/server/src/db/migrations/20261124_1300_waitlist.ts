import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * The waitlist of a full session (issue 13): members queue with a card and a student count, first
 * come first served (`id` order). `status` 1 waiting, 2 promoted (the booking or pending it became
 * is kept), 3 left (by the member or the desk), 4 ended without a seat (session deleted, or the
 * member booked otherwise). At most one waiting row per member and session (a partial unique index).
 * `timetable.wait_count` counts a session's waiting rows: every change of the queue updates the
 * session row, which locks it (so promotion and joins are serialised with the cancels that free
 * seats) and moves the calendar's data version (so the cached week shows 候补 N).
 * A member booked into a session by any path (desk, batch runs, the members' channel, seeds) leaves
 * its queue: triggers on inserting a reservation or a pending end their waiting row and move the
 * count, so nobody both holds a seat and waits for one, whatever wrote the booking.
 */
export function waitlist(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('timetable')
        .addColumn('wait_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('waitlist')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('student_count', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        /** Who queued them: a staff id, or null for the member themself. */
        .addColumn('operator_id', 'integer')
        /** Why the last promotion passed them over (the card rule's message), kept while they wait. */
        .addColumn('skip_reason', 'text')
        .addColumn('reservation_id', 'integer', (c) => c.references('reservation.id'))
        .addColumn('pending_id', 'integer', (c) => c.references('pending.id'))
        .addColumn('create_time', 'text', (c) => c.notNull())
        .addColumn('end_time', 'text')
        .execute();
      await db.schema
        .createIndex('waitlist_one_waiting')
        .on('waitlist')
        .columns(['timetable_id', 'member_id'])
        .unique()
        .where(sql.ref('status'), '=', 1)
        .execute();
      await db.schema
        .createIndex('waitlist_session')
        .on('waitlist')
        .columns(['timetable_id', 'status', 'id'])
        .execute();
      await db.schema.createIndex('waitlist_member').on('waitlist').columns(['member_id', 'status']).execute();
      for (const t of ['reservation', 'pending']) {
        if (pg) {
          await sql
            .raw(
              `create function ${t}_leaves_waitlist() returns trigger language plpgsql as $$
              declare n integer;
              begin
                update waitlist set status = 4, end_time = new.create_time
                  where status = 1 and timetable_id = new.timetable_id and member_id = new.member_id;
                get diagnostics n = row_count;
                if n > 0 then
                  update timetable set wait_count = wait_count - n where id = new.timetable_id;
                end if;
                return new;
              end $$`,
            )
            .execute(db);
          await sql
            .raw(
              `create trigger ${t}_leaves_waitlist after insert on ${t} for each row execute function ${t}_leaves_waitlist()`,
            )
            .execute(db);
        } else {
          await sql
            .raw(
              `create trigger ${t}_leaves_waitlist after insert on ${t}
              when exists (select 1 from waitlist where status = 1 and timetable_id = new.timetable_id and member_id = new.member_id)
              begin
                update waitlist set status = 4, end_time = new.create_time
                  where status = 1 and timetable_id = new.timetable_id and member_id = new.member_id;
                update timetable set wait_count = wait_count - 1 where id = new.timetable_id;
              end`,
            )
            .execute(db);
        }
      }
    },
  };
}
