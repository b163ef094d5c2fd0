import { ContractMsg, MemberMsg } from '@studio/contract';
import type { CallCtx, StoreScope } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { loginCodeMessage, sendInBackground, smsSenderOf, textsToday, tooManyTextsToday } from '../messaging/public.ts';
import { findMember, memberIdByMobile } from '../reference/public.ts';
import { checkCodeTarget } from '../contracts/public.ts';
import { audit } from '../../lib/audit.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { admitCodeRequest, admitContractCode, issueCode, startMemberSession, verifyLogin } from './member-auth.ts';

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
  const sender = await readySender(ctx, store, 'login');
  await admitCodeRequest(ctx.db, { storeId: store.id, mobile: input.mobile, ip: ctx.req.ip, altcha: input.altcha });
  const memberId = await memberIdByMobile(ctx.db, store.id, input.mobile);
  if (memberId === undefined) return;
  const { code } = await issueCode(ctx.db, { storeId: store.id, memberId }, 'sms');
  sendInBackground(ctx.log, `login code of member ${memberId}`, () =>
    sender.send(input.mobile, loginCodeMessage(sender.loginTemplateId, code)),
  );
}

/** What a member is told without texts: to get a code at the desk to sign in, or to sign the contract there by hand. */
const NO_TEXT = {
  login: { none: MemberMsg.noProvider, cap: MemberMsg.smsCapReached },
  contract: { none: ContractMsg.noSms, cap: ContractMsg.smsCap },
};

/** The store's text sender, refused when it has none (409) or today's texts reached its cap (429). */
async function readySender(ctx: Pick<CallCtx, 'db' | 'config'>, store: StoreScope, purpose: keyof typeof NO_TEXT) {
  const sender = await smsSenderOf(ctx.db, ctx.config.outboundAllowHosts, store);
  if (!sender) throw conflict(NO_TEXT[purpose].none);
  // the sender read the setting (its cap): only today's count is read again
  if ((await textsToday(ctx.db, store)) >= sender.dailyCap) throw tooManyTextsToday(NO_TEXT[purpose].cap);
  return sender;
}

/**
 * Texts a code to sign a contract (issue 45) to the signed-in member's own mobile, as the sign-in
 * code is texted (the same template and limits per mobile); it signs, never signs in.
 */
async function sendContractCode(
  ctx: Pick<CallCtx, 'db' | 'config' | 'log'>,
  store: StoreScope,
  member: { id: number; mobile: string },
): Promise<void> {
  const sender = await readySender(ctx, store, 'contract');
  await admitContractCode(ctx.db, { storeId: store.id, mobile: member.mobile });
  const { code } = await issueCode(ctx.db, { storeId: store.id, memberId: member.id }, 'contract');
  sendInBackground(ctx.log, `contract code of member ${member.id}`, () =>
    sender.send(member.mobile, loginCodeMessage(sender.loginTemplateId, code)),
  );
}

/**
 * 电子合同 (issue 45): a code to sign, texted to the signed-in member for a product about to be bought
 * or their card's 待签约 contract (what it is for is checked by features/contracts first); 操作日志.
 */
export async function textContractCode(ctx: CallCtx, input: { productId?: number; mcId?: number }) {
  await checkCodeTarget(ctx, input);
  await sendContractCode(ctx, ctx.store, ctx.member);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    audit(tx, {
      kind: 'card',
      summary: '发送签署合同的短信验证码',
      target: '电子合同',
      targets: [
        { type: 'member', id: ctx.member.id },
        ...(input.mcId ? [{ type: 'card' as const, id: input.mcId }] : []),
        ...(input.productId ? [{ type: 'product' as const, id: input.productId }] : []),
      ],
    });
  });
  return null;
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
