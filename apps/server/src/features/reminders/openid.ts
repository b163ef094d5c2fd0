import crypto from 'node:crypto';
import { NotifyMsg, WECHAT_STATE_TTL_MS } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { bindOpenid, insertWechatState, memberContact, takeWechatState } from './repository.ts';
import { loadNotifySetting, wechatAccount } from './setting.ts';

/**
 * The member's WeChat openid, kept once (`member.wechat_openid`): it is the openid under the store's
 * service account (公众号, the reminders' setting), bound by the member's 绑定微信 or by WeChat Pay's
 * JSAPI after a code of that same app. An openid means something under one app only, so both
 * functions speak of an app: a binding is used, or made, only when `appId` is the service account's.
 */
async function isServiceAccount(ex: Executor, storeId: number, appId: string): Promise<boolean> {
  const account = wechatAccount(await loadNotifySetting(ex, storeId));
  return Boolean(appId) && account?.appId === appId;
}

/** The member's bound openid under `appId`, or null (none bound, or `appId` is not the store's service account). */
export async function memberOpenidUnder(
  ex: Executor,
  storeId: number,
  memberId: number,
  appId: string,
): Promise<string | null> {
  if (!(await isServiceAccount(ex, storeId, appId))) return null;
  return (await memberContact(ex, storeId, memberId))?.wechatOpenid ?? null;
}

/**
 * Binds an openid WeChat gave under `appId` to the member (the caller's transaction and audit entry),
 * when `appId` is the store's service account; answers whether it did.
 */
export async function bindMemberOpenidUnder(
  tx: Tx,
  storeId: number,
  memberId: number,
  appId: string,
  openid: string,
): Promise<boolean> {
  if (!(await isServiceAccount(tx, storeId, appId))) return false;
  await bindOpenid(tx, storeId, memberId, openid);
  return true;
}

/**
 * A state for WeChat's web authorisation, given to the member's session (issue 42, item 8): random,
 * used once, valid for WECHAT_STATE_TTL_MS. The code WeChat sends back counts only with it.
 */
export async function issueWechatState(ctx: CallCtx): Promise<{ state: string }> {
  const state = crypto.randomBytes(18).toString('base64url');
  const now = Date.now();
  await insertWechatState(
    ctx.db,
    {
      state,
      sessionId: ctx.memberSessionId,
      storeId: ctx.store.id,
      memberId: ctx.member.id,
      expiresAt: now + WECHAT_STATE_TTL_MS,
    },
    now,
  );
  return { state };
}

/**
 * Takes the state a code came back with, once: one this member's session was given and not yet used
 * or expired; any other (missing, another's, used, expired) answers 400 微信授权已失效 and the code binds nothing.
 */
export async function useWechatState(ctx: CallCtx, state: string | undefined): Promise<void> {
  const taken =
    state !== undefined &&
    (await takeWechatState(
      ctx.db,
      { state, sessionId: ctx.memberSessionId, storeId: ctx.store.id, memberId: ctx.member.id },
      Date.now(),
    ));
  if (!taken) throw badRequest(NotifyMsg.stateExpired);
}
