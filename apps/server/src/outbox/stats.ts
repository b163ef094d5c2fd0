import type { Executor } from '../db/index.ts';

/** Messages waiting to be sent (not sent, not given up on) and the creation time of the oldest (ms), for metrics. */
export async function outboxBacklog(db: Executor): Promise<{ depth: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => [eb.fn.countAll<number>().as('depth'), eb.fn.min('createdAt').as('oldest')])
    .where('sentAt', 'is', null)
    .where('deadAt', 'is', null)
    .executeTakeFirst();
  return { depth: Number(row?.depth ?? 0), oldestCreatedAt: row?.oldest == null ? null : Number(row.oldest) };
}
