import { sql } from 'kysely';
import { onPostgres } from '../db/dialect.ts';
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
 * Inserts an audit entry with its targets (what it is about); answers its id. On PostgreSQL one
 * statement (the targets are inserted from the entry's returned id in a data-modifying CTE), so
 * an audited write costs one round trip for its entry; elsewhere two.
 */
export async function insertAuditEntry(
  ex: Executor,
  row: NewRow<'auditLog'>,
  targets: readonly { type: string; refId: number }[],
): Promise<number> {
  if (!targets.length || !onPostgres(ex)) {
    const { id } = await ex.insertInto('auditLog').values(row).returning('id').executeTakeFirstOrThrow();
    if (targets.length) {
      await ex
        .insertInto('auditTarget')
        .values(targets.map((t) => ({ auditId: id, storeId: row.storeId, type: t.type, refId: t.refId })))
        .execute();
    }
    return id;
  }
  const values = sql.join(targets.map((t) => sql`(cast(${t.type} as text), cast(${t.refId} as integer))`));
  const { id } = await ex
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
    .select('id')
    .executeTakeFirstOrThrow();
  return id;
}
