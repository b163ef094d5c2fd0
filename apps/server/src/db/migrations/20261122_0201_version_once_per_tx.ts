import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * PostgreSQL: the data-version trigger of migration 0200 bumps the store's row once per
 * transaction instead of once per written row. Updating one row thousands of times in one
 * transaction (a batch of sessions) makes PostgreSQL walk an ever longer chain of row versions;
 * one bump per transaction is all the calendar cache needs, since the transaction's writes commit
 * together. The mark is a transaction-local setting, undone with the savepoint or transaction that
 * set it. SQLite keeps its per-row triggers (cheap there): nothing to do.
 */
export function versionOncePerTx(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`create or replace function store_version_bump() returns trigger language plpgsql as $$
        declare
          sid integer := case when tg_op = 'DELETE' then old.store_id else new.store_id end;
          mark text := 'studio.version_bumped_' || sid;
        begin
          if coalesce(current_setting(mark, true), '') = '' then
            update store_version set version = version + 1 where store_id = sid;
            perform set_config(mark, '1', true);
          end if;
          return null;
        end $$`.execute(db);
    },
  };
}
