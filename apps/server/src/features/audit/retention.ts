import type { Db } from '../../db/index.ts';
import { deleteEntries, entriesBefore } from './repository.ts';

/** Entries removed per statement by the retention job. */
const BATCH = 5000;

/**
 * The audit log's retention (AUDIT_RETENTION_DAYS; 0, the default, keeps every entry): removes the
 * entries older than that, with their targets, in batches. The only deletion of entries there is;
 * no call can change or remove one. Safe on several instances at once (a deletion is idempotent).
 */
export async function purgeOldEntries(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  if (!retentionDays) return 0;
  const before = now - retentionDays * 24 * 3600 * 1000;
  let total = 0;
  for (;;) {
    const ids = await entriesBefore(db, before, BATCH);
    if (!ids.length) return total;
    await db.transaction().execute((tx) => deleteEntries(tx, ids));
    total += ids.length;
  }
}
