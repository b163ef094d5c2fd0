import type { Kysely } from 'kysely';

/**
 * The refund-settling job asks with backoff (issue 42, item 2): `queries` counts the provider's
 * answers that left a refund open, `next_query_at` (store-local wall time, like `created_at`) is
 * when the job may ask again. A refund is settled only by the provider's final word, so an open one
 * is asked about until it has one: every minute at first, then less and less often (at most every
 * 30 minutes), as WeChat Pay's 查询单笔退款 recommends.
 */
export function refundQueries() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('pay_refund')
        .addColumn('queries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('pay_refund').addColumn('next_query_at', 'text').execute();
    },
  };
}
