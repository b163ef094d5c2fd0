import { sql, type Kysely } from 'kysely';

/**
 * Teacher pay for 私教 and 小班 (issue 43, item 7): a pay rule may be for every lesson type of its
 * teacher (`lessons` 1 with no course: 全部私教/小班) and, for lessons, for one teacher level only
 * (`level` junior | senior | master; null: any level). One rule per teacher, course, lessons scope,
 * level and start date: the unique index reads a missing course as 0 and a missing level as ''.
 * And a seller's commission may pay on conversions (issue 44, item 4): `per_conversion` fen for
 * each lead (潜客) of theirs converted (已成交), besides the rate on money received.
 */
export function lessonPayRules() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('teacher_pay_rule')
        .addColumn('lessons', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('teacher_pay_rule').addColumn('level', 'text').execute();
      await db.schema.dropIndex('teacher_pay_rule_key').execute();
      await sql`create unique index teacher_pay_rule_key on teacher_pay_rule (store_id, teacher_id, coalesce(course_id, 0), lessons, coalesce(level, ''), from_date)`.execute(
        db,
      );
      await db.schema
        .alterTable('sales_commission_rate')
        .addColumn('per_conversion', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
