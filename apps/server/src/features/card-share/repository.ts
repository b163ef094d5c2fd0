import type { Tx } from '../../db/index.ts';

/**
 * The list of members a card names (多人共享), in its two shapes written together: the `card_share`
 * rows (who, since when, by whom; the member's page finds the cards shared with them by these) and
 * `member_card.shared_with` (the same ids as JSON, read with the card by the booking rules). The
 * caller holds the card's row lock.
 */

/** Adds `memberId` to the card's list; false when already on it (the unique key holds it once). */
export async function insertShare(
  tx: Tx,
  row: { storeId: number; memberCardId: number; memberId: number; operatorId: number | null; createdAt: string },
): Promise<boolean> {
  const done = await tx
    .insertInto('cardShare')
    .values(row)
    .onConflict((oc) => oc.columns(['memberCardId', 'memberId']).doNothing())
    .executeTakeFirst();
  const added = Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
  if (added) await writeSharedWith(tx, row.memberCardId);
  return added;
}

/** Takes `memberId` off the card's list (all of it when undefined); answers how many were taken off. */
export async function deleteShares(tx: Tx, storeId: number, memberCardId: number, memberId?: number): Promise<number> {
  const done = await tx
    .deleteFrom('cardShare')
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .$if(memberId !== undefined, (q) => q.where('memberId', '=', memberId!))
    .executeTakeFirst();
  const n = Number(done.numDeletedRows);
  if (n) await writeSharedWith(tx, memberCardId);
  return n;
}

/** `member_card.shared_with` from the card's rows, in the order they were added. */
async function writeSharedWith(tx: Tx, memberCardId: number): Promise<void> {
  const rows = await tx
    .selectFrom('cardShare')
    .select('memberId')
    .where('memberCardId', '=', memberCardId)
    .orderBy('id')
    .execute();
  await tx
    .updateTable('memberCard')
    .set({ sharedWith: JSON.stringify(rows.map((r) => r.memberId)) })
    .where('id', '=', memberCardId)
    .execute();
}
