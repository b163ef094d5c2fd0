import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Calendar feeds (issue 29): a private iCalendar address per member and per teacher. The token is
 * the whole secret of the address (a phone's calendar app cannot log in); a reset replaces it, and
 * the old address answers 404 from then on.
 */
export function calendarFeed(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('calendar_feed')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('calendar_feed_owner')
        .on('calendar_feed')
        .columns(['store_id', 'owner', 'owner_id'])
        .unique()
        .execute();
    },
  };
}
