import crypto from 'node:crypto';
import { LOGIN_CODE } from '@studio/contract';
import type { Executor } from '../db/index.ts';
import { insertLoginCode, liveLoginCodes, markCodeUsed, takeCodeTry } from './member-code-repository.ts';

/**
 * Members' one-time codes, the one code store (`member_login_code`, hashes only): made for a sign-in
 * (texted, or given by the desk: features/member-channel, which keeps the limits and texts them) or
 * to sign a contract (features/contracts takes them).
 */

/**
 * Where a code came from, and so what it is for: `sms` and `desk` sign a member in; `contract` signs a
 * contract (texted to a signed-in member, never a sign-in).
 */
export type CodeSource = 'sms' | 'desk' | 'contract';
export const SIGN_IN_SOURCES: CodeSource[] = ['sms', 'desk'];

export const codeHash = (memberId: number, code: string) =>
  crypto.createHash('sha256').update(`${memberId}:${code}`).digest('base64url');

/**
 * Makes a new 6-digit code for a member (the desk's, or one to text). An older live code of the same
 * source stops working. The caller keeps the limits: none for the desk, the door's for texts.
 */
export async function issueCode(
  db: Executor,
  m: { storeId: number; memberId: number },
  source: CodeSource,
  now = Date.now(),
): Promise<{ code: string; expiresAt: number }> {
  const code = String(crypto.randomInt(0, 10 ** LOGIN_CODE.digits)).padStart(LOGIN_CODE.digits, '0');
  const expiresAt = now + LOGIN_CODE.ttlMs;
  await insertLoginCode(db, {
    storeId: m.storeId,
    memberId: m.memberId,
    codeHash: codeHash(m.memberId, code),
    source,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  return { code, expiresAt };
}

/**
 * Whether `code` is the member's live contract code (texted by `issueCode(..., 'contract')`): a try
 * is taken from its row first (five in all), and a right code is used once (a guarded UPDATE).
 */
export async function takeContractCode(db: Executor, memberId: number, code: string, now = Date.now()) {
  const want = Buffer.from(codeHash(memberId, code));
  for (const c of await liveLoginCodes(db, memberId, now, ['contract'])) {
    if (!(await takeCodeTry(db, c.id, LOGIN_CODE.maxTries, now))) continue;
    if (!crypto.timingSafeEqual(Buffer.from(c.codeHash), want)) continue;
    return markCodeUsed(db, c.id, now);
  }
  return false;
}
