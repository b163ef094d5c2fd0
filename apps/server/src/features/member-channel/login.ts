import { MemberMsg } from '@studio/contract';
import type { CallCtx, StoreScope } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { loginCodeMessage, sendInBackground, smsSenderOf, textsToday, tooManyTextsToday } from '../messaging/public.ts';
import { findMember, memberIdByMobile } from '../reference/public.ts';
import { admitCodeRequest, issueCode, startMemberSession, verifyLogin } from './member-auth.ts';

/**
 * A member's sign-in on the phone: a code by text message (the public door), then the code for a
 * session. The door answers the same for every well-formed mobile, member or not; the text goes out
 * after the answer.
 */

/**
 * Sends a sign-in code to `mobile` when it is a member's of the store: refused when the store has no
 * text provider (409), when today's texts reached the store's cap, or when the address or mobile asked
 * too often without a solved challenge (429, `admitCodeRequest`).
 */
export async function sendLoginCode(
  ctx: Pick<CallCtx, 'db' | 'config' | 'log' | 'req'>,
  store: StoreScope,
  input: { mobile: string; altcha?: string },
): Promise<void> {
  const sender = await smsSenderOf(ctx.db, ctx.config.outboundAllowHosts, store);
  if (!sender) throw conflict(MemberMsg.noProvider);
  // the sender read the setting (its cap): only today's count is read again
  if ((await textsToday(ctx.db, store)) >= sender.dailyCap) throw tooManyTextsToday();
  await admitCodeRequest(ctx.db, { storeId: store.id, mobile: input.mobile, ip: ctx.req.ip, altcha: input.altcha });
  const memberId = await memberIdByMobile(ctx.db, store.id, input.mobile);
  if (memberId === undefined) return;
  const { code } = await issueCode(ctx.db, { storeId: store.id, memberId }, 'sms');
  sendInBackground(ctx.log, `login code of member ${memberId}`, () =>
    sender.send(input.mobile, loginCodeMessage(sender.loginTemplateId, code)),
  );
}

/** Signs a member in with the code sent (or given at the desk): starts their session and answers who they are. */
export async function signIn(ctx: CallCtx, store: StoreScope, input: { mobile: string; code: string }) {
  const memberId = await verifyLogin(ctx.db, {
    memberId: await memberIdByMobile(ctx.db, store.id, input.mobile),
    code: input.code,
    ip: ctx.req.ip,
  });
  await startMemberSession(ctx, { storeId: store.id, memberId });
  const m = (await findMember(ctx.db, store.id, memberId))!;
  return { member: { id: m.id, name: m.name, mobile: m.mobile }, store: { id: store.id, name: store.name } };
}
