import type { Executor, Tx } from '../../db/index.ts';
import { bindOpenid, memberContact } from './repository.ts';
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
