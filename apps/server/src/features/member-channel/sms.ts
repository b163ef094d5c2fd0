import type { CallCtx } from '../../lib/context.ts';
import { getSetting } from '../store-admin/public.ts';

/** Sends a login code to a mobile through the store's SMS provider. */
export interface SmsSender {
  send(mobile: string, code: string): Promise<void>;
}

/** The store setting holding its SMS provider (kept on the server; never answered in full). */
export const SMS_SETTING_KEY = 'smsProvider';

/**
 * The store's SMS sender, or null when it has none configured (then the desk gives members their
 * login codes from the member drawer). Provider adapters: see the note on what is missing.
 */
export async function smsSenderOf(ctx: Pick<CallCtx, 'db'>, storeId: number): Promise<SmsSender | null> {
  const raw = await getSetting(ctx.db, storeId, SMS_SETTING_KEY);
  if (!raw) return null;
  return null;
}
