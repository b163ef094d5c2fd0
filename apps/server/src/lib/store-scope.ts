import type { FastifyRequest } from 'fastify';
import type { Db, Executor } from '../db/index.ts';
import type { StaffIdentity, StaffPost, StoreScope } from './context.ts';
import { databaseOf } from '../db/dialect.ts';
import { shortLived } from './cache.ts';
import { forbidden, notFound } from './errors.ts';
import { findStoreScope } from './store-repository.ts';

/** Store names and time zones, kept 5 s (a missing store is not kept). */
const cache = shortLived<StoreScope | undefined>({ ttlMs: 5000, max: 10_000, keep: (s) => s !== undefined });

/** Forget cached store names and time zones (after a settings change). */
export function invalidateStoreScope(db: Executor, storeId: number): void {
  cache.forget(databaseOf(db), storeId);
}

/**
 * The store a call acts in: the payload's `storeId`, else the `X-Store-Id` header, else the
 * staff's first post. Refused with 403 unless the staff holds a post in that store.
 */
export async function resolveStore(
  db: Db,
  staff: StaffIdentity,
  req: FastifyRequest,
  body: unknown,
): Promise<{ scope: StoreScope; post: StaffPost }> {
  let wanted: number | undefined;
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).storeId : undefined;
  const header = req.headers['x-store-id'];
  if (fromBody !== undefined && fromBody !== null && fromBody !== 0 && fromBody !== '') {
    wanted = Number(fromBody);
  } else if (typeof header === 'string' && header !== '') {
    wanted = Number(header);
  }
  if (wanted !== undefined && (!Number.isInteger(wanted) || wanted <= 0)) throw forbidden();
  const post = wanted === undefined ? staff.posts[0] : staff.posts.find((p) => p.storeId === wanted);
  if (!post) throw forbidden();
  const scope = await storeScopeById(db, post.storeId);
  if (!scope) throw forbidden();
  return { scope, post };
}

/**
 * A store's scope by id, for work no staff session names (engine listeners, the members' channel),
 * from the same cache as resolveStore; undefined when there is no such store.
 */
export async function storeScopeById(db: Executor, storeId: number): Promise<StoreScope | undefined> {
  return cache.get(databaseOf(db), storeId, () => findStoreScope(db, storeId));
}

/** A store named by a public call (`storeId` of the members' pages): its scope, or 404 门店不存在. */
export async function requireStoreById(db: Executor, storeId: number): Promise<StoreScope> {
  const store = await storeScopeById(db, storeId);
  if (!store) throw notFound('门店');
  return store;
}
