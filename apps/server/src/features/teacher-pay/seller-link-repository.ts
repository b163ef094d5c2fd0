import type { Executor, Tx } from '../../db/index.ts';

/** A staff member's link code in the store, if made. */
export async function linkOf(ex: Executor, storeId: number, staffId: number): Promise<string | undefined> {
  const row = await ex
    .selectFrom('sellerLink')
    .select('code')
    .where('storeId', '=', storeId)
    .where('staffId', '=', staffId)
    .executeTakeFirst();
  return row?.code;
}

/** Makes the link once: answers whether this insert made it (a second maker finds the first's row). */
export async function insertLink(
  tx: Tx,
  row: { storeId: number; staffId: number; code: string; createdAt: string },
): Promise<boolean> {
  const made = await tx
    .insertInto('sellerLink')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'staffId']).doNothing())
    .returning('staffId')
    .executeTakeFirst();
  return made !== undefined;
}

/** Whether a staff member holds an enabled post in the store. */
export async function staffOfStore(ex: Executor, storeId: number, staffId: number): Promise<boolean> {
  const row = await ex
    .selectFrom('post')
    .select('staffId')
    .where('storeId', '=', storeId)
    .where('staffId', '=', staffId)
    .executeTakeFirst();
  return Boolean(row);
}

/** The staff member of an enabled post in the store whose link code this is, or null. */
export async function sellerByCode(ex: Executor, storeId: number, code: string): Promise<number | null> {
  const row = await ex
    .selectFrom('sellerLink as l')
    .innerJoin('post as p', (j) => j.onRef('p.staffId', '=', 'l.staffId').onRef('p.storeId', '=', 'l.storeId'))
    .select('l.staffId')
    .where('l.storeId', '=', storeId)
    .where('l.code', '=', code)
    .where('p.enabled', '=', 1)
    .executeTakeFirst();
  return row?.staffId ?? null;
}
