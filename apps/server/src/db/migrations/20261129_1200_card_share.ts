import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Shared family cards (多人共享, issue 29 item 6):
 *
 * - `card_product.share_max`: how many members besides the holder may book on a card of the product
 *   (0: not shared).
 * - `card_share`: one row per member a card names (the holder manages the list at the desk);
 *   `member_card.shared_with` keeps the same members as a JSON `[id, ...]`, written with the rows,
 *   so that the booking rules read who may book on the card with the card, no join (as
 *   `leave_periods` does for leaves).
 * - `card_ledger.member_id`: who booked (or was charged for) the class a charge, refund or no-show is
 *   for: every charge says who booked; null on entries that no booking made (sale, top-up, notes).
 */
export function cardShare(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('card_product')
        .addColumn('share_max', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('member_card')
        .addColumn('shared_with', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('card_ledger')
        .addColumn('member_id', 'integer', (c) => c.references('member.id'))
        .execute();
      await db.schema
        .createTable('card_share')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('operator_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('card_share_card_member', ['member_card_id', 'member_id'])
        .execute();
      await db.schema.createIndex('card_share_member').on('card_share').columns(['store_id', 'member_id']).execute();
    },
  };
}
