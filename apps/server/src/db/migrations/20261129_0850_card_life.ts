import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * A card's life (issue 29, items 1 to 5), all columns at once:
 *
 * - `card_product`: how a card starts (`activation`: 'sale' 售卡即开卡, 'first_class' 首次上课开卡 (at most
 *   `activate_within_days` after the sale, then it starts anyway), 'date' 指定日期开卡 on `activation_date`);
 *   leave (`leave_allowed` 0/1, `leave_times` per card, `leave_days_max` per leave, `leave_days_total`
 *   per card; null: no limit); caps (`max_per_day`, `max_per_week` classes; null: no cap); the refund
 *   rule after the cooling-off days (`refund_fee_percent` 0-100 of the amount paid).
 * - `member_card`: `activate_time` (store-local; null until it starts), `valid_days` (the validity the
 *   card was sold with: the product's, or the desk's own expiry date counted from the start; null for a
 *   card that never expires), `leave_days` (days of leave taken, net of days given back), `leave_periods`
 *   (JSON `[[from, to], ...]` of its approved leaves, kept by the leave service so that the booking
 *   rules read them with the card, no join), `transferred_at` (set by a transfer, item 5).
 *   Expiry = end of day (activation date + valid_days + leave_days).
 * - `card_leave`: one row per leave (status pending / approved / refused / ended (ended early on
 *   `ended_date`, the last day of leave) / cancelled; `days` the days it holds now).
 *
 * The store settings (cooling-off days, leave approval) are key/value rows of `store_setting`.
 * Existing cards count as started when they were sold, with the validity their expiry gives.
 */
export function cardLife(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      const product: [string, 'text' | 'integer', string | number | null][] = [
        ['activation', 'text', 'sale'],
        ['activation_date', 'text', null],
        ['activate_within_days', 'integer', 30],
        ['leave_allowed', 'integer', 0],
        ['leave_times', 'integer', null],
        ['leave_days_max', 'integer', null],
        ['leave_days_total', 'integer', null],
        ['max_per_day', 'integer', null],
        ['max_per_week', 'integer', null],
        ['refund_fee_percent', 'integer', 0],
      ];
      for (const [name, type, def] of product) {
        await db.schema
          .alterTable('card_product')
          .addColumn(name, type, (c) => (def === null ? c : c.notNull().defaultTo(def)))
          .execute();
      }
      const card: [string, 'text' | 'integer', string | number | null][] = [
        ['activate_time', 'text', null],
        ['valid_days', 'integer', null],
        ['leave_days', 'integer', 0],
        ['leave_periods', 'text', '[]'],
        ['transferred_at', 'text', null],
      ];
      for (const [name, type, def] of card) {
        await db.schema
          .alterTable('member_card')
          .addColumn(name, type, (c) => (def === null ? c : c.notNull().defaultTo(def)))
          .execute();
      }
      const day = (col: string) => sql.raw(`substr(${col}, 1, 10)`);
      const since = pg
        ? sql`(${day('expire_time')}::date - ${day('coalesce(start_time, created_at)')}::date)`
        : sql`cast(julianday(${day('expire_time')}) - julianday(${day('coalesce(start_time, created_at)')}) as integer)`;
      await sql`update member_card set activate_time = coalesce(start_time, created_at),
        valid_days = case when expire_time is null then null else ${since} end`.execute(db);
      await db.schema
        .createTable('card_leave')
        .$call((tb) =>
          pg
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        /** `YYYY-MM-DD`, both days of leave. */
        .addColumn('from_date', 'text', (c) => c.notNull())
        .addColumn('to_date', 'text', (c) => c.notNull())
        /** Days of leave it holds: to - from + 1, or up to `ended_date` once ended early. */
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        /** pending | approved | refused | ended | cancelled */
        .addColumn('status', 'text', (c) => c.notNull())
        /** member | staff */
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('ended_date', 'text')
        /** Store-local wall times, as every time of the store. */
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'integer', (c) => c.references('staff.id'))
        .addColumn('decide_remark', 'text')
        .addColumn('ended_at', 'text')
        .addColumn('ended_by', 'integer', (c) => c.references('staff.id'))
        .execute();
      await db.schema.createIndex('card_leave_card').on('card_leave').columns(['member_card_id', 'status']).execute();
      await db.schema.createIndex('card_leave_store').on('card_leave').columns(['store_id', 'status']).execute();
    },
  };
}
