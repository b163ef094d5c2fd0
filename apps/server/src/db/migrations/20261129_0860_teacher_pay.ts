import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * Teacher pay (课时费) and sales commission (销售提成), issue 30 items 1-4:
 * - `teacher_pay_rule`: a teacher's rule from a date on, for one course or (course null) all; one
 *   rule per teacher, course and start date (the unique index reads a missing course as 0);
 * - `teacher_pay_adjustment`: an amount (fen, either sign) and its reason, under a month's statement;
 * - `pay_month_close`: a closed month of a store, per kind ('teacher' or 'commission'), with the
 *   statement as it was closed (JSON): a closed month is answered from it and never recomputed;
 *   reopening deletes the row (the audit log keeps who, when and why);
 * - `sales_commission_rate`: a staff member's commission, in hundredths of a percent.
 */
export function teacherPay(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('teacher_pay_rule')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('course_id', 'integer', (c) => c.references('course.id'))
        /** per_class | per_head_came | per_head_booked | tiered */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        /** JSON [{minHeads, amount}] for 'tiered', ascending; null otherwise. */
        .addColumn('tiers', 'text')
        /** Which heads the tiers count: came | booked. */
        .addColumn('heads', 'text', (c) => c.notNull().defaultTo('came'))
        .addColumn('minimum', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('from_date', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await sql`create unique index teacher_pay_rule_key on teacher_pay_rule (store_id, teacher_id, coalesce(course_id, 0), from_date)`.execute(
        db,
      );

      await db.schema
        .createTable('teacher_pay_adjustment')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('teacher_pay_adjustment_month')
        .on('teacher_pay_adjustment')
        .columns(['store_id', 'month'])
        .execute();

      await db.schema
        .createTable('pay_month_close')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        /** teacher | commission */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('closed_by', 'integer', (c) => c.references('staff.id'))
        .addColumn('closed_by_name', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text', (c) => c.notNull())
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('pay_month_close_pk', ['store_id', 'kind', 'month'])
        .execute();

      await db.schema
        .createTable('sales_commission_rate')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        /** Hundredths of a percent: 550 = 5.5 %. */
        .addColumn('rate_bp', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sales_commission_rate_pk', ['store_id', 'staff_id'])
        .execute();
    },
  };
}
