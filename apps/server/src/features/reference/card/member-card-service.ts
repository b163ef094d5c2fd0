import { CARD_TYPE_NO_EXPIRY, RefMsg } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { addDays } from '../../../lib/time.ts';
import { mustFindMember } from '../member/service.ts';
import { storeNow } from '../shared.ts';
import { mustFindProduct } from './product-service.ts';

/** A date `YYYY-MM-DD` as the last second of that day, store-local. */
const endOfDay = (date: string) => `${date} 23:59:59`;

async function mustFindMemberCard(ctx: CallCtx, id: number) {
  const c = await ctx.db
    .selectFrom('memberCard')
    .select(['id', 'cardId'])
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!c) throw notFound('会员卡');
  return c;
}

/**
 * Issues a card product to a member with `totalCount` (count, or fen for money cards), valid
 * through the end of `expireTime` (never for products that do not expire). Writes ledger `issue`.
 */
export async function issueCard(
  ctx: CallCtx,
  input: { mid: number; cardId: number; totalCount: number; expireTime: string | null },
) {
  await mustFindMember(ctx, input.mid);
  const product = await mustFindProduct(ctx, input.cardId);
  const now = storeNow(ctx);
  let expireTime: string | null = null;
  if (product.cardType !== CARD_TYPE_NO_EXPIRY) {
    if (input.expireTime) expireTime = endOfDay(input.expireTime);
    else if (product.validDays) expireTime = endOfDay(addDays(now.slice(0, 10), product.validDays));
    else throw badRequest(RefMsg.expireRequired);
  }
  const storeId = ctx.store.id;
  return ctx.db.transaction().execute(async (tx) => {
    const card = await tx
      .insertInto('memberCard')
      .values({
        storeId,
        memberId: input.mid,
        cardId: input.cardId,
        totalCount: input.totalCount,
        usedCount: 0,
        startTime: now,
        expireTime,
        frozen: 0,
        createdAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('cardLedger')
      .values({
        storeId,
        memberCardId: card.id,
        kind: 'issue',
        amount: input.totalCount,
        operatorId: ctx.staff.id,
        createdAt: now,
      })
      .execute();
    return card;
  });
}

/** Freezes (1) or unfreezes (0) a member card. */
export async function setCardFrozen(ctx: CallCtx, id: number, frozen: 0 | 1) {
  await mustFindMemberCard(ctx, id);
  await ctx.db
    .updateTable('memberCard')
    .set({ frozen })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}

/** Adds `amount` to a card's total (in the database, not read-then-write) and writes ledger `topup`. */
export async function topUpCard(ctx: CallCtx, id: number, amount: number) {
  await mustFindMemberCard(ctx, id);
  const storeId = ctx.store.id;
  await ctx.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('memberCard')
      .set((eb) => ({ totalCount: eb('totalCount', '+', amount) }))
      .where('storeId', '=', storeId)
      .where('id', '=', id)
      .execute();
    await tx
      .insertInto('cardLedger')
      .values({ storeId, memberCardId: id, kind: 'topup', amount, operatorId: ctx.staff.id, createdAt: storeNow(ctx) })
      .execute();
  });
  return null;
}

/** Moves a card's expiry to the end of the given day. */
export async function setCardExpiry(ctx: CallCtx, id: number, date: string) {
  await mustFindMemberCard(ctx, id);
  await ctx.db
    .updateTable('memberCard')
    .set({ expireTime: endOfDay(date) })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}

/** Every balance change of a card, newest first, with the operator's name. */
export async function cardLedger(ctx: CallCtx, id: number) {
  await mustFindMemberCard(ctx, id);
  return ctx.db
    .selectFrom('cardLedger as l')
    .leftJoin('staff as s', 's.id', 'l.operatorId')
    .select([
      'l.id',
      'l.kind',
      'l.amount',
      'l.reservationId',
      'l.timetableId',
      's.name as operator',
      'l.remark',
      'l.createdAt',
    ])
    .where('l.storeId', '=', ctx.store.id)
    .where('l.memberCardId', '=', id)
    .orderBy('l.id', 'desc')
    .execute();
}
