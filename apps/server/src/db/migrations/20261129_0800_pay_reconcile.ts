import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Reconciliation of online payments (issue 28, item 6): one row per store, provider and bill day,
 * the last run's result (`result`: JSON of the matched count and the differences). `status`:
 * 'running' while an instance works on it (claimed by the insert or a guarded update), 'done', or
 * 'failed' (`error` says why, e.g. the provider had no bill yet).
 */
export function payReconcile(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('pay_reconcile')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('bill_date', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('matched', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('differences', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addUniqueConstraint('pay_reconcile_day', ['store_id', 'provider', 'bill_date'])
        .execute();
    },
  };
}
