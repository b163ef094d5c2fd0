import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * The desk's 扫码收款 (issue 28): an order the front desk creates for a member records the staff
 * member who took it (`staff_id`; null for the member's own orders), and the store's order list
 * (线上订单) reads a store's orders by the time they were made.
 */
export function deskPayOrder(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('pay_order')
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        .execute();
      await db.schema.createIndex('pay_order_created').on('pay_order').columns(['store_id', 'created_at']).execute();
    },
  };
}
