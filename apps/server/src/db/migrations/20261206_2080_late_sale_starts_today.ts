import type { Kysely } from 'kysely';

/**
 * A card starts when it starts (issue 42, item 6): `card_product.late_sale_starts_today` (0/1) is
 * the manager's choice on a 指定日期开卡 product for a sale after its day has passed: 1, the card
 * starts on the day of sale (and the product is still sold online); 0 (default), the card keeps the
 * product's day and the product is not sold online once that day has passed.
 */
export function lateSaleStartsToday() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('card_product')
        .addColumn('late_sale_starts_today', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
