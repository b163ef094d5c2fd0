import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Refunds of online orders through the provider (issue 28, item 5): one row per refund request
 * (`pay_refund`: status 0 退款中, 1 已退款, 2 退款失败). The card change it made (`ledger_id`: the
 * 退卡 or 充值退回 entry) and, once the provider refused, the entry putting it back (`undo_ledger_id`).
 * The refund number is what the provider knows (the same number again is the same refund there).
 */
export function payRefund(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('pay_refund')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('refund_no', 'text', (c) => c.notNull().unique())
        .addColumn('pay_order_id', 'integer', (c) => c.notNull().references('pay_order.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        /** Fen paid back. */
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        /** Store-local wall time, as every time of the store. */
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('settled_at', 'text')
        .addColumn('provider_refund_id', 'text')
        .addColumn('fail_reason', 'text')
        .addColumn('ledger_id', 'integer', (c) => c.notNull().references('card_ledger.id'))
        .addColumn('undo_ledger_id', 'integer', (c) => c.references('card_ledger.id'))
        .execute();
      await db.schema.createIndex('pay_refund_order').on('pay_refund').columns(['pay_order_id']).execute();
      await db.schema.createIndex('pay_refund_open').on('pay_refund').columns(['status', 'created_at']).execute();
    },
  };
}
