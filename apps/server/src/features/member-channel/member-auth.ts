import crypto from 'node:crypto';
import { LOGIN_CODE, MEMBER_SESSION_IDLE_MS, MemberMsg, type MemberIdentity } from '@studio/contract';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/index.ts';
import { reserve } from '../../auth/rate-limit.ts';
import { tokenHash } from '../../auth/sessions.ts';
import { tooMany, unauthorized } from '../../lib/errors.ts';

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

/** A member of the store by mobile, or undefined. */
export async function memberByMobile(db: Executor, storeId: number, mobile: string) {
  return db
    .selectFrom('member')
    .select(['id', 'name', 'mobile'])
    .where('storeId', '=', storeId)
    .where('mobile', '=', mobile)
    .executeTakeFirst();
}

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
  await db
    .insertInto('memberLoginCode')
    .values({
      storeId: m.storeId,
      memberId: m.memberId,
      codeHash: codeHash(m.memberId, code),
      source,
      createdAt: now,
      expiresAt,
      usedAt: null,
    })
    .execute();
  return { code, expiresAt };
}

/**
 * Checks a code against the member's newest one. Each attempt first takes one of the code's tries
 * in a guarded UPDATE (so five wrong tries on any number of instances end it), then a right code is
 * used once (a second guarded UPDATE): two logins with one code cannot both succeed.
 */
export async function verifyCode(db: Db, memberId: number, code: string, now = Date.now()): Promise<void> {
  const latest = await db
    .selectFrom('memberLoginCode')
    .select(['id', 'codeHash'])
    .where('memberId', '=', memberId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) throw unauthorized(MemberMsg.codeDead);
  const tried = await db
    .updateTable('memberLoginCode')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', latest.id)
    .where('tries', '<', LOGIN_CODE.maxTries)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  if (Number(tried.numUpdatedRows) !== 1) throw unauthorized(MemberMsg.codeDead);
  const right = crypto.timingSafeEqual(Buffer.from(latest.codeHash), Buffer.from(codeHash(memberId, code)));
  if (!right) throw unauthorized(MemberMsg.badCode);
  const used = await db
    .updateTable('memberLoginCode')
    .set({ usedAt: now })
    .where('id', '=', latest.id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw unauthorized(MemberMsg.codeDead);
}

/** Starts a member session: its row, and its cookie on the answer. */
export async function startMemberSession(
  ctx: { db: Db; reply: FastifyReply; config: Config },
  m: { storeId: number; memberId: number },
): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await ctx.db
    .insertInto('memberSession')
    .values({
      id: tokenHash(token),
      memberId: m.memberId,
      storeId: m.storeId,
      createdAt: now,
      expiresAt: now + MEMBER_SESSION_IDLE_MS,
    })
    .execute();
  if (Math.random() < 0.05) await ctx.db.deleteFrom('memberSession').where('expiresAt', '<', now).execute();
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
  const row = await db
    .selectFrom('memberSession as s')
    .innerJoin('member as m', 'm.id', 's.memberId')
    .innerJoin('store as st', 'st.id', 's.storeId')
    .select(['s.expiresAt', 's.storeId', 'm.id', 'm.name', 'm.mobile', 'st.name as storeName'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row || Number(row.expiresAt) <= now) return undefined;
  if (Number(row.expiresAt) - now < MEMBER_SESSION_IDLE_MS - SLIDE_EVERY_MS) {
    await db
      .updateTable('memberSession')
      .set({ expiresAt: now + MEMBER_SESSION_IDLE_MS })
      .where('id', '=', id)
      .execute();
  }
  return {
    storeId: row.storeId,
    member: { id: row.id, name: row.name, mobile: row.mobile },
    store: { id: row.storeId, name: row.storeName },
  };
}

export async function endMemberSession(db: Db, token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  await db.deleteFrom('memberSession').where('id', '=', tokenHash(token)).execute();
}

/** Ends every session of a member (the desk's 退出该会员的登录); how many ended. */
export async function endSessionsOf(db: Db, memberId: number): Promise<number> {
  const res = await db.deleteFrom('memberSession').where('memberId', '=', memberId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
