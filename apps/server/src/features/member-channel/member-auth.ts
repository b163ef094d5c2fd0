import crypto from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import {
  LOGIN_CODE,
  MEMBER_SESSION_IDLE_MS,
  MemberMsg,
  TRIAL_SIGNUP,
  TrialMsg,
  type MemberIdentity,
} from '@studio/contract';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { release, reserve, sweepCounters } from '../../auth/rate-limit.ts';
import { tokenHash } from '../../auth/sessions.ts';
import { FOREVER, taggedCache } from '../../lib/cache.ts';
import { badRequest, tooMany, unauthorized } from '../../lib/errors.ts';
import { codeHash, SIGN_IN_SOURCES } from '../../auth/member-codes.ts';

/** The codes themselves are the one code store of auth/member-codes.ts; the door and limits are here. */
export { issueCode } from '../../auth/member-codes.ts';
import {
  appSecret,
  deleteExpiredMemberSessions,
  deleteMemberSession,
  deleteMemberSessionsOf,
  extendMemberSession,
  findMemberSession,
  insertAppSecretIfAbsent,
  insertMemberSession,
  liveLoginCodes,
  markCodeUsed,
  takeCodeTry,
} from './member-auth-repository.ts';

/**
 * Who a member is: one-time login codes and member sessions (their own table and cookie; a staff
 * session is never a member's and the other way round). Every limit is kept in the database, so it
 * holds across instances: the limits as counter rows reserved in one conditional upsert each (the
 * staff login's `reserve`), a texted code's wrong tries as a guarded UPDATE of the code's row.
 *
 * The public door (issue 32): a code request answers the same for every well-formed mobile, and the
 * per-mobile limits are kept per typed mobile, member or not, so nothing tells members from
 * strangers; one address has a free allowance of requests, then needs a solved proof-of-work
 * challenge for each; wrong logins are limited per address. The desk's codes are outside all of it:
 * not limited by what strangers did, and not ended by their guesses.
 */

export function memberCookieName(secure: boolean): string {
  return secure ? '__Host-msid' : 'msid';
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A public door: the code requests (prefix `m`, the keys kept since issue 32) or the trial sign-ups
 * (`t`, issue 44): its own counters and words, the same machinery and the address's allowances.
 */
export interface PublicDoor {
  prefix: 'm' | 't' | 'k';
  gapMs: number;
  perDay: number;
  /** A store's requests an hour without a solved challenge; null: no such limit (texts have the store's cap). */
  storePerHour: number | null;
  msg: { needChallenge: string; tooSoon: string; tooMany: string };
}

const codeDoor: PublicDoor = {
  prefix: 'm',
  gapMs: LOGIN_CODE.gapMs,
  perDay: LOGIN_CODE.perDay,
  storePerHour: null,
  msg: { needChallenge: MemberMsg.needChallenge, tooSoon: MemberMsg.tooSoon, tooMany: MemberMsg.tooMany },
};

/** Codes to sign a contract (issue 45): a signed-in member's, limited per mobile like the sign-in codes. */
const contractCodeDoor: PublicDoor = { ...codeDoor, prefix: 'k' };

/** The door of the public 体验课报名 (leads). */
export const trialDoor: PublicDoor = {
  prefix: 't',
  gapMs: TRIAL_SIGNUP.gapMs,
  perDay: TRIAL_SIGNUP.perDay,
  storePerHour: TRIAL_SIGNUP.storeFreePerHour,
  msg: { needChallenge: TrialMsg.needChallenge, tooSoon: TrialMsg.tooSoon, tooMany: TrialMsg.tooMany },
};

/** The counters of the door, one row each in `login_counter`. */
const keys = {
  /** A typed mobile of a store: one request a gap, `perDay` a day (members and strangers alike). */
  mobileGap: (p: string, storeId: number, mobile: string) => `${p}c1:${storeId}:${mobile}`,
  mobileDay: (p: string, storeId: number, mobile: string) => `${p}cd:${storeId}:${mobile}`,
  /** An address's free requests (without a solved challenge). */
  addressHour: (p: string, ip: string) => `${p}ca:h:${ip}`,
  addressDay: (p: string, ip: string) => `${p}ca:d:${ip}`,
  /** A store's free requests of the hour (doors with `storePerHour`). */
  storeHour: (p: string, storeId: number) => `${p}cs:h:${storeId}`,
  /** An address's wrong logins. */
  addressLogin: (ip: string) => `mli:${ip}`,
  /** Wrong tries on one desk code from one address. */
  deskCodeTry: (codeId: number, ip: string) => `mct:${codeId}:${ip}`,
  /** A solved challenge, used once. */
  challenge: (signature: string) => `alt:${signature}`,
};

/**
 * An installation secret by name (the challenges' HMAC key, the referral codes' key, the unsubscribe
 * links' and reply addresses' key): one per
 * installation, shared by every instance through the database; kept per database handle once read
 * (it never changes: `FOREVER`).
 */
const installationSecrets = taggedCache<string>({ max: 4 });
export function installationSecret(db: Db, name: 'altcha' | 'referral' | 'unsubscribe'): Promise<string> {
  return installationSecrets.get(db, name, FOREVER, async () => {
    const kept = await appSecret(db, name);
    if (kept) return kept;
    await insertAppSecretIfAbsent(db, name, crypto.randomBytes(32).toString('base64url'));
    return (await appSecret(db, name))!;
  });
}
const challengeKey = (db: Db) => installationSecret(db, 'altcha');

/** A new proof-of-work challenge (ALTCHA v1, SHA-256), valid for `challengeTtlMs`. */
export async function newChallenge(db: Db, now = Date.now()) {
  const c = await createChallenge({
    hmacKey: await challengeKey(db),
    maxNumber: LOGIN_CODE.challengeMaxNumber,
    expires: new Date(now + LOGIN_CODE.challengeTtlMs),
  });
  return { ...c, maxnumber: c.maxnumber ?? LOGIN_CODE.challengeMaxNumber };
}

/** The signature of a widget's payload (base64 JSON), or undefined when it is not one. */
function payloadSignature(payload: string): string | undefined {
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { signature?: unknown };
    return typeof p.signature === 'string' && /^[0-9a-f]{64}$/.test(p.signature) ? p.signature : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `payload` solves a challenge of ours that has not expired and was not used before (the
 * first use takes it, in one upsert, on any instance).
 */
async function solvedOnce(db: Db, payload: string, now: number): Promise<boolean> {
  const signature = payloadSignature(payload);
  if (!signature) return false;
  let ok = false;
  try {
    ok = await verifySolution(payload, await challengeKey(db), true);
  } catch {
    ok = false;
  }
  return ok && reserve(db, keys.challenge(signature), 1, now, LOGIN_CODE.challengeTtlMs);
}

/**
 * Lets a request from `ip` through the door: a solved challenge, or one of the address's free
 * requests of the hour and of the day (and of the store's hour, for a door with one); otherwise 429
 * asking for the challenge (the allowances taken are given back).
 */
async function passAddress(
  db: Db,
  door: PublicDoor,
  r: { storeId: number; ip: string; altcha?: string },
  now: number,
): Promise<void> {
  if (r.altcha) {
    if (!(await solvedOnce(db, r.altcha, now))) throw badRequest(MemberMsg.badChallenge);
    return;
  }
  const p = door.prefix;
  const allowances: [string, number, number][] = [
    [keys.addressHour(p, r.ip), LOGIN_CODE.freePerHour, HOUR_MS],
    [keys.addressDay(p, r.ip), LOGIN_CODE.freePerDay, DAY_MS],
  ];
  if (door.storePerHour !== null) allowances.push([keys.storeHour(p, r.storeId), door.storePerHour, HOUR_MS]);
  const taken: string[] = [];
  for (const [key, limit, window] of allowances) {
    if (!(await reserve(db, key, limit, now, window))) {
      for (const k of taken) await release(db, k);
      throw tooMany(door.msg.needChallenge);
    }
    taken.push(key);
  }
}

/**
 * A door's request, before anything is looked up: the address (allowance or challenge), then the
 * typed mobile's own limits, which strangers' numbers meet exactly as members' do.
 */
export async function admitPublicRequest(
  db: Db,
  door: PublicDoor,
  r: { storeId: number; mobile: string; ip: string; altcha?: string },
  now = Date.now(),
): Promise<void> {
  await passAddress(db, door, r, now);
  await admitMobile(db, door, r, now);
}

/** A mobile's own limits at a door: one request a gap, `perDay` a day. */
async function admitMobile(db: Db, door: PublicDoor, r: { storeId: number; mobile: string }, now: number) {
  const p = door.prefix;
  if (!(await reserve(db, keys.mobileGap(p, r.storeId, r.mobile), 1, now, door.gapMs))) {
    throw tooMany(door.msg.tooSoon);
  }
  if (!(await reserve(db, keys.mobileDay(p, r.storeId, r.mobile), door.perDay, now, DAY_MS))) {
    throw tooMany(door.msg.tooMany);
  }
  await sweepCounters(db, now);
}

/** A signed-in member's request of a contract code: their mobile's limits (the sign-in codes' numbers). */
export const admitContractCode = (db: Db, r: { storeId: number; mobile: string }, now = Date.now()) =>
  admitMobile(db, contractCodeDoor, r, now);

/** The door of a code request (`admitPublicRequest` with the code door). */
export const admitCodeRequest = (
  db: Db,
  r: { storeId: number; mobile: string; ip: string; altcha?: string },
  now = Date.now(),
): Promise<void> => admitPublicRequest(db, codeDoor, r, now);

/**
 * Checks a login from `ip`: one of the address's wrong-login slots is reserved first (given back on
 * success), then the code is compared with each of the member's live codes (a texted one and one
 * from the desk may both be live). A try is taken before each comparison: a texted code's from its
 * row (five in all, on any instance), a desk code's per address (five each, so guesses from another
 * address never end it). A right code is used once (a guarded UPDATE): two logins with one code
 * cannot both succeed. Every wrong case answers the same 401.
 */
export async function verifyLogin(
  db: Db,
  r: { memberId: number | undefined; code: string; ip: string },
  now = Date.now(),
): Promise<number> {
  if (!(await reserve(db, keys.addressLogin(r.ip), LOGIN_CODE.loginPerAddress, now, LOGIN_CODE.loginWindowMs))) {
    throw tooMany(MemberMsg.loginLocked);
  }
  const wrong = unauthorized(MemberMsg.badCode);
  if (r.memberId === undefined) throw wrong;
  const want = Buffer.from(codeHash(r.memberId, r.code));
  for (const c of await liveLoginCodes(db, r.memberId, now, SIGN_IN_SOURCES)) {
    const tried =
      c.source === 'desk'
        ? await reserve(db, keys.deskCodeTry(c.id, r.ip), LOGIN_CODE.maxTries, now, LOGIN_CODE.ttlMs)
        : await takeCodeTry(db, c.id, LOGIN_CODE.maxTries, now);
    if (!tried || !crypto.timingSafeEqual(Buffer.from(c.codeHash), want)) continue;
    if (!(await markCodeUsed(db, c.id, now))) throw wrong;
    await release(db, keys.addressLogin(r.ip));
    return r.memberId;
  }
  throw wrong;
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
): Promise<(MemberIdentity & { storeId: number; sessionId: string }) | undefined> {
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
    sessionId: id,
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
