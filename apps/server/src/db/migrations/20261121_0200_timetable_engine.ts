import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** Tables whose writes change what the schedule calendar shows. */
const WATCHED = ['timetable', 'teacher', 'area', 'course', 'material'] as const;

/**
 * The booking engine's additions: a per-store data version (bumped by triggers on every write that
 * changes the calendar, read by the calendar cache of every app instance), and unique indexes that
 * stop one member from holding two live bookings of one session even under concurrent requests.
 */
export function timetableEngine(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('store_version')
        .addColumn('store_id', 'integer', (c) => c.primaryKey().references('store.id').onDelete('cascade'))
        .addColumn('version', pg ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into store_version (store_id, version) select id, 0 from store`.execute(db);

      if (pg) {
        await sql`create function store_version_new() returns trigger language plpgsql as $$
          begin insert into store_version (store_id, version) values (new.id, 0) on conflict do nothing; return new; end $$`.execute(
          db,
        );
        await sql`create trigger store_version_new after insert on store for each row execute function store_version_new()`.execute(
          db,
        );
        await sql`create function store_version_bump() returns trigger language plpgsql as $$
          begin
            update store_version set version = version + 1
              where store_id = (case when tg_op = 'DELETE' then old.store_id else new.store_id end);
            return null;
          end $$`.execute(db);
        for (const t of WATCHED) {
          await sql
            .raw(
              `create trigger ${t}_version after insert or update or delete on ${t} for each row execute function store_version_bump()`,
            )
            .execute(db);
        }
      } else {
        await sql`create trigger store_version_new after insert on store begin
          insert or ignore into store_version (store_id, version) values (new.id, 0); end`.execute(db);
        for (const t of WATCHED) {
          await sql
            .raw(
              `create trigger ${t}_version_ins after insert on ${t} begin
                 update store_version set version = version + 1 where store_id = new.store_id; end`,
            )
            .execute(db);
          await sql
            .raw(
              `create trigger ${t}_version_upd after update on ${t} begin
                 update store_version set version = version + 1 where store_id = new.store_id; end`,
            )
            .execute(db);
          await sql
            .raw(
              `create trigger ${t}_version_del after delete on ${t} begin
                 update store_version set version = version + 1 where store_id = old.store_id; end`,
            )
            .execute(db);
        }
      }

      await sql`create unique index reservation_live_member_uq on reservation (timetable_id, member_id) where status in (1, 2)`.execute(
        db,
      );
      await sql`create unique index pending_live_member_uq on pending (timetable_id, member_id) where status in (1, 2)`.execute(
        db,
      );
    },
  };
}
