import { sql } from 'kysely';
import type { Db, Dialect, Executor } from '../db/index.ts';
import type { Row } from '../db/schema.ts';

export type OutboxRow = Row<'outbox'>;

/**
 * Due rows that are next in line for their order key: not sent, not given up on, due at `now`, and
 * with no earlier row of the same store and key still waiting. Oldest first.
 */
function dueRows(db: Executor, now: number, limit: number) {
  return db
    .selectFrom('outbox as o')
    .selectAll('o')
    .where('o.sentAt', 'is', null)
    .where('o.deadAt', 'is', null)
    .where('o.nextAttemptAt', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('outbox as p')
            .select('p.id')
            .whereRef('p.orderKey', '=', 'o.orderKey')
            .whereRef('p.storeId', '=', 'o.storeId')
            .whereRef('p.id', '<', 'o.id')
            .where('p.sentAt', 'is', null)
            .where('p.deadAt', 'is', null),
        ),
      ),
    )
    .orderBy('o.id')
    .limit(limit);
}

/**
 * Claims up to `limit` due rows for this worker: each claimed row gets `attempts + 1` and a lease
 * (`nextAttemptAt = now + leaseMs`), so no other worker takes it while it is being sent; if this
 * process dies mid-send, the row is due again once the lease ends.
 *
 * PostgreSQL: one transaction selects the rows `FOR UPDATE SKIP LOCKED`, so several app instances
 * claiming at the same moment never get the same row. SQLite: each row is claimed by a conditional
 * UPDATE on the `nextAttemptAt` it was read with (compare-and-set), which also keeps two processes
 * on one file apart.
 */
export async function claimDue(
  db: Db,
  dialect: Dialect,
  o: { now: number; limit: number; leaseMs: number },
): Promise<OutboxRow[]> {
  const lease = o.now + o.leaseMs;
  if (dialect === 'postgres') {
    return db.transaction().execute(async (tx) => {
      const rows = await dueRows(tx, o.now, o.limit)
        .modifyEnd(sql`for update of o skip locked`)
        .execute();
      if (!rows.length) return [];
      await tx
        .updateTable('outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), nextAttemptAt: lease }))
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map((r) => ({ ...r, attempts: r.attempts + 1, nextAttemptAt: lease }));
    });
  }
  const rows = await dueRows(db, o.now, o.limit).execute();
  const claimed: OutboxRow[] = [];
  for (const r of rows) {
    const res = await db
      .updateTable('outbox')
      .set({ attempts: r.attempts + 1, nextAttemptAt: lease })
      .where('id', '=', r.id)
      .where('nextAttemptAt', '=', r.nextAttemptAt)
      .where('sentAt', 'is', null)
      .where('deadAt', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) claimed.push({ ...r, attempts: r.attempts + 1, nextAttemptAt: lease });
  }
  return claimed;
}

/** Marks a claimed row sent. */
export async function markSent(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('outbox').set({ sentAt: now, lastError: null }).where('id', '=', id).execute();
}

/** Records a failed attempt: due again at `retryAt`, or given up on when `retryAt` is null. */
export async function markFailed(db: Db, id: number, error: string, now: number, retryAt: number | null) {
  await db
    .updateTable('outbox')
    .set(retryAt === null ? { lastError: error, deadAt: now } : { lastError: error, nextAttemptAt: retryAt })
    .where('id', '=', id)
    .execute();
}

/** Gives claimed rows that were not attempted back: due now, the claim's attempt not counted. */
export async function release(db: Db, rows: OutboxRow[]): Promise<void> {
  for (const r of rows) {
    await db
      .updateTable('outbox')
      .set({ attempts: r.attempts - 1, nextAttemptAt: Date.now() })
      .where('id', '=', r.id)
      .where('sentAt', 'is', null)
      .execute();
  }
}
