import type { Tx } from '../../../db/index.ts';

/** Moves a card to `to`: guarded, once (still held by `from`, not refunded); answers whether it moved. */
export async function moveCard(tx: Tx, storeId: number, id: number, from: number, to: number, now: string) {
  const done = await tx
    .updateTable('memberCard')
    .set({ memberId: to, transferredAt: now })
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('memberId', '=', from)
    .where('refundedAt', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
