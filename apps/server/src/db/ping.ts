import { sql } from 'kysely';
import type { Db } from './index.ts';

/** One round trip to the database (readiness, ops/health.ts). */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
