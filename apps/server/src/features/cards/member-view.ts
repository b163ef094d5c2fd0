import type { MemberCardRow } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { storeNow } from '../../lib/time.ts';
import { requireCourse, requireMember } from '../reference/public.ts';
import { cardLifeView } from './activation.ts';
import { memberCards, sharersOf, cardsSharedWith } from './repository.ts';
import { newBookingCardReason, startsAfter } from './rules.ts';

/**
 * A member's cards as the desk's member screens show them: the member with every card they hold
 * (会员详情), and the cards that can pay for a course (the card picker of a booking).
 */

type CardOfMember = Awaited<ReturnType<typeof memberCards>>[number];

/**
 * A card as the desk's member screens show it (the contract's MemberCardRow), field by field: the
 * row read for the card rules also carries what only the rules need (the product's leave and
 * activation settings, the leave periods as stored), which stays inside.
 */
function cardRow(c: CardOfMember, sharedWith: MemberCardRow['sharedWith']): MemberCardRow {
  return {
    id: c.id,
    cardId: c.cardId,
    cardName: c.cardName,
    bigType: c.bigType,
    cardType: c.cardType,
    perCount: c.perCount,
    totalCount: c.totalCount,
    usedCount: c.usedCount,
    expireTime: c.expireTime,
    frozen: c.frozen,
    refundedAt: c.refundedAt,
    createdAt: c.createdAt,
    ...cardLifeView(c),
    sharedWith,
    shareMax: c.shareMax,
  };
}

/** A member with every card they hold, and the cards others share with them (多人共享). */
export async function memberWithCards(ctx: CallCtx, id: number) {
  const m = await requireMember(ctx.db, ctx.store.id, id);
  const [cards, sharedCards] = await Promise.all([
    memberCards(ctx.db, ctx.store.id, id),
    cardsSharedWith(ctx.db, ctx.store.id, id),
  ]);
  const sharers = await sharersOf(
    ctx.db,
    ctx.store.id,
    cards.map((c) => c.id),
  );
  return {
    ...m,
    sharedCards,
    cards: cards.map((c) => cardRow(c, sharers.get(c.id)!)),
  };
}

/**
 * The member's cards for the card picker of a course: each says whether it can book one seat
 * of the course now (card rules of features/cards/rules.ts, allowed = the course's card products).
 */
export async function cardsForCourse(ctx: CallCtx, memberId: number, courseId: number) {
  await requireMember(ctx.db, ctx.store.id, memberId);
  const { cardIds: allowedCardIds } = await requireCourse(ctx.db, ctx.store.id, courseId);
  const cards = await memberCards(ctx.db, ctx.store.id, memberId, { withShared: true });
  const sharers = await sharersOf(
    ctx.db,
    ctx.store.id,
    cards.map((c) => c.id),
  );
  const at = storeNow(ctx);
  return cards.map((card) => {
    // A card that starts later (指定日期开卡) is judged at its start: the classes it books come then.
    const reason = newBookingCardReason({
      card,
      product: card,
      memberId,
      allowedCardIds,
      at: startsAfter(card, at) ? card.activateTime! : at,
      studentCount: 1,
    });
    // A card shared with the member (多人共享) names its holder.
    const holder = card.memberId === memberId ? null : card.holderName;
    const row = { ...cardRow(card, sharers.get(card.id)!), holder };
    return reason ? { ...row, usable: false, reason } : { ...row, usable: true };
  });
}
