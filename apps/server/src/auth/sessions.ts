import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { StaffIdentity } from '../lib/context.ts';

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** How long an instance may reuse a looked-up session before asking the database again. */
const CACHE_MS = 3000;

export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

export function cookieName(secure: boolean): string {
  return secure ? '__Host-sid' : 'sid';
}

export async function createSession(db: Db, staffId: number): Promise<{ token: string; expiresAt: number }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = now + SESSION_TTL_MS;
  await db
    .insertInto('httpSession')
    .values({ id: tokenHash(token), staffId, createdAt: now, expiresAt })
    .execute();
  // Expired sessions are swept now and then, on login.
  if (Math.random() < 0.05) await db.deleteFrom('httpSession').where('expiresAt', '<', now).execute();
  return { token, expiresAt };
}

export async function loadProfile(db: Db, staffId: number): Promise<StaffIdentity | undefined> {
  const staff = await db
    .selectFrom('staff')
    .select(['id', 'name', 'mobile'])
    .where('id', '=', staffId)
    .executeTakeFirst();
  if (!staff) return undefined;
  const posts = await db
    .selectFrom('post')
    .innerJoin('store', 'store.id', 'post.storeId')
    .select(['post.storeId', 'store.name'])
    .where('post.staffId', '=', staffId)
    .orderBy('post.id')
    .execute();
  return {
    id: staff.id,
    name: staff.name,
    mobile: staff.mobile,
    posts: posts.map((p) => ({ storeId: p.storeId, store: { id: p.storeId, name: p.name } })),
  };
}

interface Cached {
  identity: StaffIdentity;
  until: number;
  expiresAt: number;
}

/** Looks up the staff behind a session token, with a short per-instance cache. */
export class SessionStore {
  private cache = new Map<string, Cached>();
  constructor(private db: Db) {}

  async resolve(token: string | undefined): Promise<StaffIdentity | undefined> {
    if (!token || token.length > 100) return undefined;
    const id = tokenHash(token);
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.until > now && hit.expiresAt > now) return hit.identity;
    const row = await this.db
      .selectFrom('httpSession')
      .select(['staffId', 'expiresAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.expiresAt <= now) {
      this.cache.delete(id);
      return undefined;
    }
    const identity = await loadProfile(this.db, row.staffId);
    if (!identity) return undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { identity, until: now + CACHE_MS, expiresAt: row.expiresAt });
    return identity;
  }

  async destroy(token: string | undefined): Promise<void> {
    if (!token) return;
    const id = tokenHash(token);
    this.cache.delete(id);
    await this.db.deleteFrom('httpSession').where('id', '=', id).execute();
  }

  /** Forget cached identities (after a change of posts or store names). */
  invalidate(): void {
    this.cache.clear();
  }
}
