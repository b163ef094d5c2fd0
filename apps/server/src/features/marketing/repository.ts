import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';

/** The marketing sends' repository (营销短信发送记录): the send rows and their texts in the outbox. */

/** Writes a send unless the store holds its dedupe key; answers its id, or undefined when it is there. */
export async function insertSendOnce(ex: Executor, row: NewRow<'marketingSend'>): Promise<number | undefined> {
  const r = await ex
    .insertInto('marketingSend')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'dedupeKey']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/**
 * Retires the store's send of the key made before `before` (its key suffixed with its id), so the
 * same text may go again; one guarded UPDATE (of two at once one retires it). Whether it retired one.
 */
export async function retireSendKey(ex: Executor, storeId: number, key: string, before: string): Promise<boolean> {
  const r = await ex
    .updateTable('marketingSend')
    .set({ dedupeKey: sql<string>`dedupe_key || ':' || cast(id as text)` })
    .where('storeId', '=', storeId)
    .where('dedupeKey', '=', key)
    .where('createdAt', '<', before)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertSendTexts(ex: Executor, sendId: number, outboxIds: readonly number[]) {
  if (!outboxIds.length) return;
  await ex
    .insertInto('marketingSendText')
    .values(outboxIds.map((outboxId) => ({ sendId, outboxId })))
    .execute();
}

/**
 * The store's sends, newest first, with who sent them and their texts' state in the outbox: sent,
 * given up because the person withdrew (`withdrawnError`), given up otherwise, still waiting.
 */
export async function sendPage(ex: Executor, storeId: number, page: number, size: number, withdrawnError: string) {
  const counts = ex
    .selectFrom('marketingSendText as mt')
    .innerJoin('outbox as o', 'o.id', 'mt.outboxId')
    .select([
      'mt.sendId',
      sql<number>`sum(case when o.sent_at is not null then 1 else 0 end)`.as('sent'),
      sql<number>`sum(case when o.sent_at is null and o.dead_at is not null and o.last_error = ${withdrawnError} then 1 else 0 end)`.as(
        'withdrawn',
      ),
      sql<number>`sum(case when o.sent_at is null and o.dead_at is not null and (o.last_error is null or o.last_error <> ${withdrawnError}) then 1 else 0 end)`.as(
        'failed',
      ),
      sql<number>`sum(case when o.sent_at is null and o.dead_at is null then 1 else 0 end)`.as('waiting'),
    ])
    .groupBy('mt.sendId')
    .as('c');
  const [rows, total] = await Promise.all([
    ex
      .selectFrom('marketingSend as s')
      .leftJoin('staff as st', 'st.id', 's.staffId')
      .leftJoin(counts, 'c.sendId', 's.id')
      .select([
        's.id',
        's.createdAt',
        'st.name as staffName',
        's.text',
        's.toMembers',
        's.toLeads',
        's.leadStages',
        's.recipients',
        's.members',
        's.leads',
        's.excluded',
        'c.sent',
        'c.withdrawn',
        'c.failed',
        'c.waiting',
      ])
      .where('s.storeId', '=', storeId)
      .orderBy('s.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    ex
      .selectFrom('marketingSend')
      .select(sql<number>`count(*)`.as('n'))
      .where('storeId', '=', storeId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
