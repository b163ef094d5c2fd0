import crypto from 'node:crypto';
import { audit } from '../../lib/audit.ts';
import { CHECKIN_MODE_LABEL, CHECKIN_MODES, type CheckinMode } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { getSetting, insertSettingIfAbsent, putSetting } from '../store-admin/public.ts';

/**
 * The store's self check-in code, an HMAC under a secret kept in store settings; nothing is stored
 * per code, every instance computes the same one. Two ways (签到方式, store setting `checkinMode`):
 * - `screen` (the default): a screen at the desk shows a code of the current minute (Unix time / 60 s,
 *   a time step as in TOTP); the current and the previous minute's codes are accepted, so a photo
 *   of the screen is useless two minutes later;
 * - `poster`: a printed code of the store's local date, valid all day.
 * Resetting makes a new secret: every code shown or printed before stops at once.
 */
const SECRET_KEY = 'checkinSecret';
const MODE_KEY = 'checkinMode';
const STEP_MS = 60_000;

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

/** The token of a period: `d:<local date>` (poster) or `m:<minute number>` (screen). */
export const tokenFor = (secret: string, storeId: number, period: string) =>
  crypto.createHmac('sha256', secret).update(`${storeId}:${period}`).digest('base64url').slice(0, 20);

const minuteOf = (at: number) => Math.floor(at / STEP_MS);
const dayPeriod = (store: StoreScope, at: number) => localDateTime(store.timezone, at).slice(0, 10);

/** The store's 签到方式 (screen unless set to poster). */
export async function checkinModeOf(ex: Executor, storeId: number): Promise<CheckinMode> {
  const v = await getSetting(ex, storeId, MODE_KEY);
  return (CHECKIN_MODES as readonly string[]).includes(v ?? '') ? (v as CheckinMode) : 'screen';
}

export async function saveCheckinMode(ex: Executor, storeId: number, mode: CheckinMode): Promise<void> {
  await putSetting(ex, storeId, MODE_KEY, mode);
  audit(ex, { kind: 'settings', target: '签到方式', after: { 签到方式: CHECKIN_MODE_LABEL[mode] } });
}

/**
 * The code to show now and when to show the next: screen, this minute's (the next minute's code
 * replaces it); poster, today's (until the store's midnight).
 */
export async function checkinCode(ex: Executor, store: StoreScope, reset = false, at = Date.now()) {
  const mode = await checkinModeOf(ex, store.id);
  const secret = await secretOf(ex, store.id, reset);
  if (mode === 'screen') {
    const minute = minuteOf(at);
    return {
      mode,
      token: tokenFor(secret, store.id, `m:${minute}`),
      expireTime: localDateTime(store.timezone, (minute + 1) * STEP_MS),
    };
  }
  const today = dayPeriod(store, at);
  return { mode, token: tokenFor(secret, store.id, `d:${today}`), expireTime: `${addDays(today, 1)} 00:00:00` };
}

/** Whether `token` is a code the store accepts now: by its 签到方式, this or the last minute's, or today's. */
export async function checkinTokenValid(
  ex: Executor,
  store: StoreScope,
  token: string,
  at = Date.now(),
): Promise<boolean> {
  const secret = await getSetting(ex, store.id, SECRET_KEY);
  if (!secret) return false;
  const mode = await checkinModeOf(ex, store.id);
  const periods = mode === 'screen' ? [`m:${minuteOf(at)}`, `m:${minuteOf(at) - 1}`] : [`d:${dayPeriod(store, at)}`];
  const got = Buffer.from(token);
  return periods.some((p) => {
    const want = Buffer.from(tokenFor(secret, store.id, p));
    return want.length === got.length && crypto.timingSafeEqual(want, got);
  });
}
