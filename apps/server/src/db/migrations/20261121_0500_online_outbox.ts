import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Online classroom and outbox additions:
 * - outbox.dead_at: set when the worker gives up on a row (its last error stays in last_error), so
 *   that a row given up on no longer holds back the later rows of its order key;
 * - an index for the worker's "no earlier unsent row of the same order key" check;
 * - a trigger that queues the creation of an on-demand room (is_online 1, no meeting yet) in the
 *   same transaction as the write that gives the session its first booked seat. It sits on the
 *   table so that every path that books (the engine, the bulk batch paths, copy with pendings)
 *   queues it without knowing about online rooms.
 */
export function onlineOutbox(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('outbox')
        .addColumn('dead_at', pg ? 'bigint' : 'integer')
        .execute();
      await db.schema.createIndex('outbox_order').on('outbox').columns(['order_key', 'id']).execute();

      if (pg) {
        await sql`create function timetable_meeting_on_demand() returns trigger language plpgsql as $$
          begin
            if new.is_online = 1 and new.meeting_info is null and new.deleted = 0 and new.real_count > 0
               and (tg_op = 'INSERT' or old.real_count = 0) then
              insert into outbox (store_id, topic, order_key, payload, created_at, next_attempt_at, attempts)
              values (new.store_id, 'meeting.create', 'meeting:' || new.id,
                      json_build_object('timetableId', new.id)::text,
                      (extract(epoch from clock_timestamp()) * 1000)::bigint,
                      (extract(epoch from clock_timestamp()) * 1000)::bigint, 0);
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger timetable_meeting_on_demand after insert or update of real_count on timetable
          for each row execute function timetable_meeting_on_demand()`.execute(db);
      } else {
        const now = `cast(round((julianday('now') - 2440587.5) * 86400000) as integer)`;
        const insert = `insert into outbox (store_id, topic, order_key, payload, created_at, next_attempt_at, attempts)
          values (new.store_id, 'meeting.create', 'meeting:' || new.id, json_object('timetableId', new.id), ${now}, ${now}, 0);`;
        await sql
          .raw(
            `create trigger timetable_meeting_on_demand_ins after insert on timetable
             when new.is_online = 1 and new.meeting_info is null and new.deleted = 0 and new.real_count > 0
             begin ${insert} end`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger timetable_meeting_on_demand_upd after update of real_count on timetable
             when new.is_online = 1 and new.meeting_info is null and new.deleted = 0
               and old.real_count = 0 and new.real_count > 0
             begin ${insert} end`,
          )
          .execute(db);
      }
    },
  };
}
