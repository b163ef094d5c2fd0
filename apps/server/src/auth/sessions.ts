import crypto from 'node:crypto';
import type { Db, Executor } from '../db/index.ts';
import type { StaffRole } from '@studio/contract';
import type { StaffIdentity } from './identity.ts';
import {
  deleteExpiredStaffSessions,
  deleteStaffSession,
  deleteStaffSessionsOf,
  enabledPostsOf,
  expireStaffSessionsOf,
  findStaff,
  findStaffSession,
  insertStaffSession,
  trimStaffSessions,
} from './repository.ts';

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Live sessions per staff member; a new login ends the oldest beyond this. */
export const MAX_SESSIONS_PER_STAFF = 10;
/** How long an ended session's row is kept before the sweep (a call with it is told why it ended). */
const ENDED_KEPT_MS = 24 * 3600 * 1000;
/** How long an instance may reuse a looked-up profile (names, posts); the session itself is read every call. */
const PROFILE_CACHE_MS = 3000;

export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

export function cookieName(secure: boolean): string {
  return secure ? '__Host-sid' : 'sid';
}

export async function createSession(db: Db, staffId: number): Promise<{ token: string; expiresAt: number }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + SESSION_TTL_MS;
  await insertStaffSession(db, { id: tokenHash(token), staffId, createdAt: now, expiresAt });
  // At most MAX_SESSIONS_PER_STAFF live sessions: the oldest end.
  await trimStaffSessions(db, staffId, MAX_SESSIONS_PER_STAFF);
  // Expired sessions are swept now and then, on login.
  if (Math.random() < 0.05) await deleteExpiredStaffSessions(db, now - ENDED_KEPT_MS);
  return { token, expiresAt };
}

export async function loadProfile(db: Db, staffId: number): Promise<StaffIdentity | undefined> {
  const staff = await findStaff(db, staffId);
  return staff && profileOf(db, staff);
}

/** The profile of a staff member whose row the caller has read: with their enabled posts. */
export async function profileOf(
  db: Db,
  staff: { id: number; name: string; mobile: string | null },
): Promise<StaffIdentity> {
  const posts = await enabledPostsOf(db, staff.id);
  return {
    id: staff.id,
    name: staff.name,
    mobile: staff.mobile,
    posts: posts.map((p) => ({
      storeId: p.storeId,
      store: { id: p.storeId, name: p.name, timezone: p.timezone },
      role: p.role as StaffRole,
      teacherId: p.teacherId,
    })),
  };
}

interface Cached {
  identity: StaffIdentity;
  version: number;
  until: number;
}

/**
 * Looks up the staff behind a session token. The session row is read on every call (one primary-key
 * read), so a logout, an ended session or a removed staff member takes effect on every instance at
 * once; only the profile it leads to (names and posts) is kept for a moment per instance.
 */
export class SessionStore {
  private cache = new Map<string, Cached>();
  constructor(private db: Db) {}

  async resolve(token: string | undefined): Promise<StaffIdentity | undefined> {
    if (!token || token.length > 100) return undefined;
    const id = tokenHash(token);
    const now = Date.now();
    const row = await findStaffSession(this.db, id);
    if (!row || row.expiresAt <= now) {
      this.cache.delete(id);
      return undefined;
    }
    const hit = this.cache.get(id);
    // A change of role, posts or password moves auth_version: the cached profile is then read again.
    if (hit && hit.until > now && hit.identity.id === row.staffId && hit.version === row.authVersion) {
      return hit.identity;
    }
    const identity = await loadProfile(this.db, row.staffId);
    if (!identity || identity.posts.length === 0) return undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { identity, version: row.authVersion, until: now + PROFILE_CACHE_MS });
    return identity;
  }

  async destroy(token: string | undefined): Promise<void> {
    if (!token) return;
    const id = tokenHash(token);
    this.cache.delete(id);
    await deleteStaffSession(this.db, id);
  }

  /**
   * Ends a staff member's sessions (a disabled account, a reset or changed password), on every
   * instance: the session row is read on every call. `keep` is a session token to spare (the one
   * changing its own password).
   */
  async endAll(db: Executor, staffId: number, keep?: string): Promise<void> {
    await deleteStaffSessionsOf(db, staffId, keep ? tokenHash(keep) : undefined);
  }

  /**
   * Ends a disabled staff member's sessions on every instance (each reads its session row on every
   * call), keeping the rows for a day so a call with one is answered 该账号已停用 (`disabled`), not
   * only 请先登录. A session ended so never comes back, whether or not the account is enabled again.
   */
  async endDisabled(db: Executor, staffId: number): Promise<void> {
    await expireStaffSessionsOf(db, staffId, Date.now());
  }

  /** Whether the session of `token` belongs to a staff member with no enabled post left (disabled). */
  async disabled(token: string | undefined): Promise<boolean> {
    if (!token || token.length > 100) return false;
    const row = await findStaffSession(this.db, tokenHash(token));
    if (!row) return false;
    const identity = await loadProfile(this.db, row.staffId);
    return identity !== undefined && identity.posts.length === 0;
  }

  /** Forget cached identities (after a change of posts or store names). */
  invalidate(): void {
    this.cache.clear();
  }
}
