import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Money received at the desk for card sales and top-ups, and paid back for card refunds (records of
 * payments, not payment processing; domain.md "Money received"). `amount` is fen, always positive;
 * `kind` says which way it went. Also: the once-a-day job claims (`daily_job`) and an index for
 * reports that sum a range's deductions by session.
 */
export function cardPayment(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('card_payment')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('ledger_id', 'integer', (c) => c.references('card_ledger.id'))
        /** sale | topup | refund */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', pg ? 'bigint' : 'integer', (c) => c.notNull())
        /** cash | wechat | alipay | card | other */
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer')
        .addColumn('remark', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Jobs that run once a day per store on whichever instance gets there first (the digest of
      // card alerts): the key is claimed by inserting it.
      await db.schema
        .createTable('daily_job')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('created_at', pg ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('daily_job_pk', ['store_id', 'kind', 'date'])
        .execute();
      await db.schema
        .createIndex('card_payment_store_at')
        .on('card_payment')
        .columns(['store_id', 'created_at'])
        .execute();
      await db.schema.createIndex('card_payment_card').on('card_payment').column('member_card_id').execute();
      await db.schema
        .createIndex('card_ledger_timetable')
        .on('card_ledger')
        .columns(['timetable_id', 'kind'])
        .execute();
    },
  };
}
