import { idChunks } from '../../db/chunks.ts';
import type { Tx } from '../../db/index.ts';
import { deleteSharesOfCards } from '../cards/public.ts';

async function each<T>(ids: number[], q: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of idChunks(ids)) if (part.length) out.push(...(await q(part)));
  return out;
}

/** Members among `ids` that a later audit entry (after `entryId`) names, with their names. */
export const membersNamedAfter = (tx: Tx, storeId: number, ids: number[], entryId: number) =>
  each(ids, (part) =>
    tx
      .selectFrom('auditTarget as t')
      .innerJoin('member as m', 'm.id', 't.refId')
      .select(['m.id', 'm.name'])
      .where('t.storeId', '=', storeId)
      .where('t.type', '=', 'member')
      .where('t.refId', 'in', part)
      .where('t.auditId', '>', entryId)
      .distinct()
      .execute(),
  );

/** The ids among `ids` of things of `type` (cards, leads) that a later audit entry names. */
export async function targetsNamedAfter(
  tx: Tx,
  storeId: number,
  type: 'card' | 'lead',
  ids: number[],
  entryId: number,
): Promise<number[]> {
  const rows = await each(ids, (part) =>
    tx
      .selectFrom('auditTarget')
      .select('refId')
      .where('storeId', '=', storeId)
      .where('type', '=', type)
      .where('refId', 'in', part)
      .where('auditId', '>', entryId)
      .distinct()
      .execute(),
  );
  return rows.map((r) => Number(r.refId));
}

/** Cards among `ids` with more than their opening ledger entry. */
export const cardsWithMoreLedger = (tx: Tx, ids: number[]) =>
  each(ids, (part) =>
    tx
      .selectFrom('cardLedger')
      .select('memberCardId as id')
      .where('memberCardId', 'in', part)
      .groupBy('memberCardId')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute(),
  );

/**
 * Whether any of the members has a booking, pending, wait, leave (other than `ownLeaves`, the
 * import's) or online order, or is named on the list (多人共享) of a card not among `ownCards`.
 */
export async function membersWithActivity(
  tx: Tx,
  ids: number[],
  ownLeaves: number[],
  ownCards: number[],
): Promise<boolean> {
  for (const table of ['reservation', 'pending', 'waitlist', 'payOrder'] as const) {
    const found = await each(ids, (part) =>
      tx.selectFrom(table).select('memberId as id').where('memberId', 'in', part).limit(1).execute(),
    );
    if (found.length) return true;
  }
  const own = new Set(ownLeaves);
  const leaves = await each(ids, (part) =>
    tx.selectFrom('cardLeave').select('id').where('memberId', 'in', part).execute(),
  );
  if (leaves.some((l) => !own.has(Number(l.id)))) return true;
  const cards = new Set(ownCards);
  const named = await each(ids, (part) =>
    tx.selectFrom('cardShare').select('memberCardId').where('memberId', 'in', part).execute(),
  );
  return named.some((s) => !cards.has(Number(s.memberCardId)));
}

/** The cards the members hold. */
export const cardsOfMembers = (tx: Tx, ids: number[]) =>
  each(ids, (part) => tx.selectFrom('memberCard').select(['id', 'memberId']).where('memberId', 'in', part).execute());

/** Deletes cards with their lists (多人共享), leaves, ledger entries and payments, then members. */
export async function deleteImported(tx: Tx, storeId: number, cards: number[], members: number[]): Promise<void> {
  await deleteSharesOfCards(tx, storeId, cards);
  for (const part of idChunks(cards)) {
    await tx.deleteFrom('cardLeave').where('storeId', '=', storeId).where('memberCardId', 'in', part).execute();
    await tx.deleteFrom('cardPayment').where('storeId', '=', storeId).where('memberCardId', 'in', part).execute();
    await tx.deleteFrom('cardLedger').where('storeId', '=', storeId).where('memberCardId', 'in', part).execute();
    await tx.deleteFrom('memberCard').where('storeId', '=', storeId).where('id', 'in', part).execute();
  }
  for (const part of idChunks(members)) {
    await tx.deleteFrom('member').where('storeId', '=', storeId).where('id', 'in', part).execute();
  }
}

/** Puts a member's fields back. */
export async function restoreMember(
  tx: Tx,
  storeId: number,
  m: { id: number; name: string; gender: number; birthday: string | null; remark: string | null },
): Promise<void> {
  await tx
    .updateTable('member')
    .set({ name: m.name, gender: m.gender, birthday: m.birthday, remark: m.remark })
    .where('storeId', '=', storeId)
    .where('id', '=', m.id)
    .execute();
}
