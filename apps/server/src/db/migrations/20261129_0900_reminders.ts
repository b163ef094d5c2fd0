import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Reminders to members (issue 29 items 7-9):
 * - `notify_log`: one row per message (a reminder of one event to one member), unique by store and
 *   `dedupe_key` (`class_reminder:<session>:<member>`, `promoted:<wait>`...): whatever the number of
 *   instances, an event makes one row and the row is sent once (claimed queued → sending by a
 *   guarded update). `status` queued | sending | sent | failed | skipped; `channel` wechat | sms |
 *   null (none); `reason` why it failed or was skipped; times store-local text; `payload` JSON
 *   (the template's variables and what the message is about).
 * - `notify_pref`: a member's switched-off kinds (a row with off = 1).
 * - `member.wechat_openid`: the member's openid under the store's service account (bound after
 *   sign-in from WeChat's web authorisation, snsapi_base).
 * - `wechat_token`: the service account's access token, one row per AppID shared by every instance;
 *   `refreshing_until` (epoch ms) guards the refresh so one instance fetches a new token at a time.
 */
export function reminders(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const big = pg ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('notify_log')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        /** null: a 发送测试 message. */
        .addColumn('member_id', 'integer', (c) => c.references('member.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('channel', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        /** Epoch ms: a row 'sending' past this is taken again (an instance died mid-send). */
        .addColumn('lease_until', big)
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notify_log_dedupe')
        .on('notify_log')
        .columns(['store_id', 'dedupe_key'])
        .unique()
        .execute();
      await db.schema.createIndex('notify_log_due').on('notify_log').columns(['status', 'due_at']).execute();
      await db.schema.createIndex('notify_log_store_due').on('notify_log').columns(['store_id', 'due_at']).execute();

      await db.schema
        .createTable('notify_pref')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('off', 'integer', (c) => c.notNull().defaultTo(1))
        .addPrimaryKeyConstraint('notify_pref_pk', ['member_id', 'kind'])
        .execute();

      await db.schema.alterTable('member').addColumn('wechat_openid', 'text').execute();

      await db.schema
        .createTable('wechat_token')
        .addColumn('app_id', 'text', (c) => c.primaryKey())
        .addColumn('access_token', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('expires_at', big, (c) => c.notNull().defaultTo(0))
        .addColumn('refreshing_until', big, (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
