import { audit } from '../../../lib/audit.ts';
import { Msg, RefMsg, type ParsedReqOf, type insertMember, type memberList } from '@studio/contract';
import { cardUnusableReason } from '../../card/rules.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { isUniqueViolation } from '../../../db/dialect.ts';
import { storeNow } from '../shared.ts';
import { memberCards, requireMember, memberIdByMobile, memberQuery, selectMembers } from './queries.ts';

type MemberInput = ParsedReqOf<typeof insertMember>;
const SEARCH_LIMIT = 20;

/** Loads a member of the acting store or answers 404 会员不存在. */
export const mustFindMember = (ctx: CallCtx, id: number) => requireMember(ctx.db, ctx.store.id, id);

/** Up to 20 members matching a name or mobile fragment; the newest members when empty. */
export function searchMembers(ctx: CallCtx, param: string | null | undefined) {
  return selectMembers(memberQuery(ctx.db, ctx.store.id, param))
    .limit(SEARCH_LIMIT)
    .execute();
}

/** One page of members, newest first. */
export async function listMembers(ctx: CallCtx, input: ParsedReqOf<typeof memberList>) {
  const q = memberQuery(ctx.db, ctx.store.id, input.param);
  const [list, total] = await Promise.all([
    selectMembers(q)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
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
    const row = await ctx.db
      .insertInto('member')
      .values({ storeId: ctx.store.id, ...input, createdAt: storeNow(ctx) })
      .returning('id')
      .executeTakeFirstOrThrow();
    audit(ctx.db, { summary: `新增会员 ${input.name}`, targets: [{ type: 'member', id: row.id }] });
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.mobileTaken);
    throw e;
  }
}

/** Changes a member's name, mobile, gender and birthday. */
export async function editMember(ctx: CallCtx, input: MemberInput & { id: number }) {
  const { id, ...fields } = input;
  await mustFindMember(ctx, id);
  checkMember(ctx, input);
  await guardMobile(ctx, fields.mobile, id);
  try {
    await ctx.db.updateTable('member').set(fields).where('storeId', '=', ctx.store.id).where('id', '=', id).execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.mobileTaken);
    throw e;
  }
  return null;
}

/** A member with every card they hold. */
export async function memberWithCards(ctx: CallCtx, id: number) {
  const m = await mustFindMember(ctx, id);
  const cards = await memberCards(ctx.db, ctx.store.id, id);
  return { ...m, cards: cards.map(({ memberId: _m, ...c }) => c) };
}

/**
 * The member's cards for the card picker of a course: each says whether it can book one seat
 * of the course now (card rules of features/card/rules.ts, allowed = the course's card products).
 */
export async function cardsForCourse(ctx: CallCtx, memberId: number, courseId: number) {
  await mustFindMember(ctx, memberId);
  const course = await ctx.db
    .selectFrom('course')
    .select('id')
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', courseId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!course) throw notFound('课程');
  const [cards, allowed] = await Promise.all([
    memberCards(ctx.db, ctx.store.id, memberId),
    ctx.db.selectFrom('courseCard').select('cardId').where('courseId', '=', courseId).execute(),
  ]);
  const allowedCardIds = allowed.map((a) => a.cardId);
  const at = storeNow(ctx);
  return cards.map(({ memberId: _m, ...card }) => {
    const reason = cardUnusableReason({
      card: { ...card, memberId },
      product: card,
      memberId,
      allowedCardIds,
      at,
      studentCount: 1,
    });
    return reason ? { ...card, usable: false, reason } : { ...card, usable: true };
  });
}
