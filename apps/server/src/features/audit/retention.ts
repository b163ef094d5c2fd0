import type { Db } from '../../db/index.ts';

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
    const ids = (
      await db.selectFrom('auditLog').select('id').where('at', '<', before).orderBy('id').limit(BATCH).execute()
    ).map((r) => r.id);
    if (!ids.length) return total;
    await db.transaction().execute(async (tx) => {
      await tx.deleteFrom('auditTarget').where('auditId', 'in', ids).execute();
      await tx.deleteFrom('auditLog').where('id', 'in', ids).execute();
    });
    total += ids.length;
  }
}
