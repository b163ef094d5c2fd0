import type { Kysely } from 'kysely';

/**
 * Failed reminders tried again (issue 29 item 8): `notify_log.tries` counts the sends tried for a
 * message. A send that failed for a passing reason (network, the provider's 5xx or system busy, its
 * throttling) puts the row back to queued with `due_at` moved by the backoff, so the one guarded
 * claim (queued and due → sending) takes it again on exactly one instance; `reason` keeps the last
 * failure. At the last try, or for a lasting reason, it ends failed.
 */
export function notifyRetry() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('notify_log')
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
