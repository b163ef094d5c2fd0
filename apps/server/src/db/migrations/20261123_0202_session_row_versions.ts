import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * PostgreSQL: the calendar's data version no longer serialises the writers of a store. Until now
 * every write to a session bumped the store's one `store_version` row (trigger of migration 0200),
 * so all bookings of a store queued on that row lock. Now each session row carries its own
 * `version`, set from a sequence on insert and on every update (so every state of every row has a
 * value never used before); the calendar cache compares a fingerprint of the versions of the
 * sessions in its date range (db/data-version.ts), read over an index. Writes of different
 * sessions then lock nothing in common. A hard delete of a session (rare: only with its store)
 * still bumps `store_version`, as writes to teachers, areas, courses and materials do.
 * SQLite keeps its per-row triggers on `store_version`: one writer at a time there anyway.
 */
export function sessionRowVersions(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`create sequence timetable_version_seq`.execute(db);
      await sql`alter table timetable add column version bigint not null default nextval('timetable_version_seq')`.execute(
        db,
      );
      await sql`create function timetable_version_next() returns trigger language plpgsql as $$
        begin new.version := nextval('timetable_version_seq'); return new; end $$`.execute(db);
      await sql`create trigger timetable_version_next before update on timetable for each row execute function timetable_version_next()`.execute(
        db,
      );
      await sql`drop trigger timetable_version on timetable`.execute(db);
      await sql`create trigger timetable_version_del after delete on timetable for each row execute function store_version_bump()`.execute(
        db,
      );
      await sql`create index timetable_store_start_version on timetable (store_id, start_time) include (version)`.execute(
        db,
      );
    },
  };
}
