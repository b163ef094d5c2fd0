import crypto from 'node:crypto';
import type { Executor } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { getSetting, insertSettingIfAbsent, putSetting } from '../store-admin/public.ts';

/**
 * The store's self check-in code: an HMAC of the store and the local date under a secret kept in
 * store settings, so it changes every day by itself and at once when the desk resets it (a new
 * secret). Nothing is stored per day; every instance computes the same token.
 */
const SECRET_KEY = 'checkinSecret';

async function secretOf(ex: Executor, storeId: number, reset = false): Promise<string> {
  const fresh = crypto.randomBytes(24).toString('base64url');
  if (reset) {
    await putSetting(ex, storeId, SECRET_KEY, fresh);
    return fresh;
  }
  const kept = await getSetting(ex, storeId, SECRET_KEY);
  if (kept) return kept;
  // The first one made wins when two instances make it at once: both then read the same.
  await insertSettingIfAbsent(ex, storeId, SECRET_KEY, fresh);
  return (await getSetting(ex, storeId, SECRET_KEY)) ?? fresh;
}

const tokenFor = (secret: string, storeId: number, date: string) =>
  crypto.createHmac('sha256', secret).update(`${storeId}:${date}`).digest('base64url').slice(0, 20);

/** Today's token and when it stops working (the store's midnight). */
export async function checkinCode(ex: Executor, store: StoreScope, reset = false) {
  const today = localDateTime(store.timezone).slice(0, 10);
  const token = tokenFor(await secretOf(ex, store.id, reset), store.id, today);
  return { token, expireTime: `${addDays(today, 1)} 00:00:00` };
}

/** Whether `token` is the store's token of today. */
export async function checkinTokenValid(ex: Executor, store: StoreScope, token: string): Promise<boolean> {
  const secret = await getSetting(ex, store.id, SECRET_KEY);
  if (!secret) return false;
  const want = Buffer.from(tokenFor(secret, store.id, localDateTime(store.timezone).slice(0, 10)));
  const got = Buffer.from(token);
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}
