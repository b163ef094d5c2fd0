import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** The first schema of the product: every table of design/domain.md. */
export function init(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const withId = <T extends string>(tb: CreateTableBuilder<T, any>) =>
    pg
      ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
      : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const big = pg ? 'bigint' : 'integer';
  const blob = pg ? 'bytea' : 'blob';
  const ageCols = <T extends string>(tb: CreateTableBuilder<T, any>) =>
    tb
      .addColumn('gender_limit', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('age_limit', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('syear', 'integer')
      .addColumn('smonth', 'integer')
      .addColumn('sday', 'integer')
      .addColumn('eyear', 'integer')
      .addColumn('emonth', 'integer')
      .addColumn('eday', 'integer');

  return {
    async up(db: Kysely<any>): Promise<void> {
      await withId(db.schema.createTable('store'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('Asia/Shanghai'))
        .addColumn('logo_file_id', 'integer')
        .addColumn('qr_code', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('staff'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('mobile', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('post'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
        .addUniqueConstraint('post_staff_store_uq', ['staff_id', 'store_id'])
        .execute();

      await db.schema
        .createTable('http_session')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('login_failure'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failure_key_at').on('login_failure').columns(['key', 'at']).execute();

      await db.schema
        .createTable('store_module')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id').onDelete('cascade'))
        .addColumn('module_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('store_module_pk', ['store_id', 'module_id'])
        .execute();

      await db.schema
        .createTable('store_setting')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('store_setting_pk', ['store_id', 'key'])
        .execute();

      await withId(db.schema.createTable('store_file'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('area'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('parent_id', 'integer', (c) => c.references('area.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('area_store').on('area').columns(['store_id', 'parent_id']).execute();

      await withId(db.schema.createTable('teacher'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text')
        .addColumn('meeting_type', 'integer')
        .addColumn('meeting_code', 'text')
        .addColumn('join_url', 'text')
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('teacher_store').on('teacher').column('store_id').execute();

      await withId(db.schema.createTable('card_product'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('card_name', 'text', (c) => c.notNull())
        .addColumn('big_type', 'integer', (c) => c.notNull())
        .addColumn('card_type', 'integer', (c) => c.notNull())
        .addColumn('per_count', 'integer', (c) => c.notNull().check(sql`per_count >= 0`))
        .addColumn('price', big, (c) => c.notNull().defaultTo(0))
        .addColumn('valid_days', 'integer')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('card_product_store').on('card_product').column('store_id').execute();

      await ageCols(
        withId(db.schema.createTable('course'))
          .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 0`))
          .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(60))
          .addColumn('color', 'text', (c) => c.notNull().defaultTo('#1677ff'))
          .addColumn('description', 'text')
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await db.schema.createIndex('course_store').on('course').column('store_id').execute();

      await db.schema
        .createTable('course_card')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id').onDelete('cascade'))
        .addColumn('card_id', 'integer', (c) => c.notNull().references('card_product.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('course_card_pk', ['course_id', 'card_id'])
        .execute();

      await withId(db.schema.createTable('material'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('parent_id', 'integer', (c) => c.references('material.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('material_store').on('material').columns(['store_id', 'parent_id']).execute();

      await withId(db.schema.createTable('member'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('gender', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('birthday', 'text')
        .addColumn('remark', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('member_store_mobile_uq', ['store_id', 'mobile'])
        .execute();
      await db.schema.createIndex('member_store_name').on('member').columns(['store_id', 'name']).execute();

      await withId(db.schema.createTable('member_card'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('card_id', 'integer', (c) => c.notNull().references('card_product.id'))
        .addColumn('total_count', big, (c) => c.notNull())
        .addColumn('used_count', big, (c) => c.notNull().defaultTo(0))
        .addColumn('start_time', 'text')
        .addColumn('expire_time', 'text')
        .addColumn('frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('member_card_balance_ck', sql`used_count >= 0 and used_count <= total_count`)
        .execute();
      await db.schema.createIndex('member_card_member').on('member_card').columns(['store_id', 'member_id']).execute();

      await withId(db.schema.createTable('card_ledger'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', big, (c) => c.notNull())
        .addColumn('reservation_id', 'integer')
        .addColumn('timetable_id', 'integer')
        .addColumn('operator_id', 'integer')
        .addColumn('remark', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('card_ledger_card').on('card_ledger').column('member_card_id').execute();

      await ageCols(
        withId(db.schema.createTable('timetable'))
          .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
          .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id'))
          .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
          .addColumn('area_id', 'integer', (c) => c.references('area.id'))
          .addColumn('book_id', 'integer', (c) => c.references('material.id'))
          .addColumn('start_time', 'text', (c) => c.notNull())
          .addColumn('end_time', 'text', (c) => c.notNull())
          .addColumn('reservable_count', 'integer', (c) => c.notNull())
          .addColumn('real_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_online', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('meeting_id', 'text')
          .addColumn('meeting_info', 'text')
          .addColumn('meeting_error', 'text')
          .addColumn('color', 'text', (c) => c.notNull())
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addCheckConstraint('timetable_seats_ck', sql`real_count >= 0 and real_count <= reservable_count`),
      ).execute();
      await db.schema
        .createIndex('timetable_store_start')
        .on('timetable')
        .columns(['store_id', 'deleted', 'start_time'])
        .execute();
      await db.schema
        .createIndex('timetable_teacher_start')
        .on('timetable')
        .columns(['teacher_id', 'start_time'])
        .execute();
      await db.schema.createIndex('timetable_course').on('timetable').columns(['course_id', 'start_time']).execute();

      await db.schema
        .createTable('timetable_card')
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id').onDelete('cascade'))
        .addColumn('card_id', 'integer', (c) => c.notNull().references('card_product.id'))
        .addPrimaryKeyConstraint('timetable_card_pk', ['timetable_id', 'card_id'])
        .execute();

      await withId(db.schema.createTable('pending'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('student_count', 'integer', (c) => c.notNull().check(sql`student_count >= 1`))
        .addColumn('remark', 'text')
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('operator_id', 'integer')
        .addColumn('reservation_id', 'integer')
        .addColumn('create_time', 'text', (c) => c.notNull())
        .addColumn('cancel_time', 'text')
        .execute();
      await db.schema.createIndex('pending_timetable').on('pending').columns(['timetable_id', 'status']).execute();

      await withId(db.schema.createTable('reservation'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('pending_id', 'integer', (c) => c.references('pending.id'))
        .addColumn('student_count', 'integer', (c) => c.notNull().check(sql`student_count >= 1`))
        .addColumn('used_count', big, (c) => c.notNull().check(sql`used_count >= 0`))
        .addColumn('remark', 'text')
        .addColumn('operator_id', 'integer')
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'text', (c) => c.notNull())
        .addColumn('cancel_time', 'text')
        .execute();
      await db.schema
        .createIndex('reservation_timetable')
        .on('reservation')
        .columns(['timetable_id', 'status'])
        .execute();
      await db.schema.createIndex('reservation_member').on('reservation').columns(['member_id', 'status']).execute();
      await db.schema.createIndex('reservation_card').on('reservation').column('member_card_id').execute();

      await withId(db.schema.createTable('history'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('timetable_id', 'integer', (c) => c.notNull().references('timetable.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('member_card_id', 'integer')
        .addColumn('reservation_id', 'integer')
        .addColumn('pending_id', 'integer')
        .addColumn('student_count', 'integer', (c) => c.notNull())
        .addColumn('used_count', big, (c) => c.notNull().defaultTo(0))
        .addColumn('operate_type', 'integer', (c) => c.notNull())
        .addColumn('operator_id', 'integer')
        .addColumn('remark', 'text')
        .addColumn('create_time', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('history_timetable').on('history').columns(['timetable_id', 'id']).execute();

      await withId(db.schema.createTable('fix_timetable'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('weekday', 'integer', (c) => c.notNull().check(sql`weekday between 0 and 6`))
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('course_id', 'integer', (c) => c.notNull().references('course.id'))
        .addColumn('teacher_id', 'integer', (c) => c.notNull().references('teacher.id'))
        .addColumn('area_id', 'integer', (c) => c.references('area.id'))
        .addColumn('book_id', 'integer', (c) => c.references('material.id'))
        .addColumn('reservable_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('fix_timetable_store').on('fix_timetable').column('store_id').execute();

      await withId(db.schema.createTable('fix_student'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('fix_id', 'integer', (c) => c.notNull().references('fix_timetable.id').onDelete('cascade'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('student_count', 'integer', (c) => c.notNull().check(sql`student_count >= 1`))
        .execute();
      await db.schema.createIndex('fix_student_fix').on('fix_student').column('fix_id').execute();

      await db.schema
        .createTable('op_lock')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('outbox'))
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('order_key', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('next_attempt_at', big, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sent_at', big)
        .addColumn('last_error', 'text')
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['sent_at', 'next_attempt_at']).execute();
    },
  };
}
