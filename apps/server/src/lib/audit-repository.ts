import { sql } from 'kysely';
import { insertRows } from '../db/bulk-insert.ts';
import { onPostgres } from '../db/dialect.ts';
import { fixed } from '../db/fixed.ts';
import type { Executor } from '../db/index.ts';
import type { NewRow } from '../db/schema.ts';

/**
 * The audit log's writes (entries and their targets) and the one look-up an entry needs, for
 * `audit.ts`: infrastructure may not import a feature, so these live here rather than in
 * `features/audit/repository.ts` (which holds the log's reads, retention and undo).
 */

/** The holders of some member cards (one row per card found). */
export function cardHolders(ex: Executor, cardIds: readonly number[]) {
  return ex.selectFrom('memberCard').select('memberId').where('id', 'in', cardIds).execute();
}

/**
 * An audit entry with its targets (what it is about), on PostgreSQL as one statement: the targets
 * are inserted from the entry's returned id in a data-modifying CTE.
 */
const entryWithTargets = fixed((ex, p: NewRow<'auditLog'> & { types: string[]; refIds: number[] }) => {
  const { types, refIds, ...row } = p;
  const values = sql.join(types.map((type, i) => sql`(cast(${type} as text), cast(${refIds[i]} as integer))`));
  return ex
    .with('a', (q) => q.insertInto('auditLog').values(row).returning('id'))
    .with('t', (q) =>
      q
        .insertInto('auditTarget')
        .columns(['auditId', 'storeId', 'type', 'refId'])
        .expression(
          sql`select a.id, cast(${row.storeId} as integer), v.type, v.ref_id from a cross join (values ${values}) as v (type, ref_id)`,
        ),
    )
    .selectFrom('a')
    .select('id');
});

/**
 * Writes an audit entry with its targets. On PostgreSQL in a transaction it goes out with the
 * transaction's next statement (or its COMMIT): nobody waits for its answer (db/pg-pipeline.ts).
 */
export async function insertAuditEntry(
  ex: Executor,
  row: NewRow<'auditLog'>,
  targets: readonly { type: string; refId: number }[],
): Promise<void> {
  if (!targets.length || !onPostgres(ex)) {
    const [{ id }] = await insertRows(ex, 'auditLog', [row], ['id']);
    await insertRows(
      ex,
      'auditTarget',
      targets.map((t) => ({ auditId: id as number, storeId: row.storeId, type: t.type, refId: t.refId })),
    );
    return;
  }
  await entryWithTargets.sendWithNext(ex, {
    ...row,
    types: targets.map((t) => t.type),
    refIds: targets.map((t) => t.refId),
  });
}
