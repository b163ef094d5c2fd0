import { audit, changedFields } from '../../../lib/audit.ts';
import {
  Msg,
  RefMsg,
  type MemberCardRow,
  type ParsedReqOf,
  type insertMember,
  type memberList,
} from '@studio/contract';
import {
  cardLifeView,
  cardsSharedWith,
  cardUnusableReason,
  memberCards,
  sharersOf,
  startsAfter,
} from '../../cards/public.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict } from '../../../lib/errors.ts';
import { isUniqueViolation } from '../../../db/dialect.ts';
import { storeNow } from '../../../lib/time.ts';
import { requireCourse } from '../repository.ts';
import { addMember, changeMember, memberIdByMobile, memberPage, membersMatching, requireMember } from './repository.ts';

type MemberInput = ParsedReqOf<typeof insertMember>;
const SEARCH_LIMIT = 20;

/** Loads a member of the acting store or answers 404 会员不存在. */
export const mustFindMember = (ctx: CallCtx, id: number) => requireMember(ctx.db, ctx.store.id, id);

/** Up to 20 members matching a name or mobile fragment; the newest members when empty. */
export function searchMembers(ctx: CallCtx, param: string | null | undefined) {
  return membersMatching(ctx.db, ctx.store.id, param, SEARCH_LIMIT);
}

/** One page of members, newest first. */
export function listMembers(ctx: CallCtx, input: ParsedReqOf<typeof memberList>) {
  return memberPage(ctx.db, ctx.store.id, input);
}

function checkMember(ctx: CallCtx, input: MemberInput) {
  if (input.birthday && input.birthday > storeNow(ctx).slice(0, 10)) throw badRequest(RefMsg.birthdayFuture);
}

async function guardMobile(ctx: CallCtx, mobile: string, selfId?: number) {
  const holder = await memberIdByMobile(ctx.db, ctx.store.id, mobile);
  if (holder !== undefined && holder !== selfId) throw conflict(Msg.mobileTaken);
}

/** Adds a member; the mobile must be unused in the store (409 otherwise). */
export async function createMember(ctx: CallCtx, input: MemberInput) {
  checkMember(ctx, input);
  await guardMobile(ctx, input.mobile);
  try {
    const row = await addMember(ctx.db, { storeId: ctx.store.id, ...input, createdAt: storeNow(ctx) });
    audit(ctx.db, { kind: 'member', summary: `新增会员 ${input.name}`, targets: [{ type: 'member', id: row.id }] });
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.mobileTaken);
    throw e;
  }
}

/** Changes a member's name, mobile, gender and birthday. */
export async function editMember(ctx: CallCtx, input: MemberInput & { id: number }) {
  const { id, ...fields } = input;
  const before = await mustFindMember(ctx, id);
  checkMember(ctx, input);
  await guardMobile(ctx, fields.mobile, id);
  try {
    await changeMember(ctx.db, ctx.store.id, id, fields);
    audit(ctx.db, {
      kind: 'member',
      summary: `修改会员 ${fields.name}`,
      targets: [{ type: 'member', id }],
      ...changedFields(before, fields, { name: '姓名', mobile: '手机号', gender: '性别', birthday: '生日' }),
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.mobileTaken);
    throw e;
  }
  return null;
}

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
  const m = await mustFindMember(ctx, id);
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
  await mustFindMember(ctx, memberId);
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
    const reason = cardUnusableReason({
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
