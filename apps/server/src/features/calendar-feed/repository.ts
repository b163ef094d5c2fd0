import type { Executor } from '../../db/index.ts';
import type { CalendarFeedTable } from '../../db/schema.ts';

type Owner = CalendarFeedTable['owner'];

/** The token of an owner's feed, if it has one. */
export async function feedTokenOf(ex: Executor, storeId: number, owner: Owner, ownerId: number) {
  const row = await ex
    .selectFrom('calendarFeed')
    .select('token')
    .where('storeId', '=', storeId)
    .where('owner', '=', owner)
    .where('ownerId', '=', ownerId)
    .executeTakeFirst();
  return row?.token;
}

/** Makes an owner's feed with `token` unless it has one (two first reads at once keep the first). */
export async function insertFeed(ex: Executor, storeId: number, owner: Owner, ownerId: number, token: string) {
  await ex
    .insertInto('calendarFeed')
    .values({ token, storeId, owner, ownerId, createdAt: Date.now() })
    .onConflict((oc) => oc.columns(['storeId', 'owner', 'ownerId']).doNothing())
    .execute();
}

/** Gives an owner's feed a new token (the old address stops answering); false when it had none. */
export async function replaceFeedToken(ex: Executor, storeId: number, owner: Owner, ownerId: number, token: string) {
  const r = await ex
    .updateTable('calendarFeed')
    .set({ token, createdAt: Date.now() })
    .where('storeId', '=', storeId)
    .where('owner', '=', owner)
    .where('ownerId', '=', ownerId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whose feed a token opens. */
export function feedByToken(ex: Executor, token: string) {
  return ex
    .selectFrom('calendarFeed')
    .select(['storeId', 'owner', 'ownerId'])
    .where('token', '=', token)
    .executeTakeFirst();
}
