import type { Executor } from '../../db/index.ts';

/** The cached token row of a service account. */
export const tokenRow = (ex: Executor, appId: string) =>
  ex.selectFrom('wechatToken').selectAll().where('appId', '=', appId).executeTakeFirst();

export async function ensureTokenRow(ex: Executor, appId: string): Promise<void> {
  await ex
    .insertInto('wechatToken')
    .values({ appId })
    .onConflict((oc) => oc.column('appId').doNothing())
    .execute();
}

/** Takes the refresh for `leaseMs` unless another instance holds it: true for the one that takes it. */
export async function claimRefresh(ex: Executor, appId: string, now: number, leaseMs: number): Promise<boolean> {
  const res = await ex
    .updateTable('wechatToken')
    .set({ refreshingUntil: now + leaseMs })
    .where('appId', '=', appId)
    .where('refreshingUntil', '<', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function storeToken(ex: Executor, appId: string, token: string, expiresAt: number): Promise<void> {
  await ex
    .updateTable('wechatToken')
    .set({ accessToken: token, expiresAt, refreshingUntil: 0 })
    .where('appId', '=', appId)
    .execute();
}

export async function releaseRefresh(ex: Executor, appId: string): Promise<void> {
  await ex.updateTable('wechatToken').set({ refreshingUntil: 0 }).where('appId', '=', appId).execute();
}
