import { audit, changedFields } from '../../../lib/audit.ts';
import { Msg, RefMsg, type ParsedReqOf, type insertMember, type memberList } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict } from '../../../lib/errors.ts';
import { isUniqueViolation } from '../../../db/dialect.ts';
import { storeNow } from '../../../lib/time.ts';
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
