import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * A seller's own link (issue 30, item 4): `seller_link` gives a staff member of a store a code the
 * members' page carries (`/m/?store=..&seller=<code>`); an order a member makes after opening it
 * names the seller (`pay_order.seller_id`), whose sales commission then counts it.
 */
export function sellerLink(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('seller_link')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('seller_link_pk', ['store_id', 'staff_id'])
        .execute();
      await db.schema
        .alterTable('pay_order')
        .addColumn('seller_id', 'integer', (c) => c.references('staff.id'))
        .execute();
    },
  };
}
