import type { Executor } from '../../db/index.ts';

/**
 * Store messaging's repository: the names and card kinds a message shows. The session it is about
 * comes from the online rooms (`onlineSession`), the webhook from the store's settings.
 */

/** bigType of member cards by card id (1 count card, else money in fen). */
export async function cardKinds(db: Executor, storeId: number, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select(['mc.id', 'p.bigType'])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.bigType]));
}
