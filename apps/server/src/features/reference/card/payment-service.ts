import { CardMsg, ReservationStatus, type Payment } from '@studio/contract';
import { sql } from 'kysely';
import type { CallCtx } from '../../../lib/context.ts';
import { conflict, notFound } from '../../../lib/errors.ts';
import { mustFindMember } from '../member/service.ts';
import { storeNow } from '../shared.ts';
import { addLedgerEntry, mustFindMemberCard, recordPayment } from './member-card-service.ts';
import { inOwnTx } from '../../../db/write-queue.ts';

type Card = Awaited<ReturnType<typeof mustFindMemberCard>>;
interface Refund extends Payment {
  id: number;
  topupId?: number;
}

/** Fen taken for a card (its sale and top-ups) or for one top-up, less what was paid back of it. */
async function paidFor(ctx: CallCtx, memberCardId: number, topupId?: number) {
  let q = ctx.db
    .selectFrom('cardPayment')
    .select(sql<number>`coalesce(sum(case when kind = 'refund' then -amount else amount end), 0)`.as('fen'))
    .where('storeId', '=', ctx.store.id)
    .where('memberCardId', '=', memberCardId);
  if (topupId) q = q.where((eb) => eb.or([eb('ledgerId', '=', topupId), eb('refundOf', '=', topupId)]));
  return Number((await q.executeTakeFirstOrThrow()).fen);
}

/**
 * Pays back a card that was never used (no deduction, no live booking): its whole balance leaves it
 * and it is marked refunded, so it books and takes top-ups no more. One guarded UPDATE decides,
 * so a booking or a second refund racing it finds the card changed.
 */
async function refundWholeCard(ctx: CallCtx, card: Card, r: Refund) {
  if (r.amount > (await paidFor(ctx, card.id))) throw conflict(CardMsg.refundTooMuch);
  const now = storeNow(ctx);
  await inOwnTx(ctx.db, async (tx) => {
    const res = await tx
      .updateTable('memberCard')
      .set({ totalCount: 0, refundedAt: now })
      .where('storeId', '=', ctx.store.id)
      .where('id', '=', card.id)
      .where('usedCount', '=', 0)
      .where('totalCount', '=', card.totalCount)
      .where('refundedAt', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('reservation')
              .select('id')
              .where('memberCardId', '=', card.id)
              .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN]),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      const now = await mustFindMemberCard(ctx, card.id);
      if (now.refundedAt) throw conflict(CardMsg.refunded);
      if (now.totalCount !== card.totalCount) throw conflict(CardMsg.changed);
      throw conflict(CardMsg.refundUsed);
    }
    const ledgerId = await addLedgerEntry(tx, ctx, {
      memberCardId: card.id,
      kind: 'card_refund',
      amount: -card.totalCount,
      remark: r.remark,
      now,
    });
    await recordPayment(tx, ctx, { ...r, memberCardId: card.id, ledgerId, kind: 'refund' });
  });
}

/**
 * Pays back one top-up: its amount leaves the card's balance (guarded: the balance must still hold
 * it) and the money is recorded as a refund of that top-up, once (a unique index on `refund_of`).
 */
async function refundTopup(ctx: CallCtx, card: Card, topupId: number, r: Refund) {
  const topup = await ctx.db
    .selectFrom('cardLedger')
    .select(['id', 'kind', 'amount'])
    .where('storeId', '=', ctx.store.id)
    .where('memberCardId', '=', card.id)
    .where('id', '=', topupId)
    .executeTakeFirst();
  if (!topup) throw notFound('充值记录');
  if (topup.kind !== 'topup') throw conflict(CardMsg.notTopup);
  const amount = Number(topup.amount);
  if (r.amount > (await paidFor(ctx, card.id, topupId))) throw conflict(CardMsg.refundTooMuch);
  const now = storeNow(ctx);
  await inOwnTx(ctx.db, async (tx) => {
    const res = await tx
      .updateTable('memberCard')
      .set((eb) => ({ totalCount: eb('totalCount', '-', amount) }))
      .where('storeId', '=', ctx.store.id)
      .where('id', '=', card.id)
      .where('refundedAt', 'is', null)
      .where((eb) => eb(eb('totalCount', '-', eb.ref('usedCount')), '>=', amount))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw conflict(CardMsg.topupBalance);
    const ledgerId = await addLedgerEntry(tx, ctx, {
      memberCardId: card.id,
      kind: 'topup_refund',
      amount: -amount,
      remark: r.remark,
      now,
    });
    const paid = await tx
      .insertInto('cardPayment')
      .values({
        storeId: ctx.store.id,
        memberCardId: card.id,
        ledgerId,
        kind: 'refund',
        amount: r.amount,
        method: r.method,
        staffId: ctx.staff.id,
        remark: r.remark,
        createdAt: now,
        refundOf: topupId,
      })
      .onConflict((oc) => oc.column('refundOf').doNothing())
      .returning('id')
      .executeTakeFirst();
    // Another refund of this top-up committed first: undo this one whole.
    if (!paid) throw conflict(CardMsg.topupRefunded);
  });
}

/** Refunds a whole unused card, or one top-up of a card, recording the money paid back. */
export async function refundCard(ctx: CallCtx, r: Refund) {
  const card = await mustFindMemberCard(ctx, r.id);
  if (card.refundedAt) throw conflict(CardMsg.refunded);
  if (r.topupId) await refundTopup(ctx, card, r.topupId, r);
  else await refundWholeCard(ctx, card, r);
  return null;
}

/** The money a member paid and was paid back (sales, top-ups, refunds), newest first. */
export async function memberPaymentList(ctx: CallCtx, memberId: number) {
  await mustFindMember(ctx, memberId);
  const rows = await ctx.db
    .selectFrom('cardPayment as p')
    .innerJoin('memberCard as mc', 'mc.id', 'p.memberCardId')
    .innerJoin('cardProduct as cp', 'cp.id', 'mc.cardId')
    .leftJoin('staff as s', 's.id', 'p.staffId')
    .select([
      'p.id',
      'p.memberCardId',
      'cp.cardName',
      'cp.bigType',
      'p.kind',
      'p.amount',
      'p.method',
      's.name as staff',
      'p.remark',
      'p.createdAt',
    ])
    .where('p.storeId', '=', ctx.store.id)
    .where('mc.memberId', '=', memberId)
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}
