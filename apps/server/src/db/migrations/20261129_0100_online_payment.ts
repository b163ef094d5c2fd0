import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Online payment (issue 28, step 2): card products sold online (`online_sale`, `online_price` fen,
 * `trial` 体验卡 sold once per member); the store's provider settings (`pay_setting`, secrets kept here
 * and never answered); orders (`pay_order`: status 0 待支付, 1 已支付, 2 已关闭, 3 已退款, 4 部分退款);
 * and card payments say whether the desk or an online order took the money (`channel`, `pay_order_id`,
 * unique per order for the sale or top-up it paid: a paid order fulfils once, whatever runs twice).
 */
export function onlinePayment(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const [name, def] of [
        ['online_sale', 0],
        ['online_price', 0],
        ['trial', 0],
      ] as const) {
        await db.schema
          .alterTable('card_product')
          .addColumn(name, 'integer', (c) => c.notNull().defaultTo(def))
          .execute();
      }
      await db.schema
        .createTable('pay_setting')
        .addColumn('store_id', 'integer', (c) => c.primaryKey().references('store.id'))
        /** JSON: mchid, appid, serial, keys, addresses (secrets inside, never answered). */
        .addColumn('wechat', 'text')
        .addColumn('alipay', 'text')
        /** JSON array of fen. */
        .addColumn('topup_amounts', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('pay_order')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        /** card (a product sold) | topup (of member_card_id) */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('product_id', 'integer', (c) => c.references('card_product.id'))
        /** The card topped up, or (once paid) the card issued. */
        .addColumn('member_card_id', 'integer', (c) => c.references('member_card.id'))
        .addColumn('trial', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        /** wechat_jsapi | wechat_native | alipay_wap | alipay_precreate */
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        /** Store-local wall time, as every time of the store. */
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expire_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('closed_at', 'text')
        .addColumn('provider_trade_id', 'text')
        .execute();
      await db.schema.createIndex('pay_order_member').on('pay_order').columns(['store_id', 'member_id']).execute();
      await db.schema.createIndex('pay_order_open').on('pay_order').columns(['status', 'expire_at']).execute();
      await db.schema
        .alterTable('card_payment')
        .addColumn('channel', 'text', (c) => c.notNull().defaultTo('desk'))
        .execute();
      await db.schema
        .alterTable('card_payment')
        .addColumn('pay_order_id', 'integer', (c) => c.references('pay_order.id'))
        .execute();
      await sql`create unique index card_payment_pay_order on card_payment (pay_order_id) where pay_order_id is not null and kind <> 'refund'`.execute(
        db,
      );
    },
  };
}
