import type { Kysely } from 'kysely';

/**
 * 少儿课程 (issue 33): a course marked for children prints a line for a parent's signature (家长签字)
 * on its booking receipt; other courses print none. `course.for_children` 1 marks one, 0 (every
 * existing course) does not. The same statement on SQLite and PostgreSQL.
 */
export function courseForChildren() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('course')
        .addColumn('for_children', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
