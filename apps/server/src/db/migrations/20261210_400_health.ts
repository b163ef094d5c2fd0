import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 健康声明 (issue 45, item 3):
 * - `health_questionnaire`: a store's questions (a JSON array of texts), one row a version, never
 *   changed; the highest version is in force. None: the defaults are version 1, written with the
 *   first declaration or the manager's first save.
 * - `health_declaration`: a member's answers to one version (JSON `[{question, yes}]`, the texts
 *   copied so an old declaration still reads), their note, whether the manager and their teachers
 *   may see the answers (`share_details`), whether some answer is yes (`flagged`), when (store-local).
 *   Deleted when the member withdraws the 'health' consent or their account is erased.
 * The store settings 上课前须填写健康声明 (`health.required`) and 改问题后须重新填写
 * (`health.reanswer`) are store_setting rows; absent means off, for existing stores and new ones
 * alike (turning it on refuses the bookings of every member who has not answered yet: the manager
 * chooses when).
 */
export function health(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('health_questionnaire')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
        .addColumn('questions', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('staff.id'))
        .addUniqueConstraint('health_questionnaire_version_uq', ['store_id', 'version'])
        .execute();
      await db.schema
        .createTable('health_declaration')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('health_questionnaire.id'))
        .addColumn('answers', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('share_details', 'integer', (c) => c.notNull().check(sql`share_details in (0, 1)`))
        .addColumn('flagged', 'integer', (c) => c.notNull().check(sql`flagged in (0, 1)`))
        .addColumn('answered_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('health_declaration_member')
        .on('health_declaration')
        .columns(['store_id', 'member_id', 'id'])
        .execute();
    },
  };
}
