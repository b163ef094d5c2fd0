import type { Kysely } from 'kysely';

/**
 * How far an import or an export has got (issue 30: 导入 and 导出全部数据 with progress). On
 * PostgreSQL several app instances share the database, so the instance doing the work writes its
 * progress here (outside the import's transaction, on another connection) and a progress call that
 * reaches any instance reads it. SQLite is one instance: its progress lives in memory only.
 */
export function jobProgress() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('job_progress')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('phase', 'text', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
