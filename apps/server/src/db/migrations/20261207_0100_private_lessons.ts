import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 私教 and 小班 (issue 43): lessons booked into teachers' free hours. A lesson type is a course
 * whose `kind` is not 'group'; a booked lesson is a session (timetable row) of that course, written
 * through the schedule's one clash rule, its members booked into it by the booking engine: the
 * teacher, the room and the card are claimed the same way whatever kind of booking claims them.
 * - `course.kind`: 'group' (a group class, the default) | 'one_on_one' (1对1) | 'one_on_two' (1对2)
 *   | 'small_group' (小班); `max_members` (1, 2, or 2-6 for 小班), `min_notice_minutes` (the
 *   least notice to book), `cancel_cutoff_minutes` (cancelling later consumes the lesson) and
 *   `slot_step` (15 or 30: where free start times are offered). `duration` is the lesson's length.
 * - `lesson_teacher`: who gives a type, optionally at a level ('junior' 初级, 'senior' 高级,
 *   'master' 导师); `lesson_price`: a type's price (fen) per level ('' when the type has no levels),
 *   what a 储值卡 pays for one lesson.
 * - `lesson_room`: the rooms (areas) a type may use (none: it needs no room); a lesson claims one.
 * - `equipment`: a store's machines (e.g. 6 reformers), `count` of them; `lesson_equipment`: how
 *   many of a machine one member of a type uses (`per_member`).
 * - `teacher_hours`: a teacher's weekly working hours (weekday 1 = Monday … 7, store-local 'HH:mm');
 *   `teacher_hours_exception`: by date, 'off' (the whole day when start/end are null, else that
 *   span) or 'extra' hours.
 * - `card_product.teacher_id` / `teacher_level`: a lesson pack (私教课包) bound to one teacher or to
 *   a level (null: any).
 * - `timetable.appointment_status`: null for a group class; 'pending' (待确认, until
 *   `confirm_deadline`) or 'confirmed' for a lesson; `outside_reason`: why the desk booked it outside
 *   the offered slots (recorded); `series_id`: the fixed weekly series (固定时段) it belongs to.
 */
export function privateLessons(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('course')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('group'))
        .execute();
      await db.schema
        .alterTable('course')
        .addColumn('max_members', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('course')
        .addColumn('min_notice_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('course')
        .addColumn('cancel_cutoff_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('course')
        .addColumn('slot_step', 'integer', (c) => c.notNull().defaultTo(30))
        .execute();

      await db.schema
        .createTable('lesson_teacher')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id').onDelete('cascade'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('level', 'text')
        .addPrimaryKeyConstraint('lesson_teacher_pk', ['course_id', 'teacher_id'])
        .execute();
      await db.schema.createIndex('lesson_teacher_teacher').on('lesson_teacher').column('teacher_id').execute();

      await db.schema
        .createTable('lesson_price')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id').onDelete('cascade'))
        .addColumn('level', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('price', 'integer', (c) => c.notNull().check(sql`price >= 0`))
        .addPrimaryKeyConstraint('lesson_price_pk', ['course_id', 'level'])
        .execute();

      await db.schema
        .createTable('lesson_room')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', (c) => c.notNull().references('area.id'))
        .addPrimaryKeyConstraint('lesson_room_pk', ['course_id', 'area_id'])
        .execute();

      await db.schema
        .createTable('equipment')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 1`))
        .addColumn('area_id', 'integer', (c) => c.references('area.id'))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('equipment_store').on('equipment').column('store_id').execute();

      await db.schema
        .createTable('lesson_equipment')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id').onDelete('cascade'))
        .addColumn('equipment_id', 'integer', (c) => c.notNull().references('equipment.id'))
        .addColumn('per_member', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(1)
            .check(sql`per_member >= 1`),
        )
        .addPrimaryKeyConstraint('lesson_equipment_pk', ['course_id', 'equipment_id'])
        .execute();

      await db.schema
        .createTable('teacher_hours')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('weekday', 'integer', (c) => c.notNull().check(sql`weekday between 1 and 7`))
        .addColumn('start_time', 'text', (c) => c.notNull())
        .addColumn('end_time', 'text', (c) => c.notNull())
        .addCheckConstraint('teacher_hours_span_ck', sql`start_time < end_time`)
        .execute();
      await db.schema
        .createIndex('teacher_hours_teacher')
        .on('teacher_hours')
        .columns(['teacher_id', 'weekday'])
        .execute();

      await db.schema
        .createTable('teacher_hours_exception')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('date', 'text', (c) => c.notNull())
        /** off | extra */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('start_time', 'text')
        .addColumn('end_time', 'text')
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('teacher_hours_exception_date')
        .on('teacher_hours_exception')
        .columns(['teacher_id', 'date'])
        .execute();

      await db.schema.alterTable('card_product').addColumn('teacher_id', 'integer').execute();
      await db.schema.alterTable('card_product').addColumn('teacher_level', 'text').execute();

      await db.schema.alterTable('timetable').addColumn('appointment_status', 'text').execute();
      await db.schema.alterTable('timetable').addColumn('confirm_deadline', 'text').execute();
      await db.schema.alterTable('timetable').addColumn('outside_reason', 'text').execute();
      await db.schema.alterTable('timetable').addColumn('series_id', 'integer').execute();
      await db.schema
        .createIndex('timetable_area_start')
        .ifNotExists()
        .on('timetable')
        .columns(['area_id', 'start_time'])
        .execute();
    },
  };
}
