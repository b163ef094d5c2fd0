import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 营销短信发送记录 (issue 44, item 7):
 * - `marketing_send`: one row a send: who (staff), when (store-local), the text, the audience chosen
 *   (members, leads, lead stages as JSON) and its counts at sending time (recipients, members, leads,
 *   excluded). `dedupe_key` (a hash of the text and the audience) is unique per store
 *   (`marketing_send_key_uq`): the same text to the same audience twice at once (two clicks, two tabs,
 *   two instances) writes one send; a send older than the repeat window has its key retired (suffixed
 *   with its id) before the same text may go again.
 * - `marketing_send_text`: the outbox row of each recipient's text (`outbox_id`), so the history counts
 *   sent, failed and withdrawn-since from the outbox.
 */
export function marketingSend(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('marketing_send')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('to_members', 'integer', (c) => c.notNull())
        .addColumn('to_leads', 'integer', (c) => c.notNull())
        .addColumn('lead_stages', 'text', (c) => c.notNull())
        .addColumn('recipients', 'integer', (c) => c.notNull())
        .addColumn('members', 'integer', (c) => c.notNull())
        .addColumn('leads', 'integer', (c) => c.notNull())
        .addColumn('excluded', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('marketing_send_key_uq', ['store_id', 'dedupe_key'])
        .execute();
      await db.schema.createIndex('marketing_send_store').on('marketing_send').columns(['store_id', 'id']).execute();
      await db.schema
        .createTable('marketing_send_text')
        .addColumn('send_id', 'integer', (c) => c.notNull().references('marketing_send.id'))
        .addColumn('outbox_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('marketing_send_text_pk', ['send_id', 'outbox_id'])
        .execute();
    },
  };
}
