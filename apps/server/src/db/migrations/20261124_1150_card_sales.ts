import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Card sales (issue 15): a product's default balance for the issue form (`total_count`, a count or
 * fen; `valid_days` exists since init), a card refunded whole (`member_card.refunded_at`: it books
 * nothing and takes no top-up afterwards), and a top-up refunded at most once (`card_payment.refund_of`,
 * the ledger id of the top-up, unique).
 */
export function cardSales(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('card_product')
        .addColumn('total_count', pg ? 'bigint' : 'integer')
        .execute();
      await db.schema.alterTable('member_card').addColumn('refunded_at', 'text').execute();
      await db.schema
        .alterTable('card_payment')
        .addColumn('refund_of', 'integer', (c) => c.references('card_ledger.id'))
        .execute();
      await db.schema.createIndex('card_payment_refund_of').on('card_payment').column('refund_of').unique().execute();
    },
  };
}
