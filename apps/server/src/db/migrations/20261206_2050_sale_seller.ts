import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Whoever sold it earns it (issue 42, item 12): `card_payment.seller_id` is the staff member the
 * desk named as 销售员 of a sale or top-up (by default who took it), or whom a manager named later;
 * the sales commission counts them. Null on older rows: the commission falls back to who took it
 * (`staff_id`) or to the online order's seller. The desk's 扫码收款 names its seller in the order's
 * `seller_id` (migration 20261129_1000).
 */
export function saleSeller(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('card_payment')
        .addColumn('seller_id', 'integer', (c) => c.references('staff.id'))
        .execute();
    },
  };
}
