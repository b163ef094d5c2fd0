import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import type { Dialect } from './index.ts';
import { init } from './migrations/20261121_0001_init.ts';
import { timetableEngine } from './migrations/20261121_0200_timetable_engine.ts';

/** Timestamped migrations, in order. Never edit one that has landed: add a new one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '20261121_0001_init': init(dialect),
    '20261121_0200_timetable_engine': timetableEngine(dialect),
  };
}

/** Brings the schema up to date; throws on failure. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败: ${failed?.migrationName ?? ''} ${String(error)}`);
  }
}
