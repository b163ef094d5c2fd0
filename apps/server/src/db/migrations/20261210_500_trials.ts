import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 体验课 (issue 44, item 3): a lead booked into a class without a card.
 * - `lead_trial`: the lead's seat in a session (`timetable_id`), taken through the sessions' one seat
 *   guard (`real_count`), nothing charged. `status` 1 booked, 2 attended (到店: keeps its seat), 3
 *   cancelled (seat freed). `stage_before`: the lead's stage when booked (a cancel puts it back);
 *   `teacher_id`: the session's teacher when the attendance was marked (the funnel's trial teacher).
 *   One booked trial per lead at a time (`lead_trial_live_uq`).
 * - `lead.trial_teacher_id`: the teacher of the lead's attended trial (转化漏斗 按体验老师).
 */
export function trials(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('lead_trial')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('lead.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id'))
        .addColumn('status', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(1)
            .check(sql`status in (1, 2, 3)`),
        )
        .addColumn('stage_before', 'text', (c) => c.notNull())
        .addColumn('teacher_id', 'integer', (c) => c.references('teacher.id'))
        .addColumn('operator_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('create_time', 'text', (c) => c.notNull())
        .addColumn('attended_time', 'text')
        .addColumn('cancel_time', 'text')
        .addCheckConstraint('lead_trial_attended_ck', sql`(status = 2) = (attended_time is not null)`)
        .execute();
      await sql`create unique index lead_trial_live_uq on lead_trial (lead_id) where status = 1`.execute(db);
      await db.schema.createIndex('lead_trial_session').on('lead_trial').columns(['timetable_id', 'status']).execute();
      await db.schema
        .alterTable('lead')
        .addColumn('trial_teacher_id', 'integer', (c) => c.references('teacher.id'))
        .execute();
    },
  };
}
