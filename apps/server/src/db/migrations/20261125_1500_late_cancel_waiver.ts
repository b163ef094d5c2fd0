import { sql, type Kysely } from 'kysely';

/**
 * Late cancels that kept their deduction (迟到取消, issue 13) become waivable by staff like no-shows:
 * `reservation.forfeited` 1 marks such a cancel (set from history type 5 for the existing ones), and
 * `waived_time`/`waive_reason` record the waiver that refunded it (once: a guarded UPDATE on
 * `waived_time`).
 */
export function lateCancelWaiver() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('reservation')
        .addColumn('forfeited', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('reservation').addColumn('waived_time', 'text').execute();
      await db.schema.alterTable('reservation').addColumn('waive_reason', 'text').execute();
      await sql`update reservation set forfeited = 1 where id in (select reservation_id from history where operate_type = 5 and reservation_id is not null)`.execute(
        db,
      );
    },
  };
}
