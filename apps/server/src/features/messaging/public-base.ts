import type { CallCtx } from '../../lib/context.ts';
import { getSetting } from '../store-admin/public.ts';

/** The store setting holding the members' page public base address (门店设置 → 会员约课页面). */
export const BASE_KEY = 'memberPublicBaseUrl';

/**
 * The address people reach the store's pages at: the base the manager set, else the address this
 * request came in on. Every link handed out (the members' page, calendar feeds) starts with it.
 */
export async function publicBaseOf(ctx: Pick<CallCtx, 'db' | 'store' | 'req'>) {
  const publicBaseUrl = (await getSetting(ctx.db, ctx.store.id, BASE_KEY)) ?? '';
  return { publicBaseUrl, base: publicBaseUrl || `${ctx.req.protocol}://${ctx.req.host}` };
}
