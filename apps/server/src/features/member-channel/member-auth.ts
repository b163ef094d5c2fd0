import crypto from 'node:crypto';
import { LOGIN_CODE, MEMBER_SESSION_IDLE_MS, MemberMsg, type MemberIdentity } from '@studio/contract';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { reserve } from '../../auth/rate-limit.ts';
import { tokenHash } from '../../auth/sessions.ts';
import { tooMany, unauthorized } from '../../lib/errors.ts';
import {
  deleteExpiredMemberSessions,
  deleteMemberSession,
  deleteMemberSessionsOf,
  extendMemberSession,
  findMemberSession,
  insertLoginCode,
  insertMemberSession,
  latestLoginCode,
  markCodeUsed,
  takeCodeTry,
} from './member-auth-repository.ts';

/**
 * Who a member is: one-time login codes and member sessions (their own table and cookie; a staff
 * session is never a member's and the other way round). Every limit is kept in the database, so it
 * holds across instances: the code limits as counter rows reserved in one conditional upsert (the
 * staff login's `reserve`), wrong tries as a guarded UPDATE of the code's row.
 */

export function memberCookieName(secure: boolean): string {
  return secure ? '__Host-msid' : 'msid';
}

const codeHash = (memberId: number, code: string) =>
  crypto.createHash('sha256').update(`${memberId}:${code}`).digest('base64url');

/**
 * Makes a new 6-digit code for a member (the desk's, or one to send by SMS): at most one a minute and
 * LOGIN_CODE.perDay a day per member, counted whoever asks. An older live code stops working.
 */
export async function issueCode(
  db: Db,
  m: { storeId: number; memberId: number },
  source: 'sms' | 'desk',
  now = Date.now(),
): Promise<{ code: string; expiresAt: number }> {
  if (!(await reserve(db, `mc1:${m.memberId}`, 1, now, LOGIN_CODE.gapMs))) throw tooMany(MemberMsg.tooSoon);
  if (!(await reserve(db, `mcd:${m.memberId}`, LOGIN_CODE.perDay, now, 24 * 3600_000))) {
    throw tooMany(MemberMsg.tooMany);
  }
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
 * Checks a code against the member's newest one. Each attempt first takes one of the code's tries
 * in a guarded UPDATE (so five wrong tries on any number of instances end it), then a right code is
 * used once (a second guarded UPDATE): two logins with one code cannot both succeed.
 */
export async function verifyCode(db: Db, memberId: number, code: string, now = Date.now()): Promise<void> {
  const latest = await latestLoginCode(db, memberId);
  if (!latest) throw unauthorized(MemberMsg.codeDead);
  if (!(await takeCodeTry(db, latest.id, LOGIN_CODE.maxTries, now))) throw unauthorized(MemberMsg.codeDead);
  const right = crypto.timingSafeEqual(Buffer.from(latest.codeHash), Buffer.from(codeHash(memberId, code)));
  if (!right) throw unauthorized(MemberMsg.badCode);
  if (!(await markCodeUsed(db, latest.id, now))) throw unauthorized(MemberMsg.codeDead);
}

/** Starts a member session: its row, and its cookie on the answer. */
export async function startMemberSession(
  ctx: { db: Db; reply: FastifyReply; config: Config },
  m: { storeId: number; memberId: number },
): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await insertMemberSession(ctx.db, {
    id: tokenHash(token),
    memberId: m.memberId,
    storeId: m.storeId,
    createdAt: now,
    expiresAt: now + MEMBER_SESSION_IDLE_MS,
  });
  // Expired sessions are swept now and then, on login.
  if (Math.random() < 0.05) await deleteExpiredMemberSessions(ctx.db, now);
  ctx.reply.setCookie(memberCookieName(ctx.config.cookieSecure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.cookieSecure,
    maxAge: MEMBER_SESSION_IDLE_MS / 1000,
  });
}

/** Moves the idle expiry on at most this often (one write an hour, not one a call). */
const SLIDE_EVERY_MS = 3600_000;

/**
 * The member behind a session cookie, or undefined (no cookie, unknown, ended or idle too long).
 * Read on every call, so a logout or the desk's 退出该会员的登录 holds on every instance at once.
 */
export async function resolveMember(
  db: Db,
  token: string | undefined,
): Promise<(MemberIdentity & { storeId: number }) | undefined> {
  if (!token || token.length > 100) return undefined;
  const id = tokenHash(token);
  const now = Date.now();
  const row = await findMemberSession(db, id);
  if (!row || Number(row.expiresAt) <= now) return undefined;
  if (Number(row.expiresAt) - now < MEMBER_SESSION_IDLE_MS - SLIDE_EVERY_MS) {
    await extendMemberSession(db, id, now + MEMBER_SESSION_IDLE_MS);
  }
  return {
    storeId: row.storeId,
    member: { id: row.id, name: row.name, mobile: row.mobile },
    store: { id: row.storeId, name: row.storeName },
  };
}

export async function endMemberSession(db: Db, token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  await deleteMemberSession(db, tokenHash(token));
}

/** Ends every session of a member (the desk's 退出该会员的登录); how many ended. */
export async function endSessionsOf(db: Db, memberId: number): Promise<number> {
  return deleteMemberSessionsOf(db, memberId);
}
