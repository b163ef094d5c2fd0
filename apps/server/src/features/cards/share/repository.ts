import { insertRows } from '../../../db/bulk-insert.ts';
import { idChunks } from '../../../db/chunks.ts';
import type { Tx } from '../../../db/index.ts';

/**
 * The list of members a card names (多人共享), in its two shapes written together: the `card_share`
 * rows (who, since when, by whom; the member's page finds the cards shared with them by these) and
 * `member_card.shared_with` (the same ids as JSON, read with the card by the booking rules). The
 * caller holds the card's row lock.
 */

interface ShareRow {
  storeId: number;
  memberCardId: number;
  memberId: number;
  operatorId: number | null;
  createdAt: string;
}

/** Adds `memberId` to the card's list; false when already on it (the unique key holds it once). */
export async function insertShare(tx: Tx, row: ShareRow): Promise<boolean> {
  const done = await tx
    .insertInto('cardShare')
    .values(row)
    .onConflict((oc) => oc.columns(['memberCardId', 'memberId']).doNothing())
    .executeTakeFirst();
  const added = Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
  if (added) await writeSharedWith(tx, [row.memberCardId]);
  return added;
}

/**
 * The lists of cards just made (an import: no other write sees them yet), in a few statements:
 * `rows` in order (each card's members in the order they were added, none twice), then each card's
 * `shared_with` from its rows.
 */
export async function insertSharesOfNewCards(tx: Tx, rows: ShareRow[]): Promise<void> {
  if (!rows.length) return;
  await insertRows(tx, 'cardShare', rows);
  await writeSharedWith(tx, [...new Set(rows.map((r) => r.memberCardId))]);
}

/** Takes `memberId` off the card's list; false when they were not on it. */
export async function deleteShare(tx: Tx, storeId: number, memberCardId: number, memberId: number): Promise<boolean> {
  const done = await tx
    .deleteFrom('cardShare')
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .where('memberId', '=', memberId)
    .executeTakeFirst();
  const gone = Number(done.numDeletedRows) > 0;
  if (gone) await writeSharedWith(tx, [memberCardId]);
  return gone;
}

/**
 * Empties the lists of cards (a transfer's card, or an import's cards before its undo deletes them);
 * answers how many members were taken off.
 */
export async function deleteSharesOfCards(tx: Tx, storeId: number, memberCardIds: number[]): Promise<number> {
  let n = 0;
  for (const part of idChunks(memberCardIds)) {
    const gone = await tx
      .deleteFrom('cardShare')
      .where('storeId', '=', storeId)
      .where('memberCardId', 'in', part)
      .returning('memberCardId')
      .execute();
    n += gone.length;
    await writeSharedWith(tx, [...new Set(gone.map((r) => r.memberCardId))]);
  }
  return n;
}

/** Each card's `member_card.shared_with` from its rows, in the order they were added (a statement per thousand cards). */
async function writeSharedWith(tx: Tx, memberCardIds: number[]): Promise<void> {
  for (const part of idChunks(memberCardIds)) {
    const rows = await tx
      .selectFrom('cardShare')
      .select(['memberCardId', 'memberId'])
      .where('memberCardId', 'in', part)
      .orderBy('id')
      .execute();
    const lists = new Map<number, number[]>(part.map((id) => [id, []]));
    for (const r of rows) lists.get(r.memberCardId)!.push(r.memberId);
    const text = (id: number) => JSON.stringify(lists.get(id));
    const [first, ...rest] = part;
    // One card: its text; more: a CASE on the card (every card of `part` has a branch).
    await tx
      .updateTable('memberCard')
      .set((eb) => ({
        sharedWith: rest.length
          ? rest
              .reduce(
                (c, id) => c.when('id', '=', id).then(text(id)),
                eb.case().when('id', '=', first).then(text(first)),
              )
              .else('[]')
              .end()
          : text(first),
      }))
      .where('id', 'in', part)
      .execute();
  }
}
