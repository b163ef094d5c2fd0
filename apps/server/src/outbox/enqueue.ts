import type { Executor } from '../db/index.ts';

/**
 * Queues one outbox message. Call it with the transaction of the change it reports, so that the
 * message exists exactly when the change does. Messages of one `orderKey` are delivered in the
 * order they were queued (a later one waits until every earlier one is sent or given up on).
 */
export async function enqueue(
  tx: Executor,
  storeId: number,
  topic: string,
  orderKey: string,
  payload: unknown,
): Promise<number> {
  const now = Date.now();
  const row = await tx
    .insertInto('outbox')
    .values({
      storeId,
      topic,
      orderKey,
      payload: JSON.stringify(payload),
      createdAt: now,
      nextAttemptAt: now,
      attempts: 0,
      sentAt: null,
      lastError: null,
      deadAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
