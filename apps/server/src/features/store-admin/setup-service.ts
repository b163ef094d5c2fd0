import { isUniqueViolation } from '../../db/dialect.ts';
import { StoreAdminMsg } from '@studio/contract';
import type { Db } from '../../db/index.ts';
import { createStoreWithAdmin } from './new-store-repository.ts';
import { conflict } from '../../lib/errors.ts';
import { canonicalTimeZone } from './booking-setting-service.ts';
import { deleteOpLock, deleteStaleOpLock, insertOpLock } from '../../db/op-locks.ts';
import { anyStore } from '../../lib/store-repository.ts';

/** The guard row in op_lock that lets one first-run setup run at a time, across app instances. */
const SETUP_LOCK = 'setup:init';
/** A guard older than this was left by a crashed attempt and may be taken over. */
const STALE_LOCK_MS = 5 * 60_000;

export interface SetupInput {
  storeName: string;
  timezone?: string;
  admin: { username: string; name: string; mobile: string | null; password: string };
}

/** True while the installation has no store (started with SEED=empty and not set up yet). */
export async function needsSetup(db: Db): Promise<boolean> {
  return !(await anyStore(db));
}

/**
 * Creates the first store and its admin; refused with 409 once any store exists, so it cannot be
 * used to take over an installed product. Race-safe: it first inserts the guard row (a primary key,
 * so of two concurrent attempts, on one instance or several, exactly one gets it) and only then
 * checks for a store and creates one. The guard is its own statement rather than part of one
 * transaction with the inserts because createStoreWithAdmin opens its own transaction; the guard is
 * removed when the attempt ends, and one left by a crash expires after STALE_LOCK_MS.
 * Answers the new admin's staff id.
 */
export async function initialSetup(db: Db, input: SetupInput): Promise<number> {
  const timezone = input.timezone ? canonicalTimeZone(input.timezone) : undefined;
  if (await anyStore(db)) throw conflict(StoreAdminMsg.setupDone);
  const now = Date.now();
  await deleteStaleOpLock(db, SETUP_LOCK, now - STALE_LOCK_MS);
  if (!(await insertOpLock(db, SETUP_LOCK, 0, now))) throw conflict(StoreAdminMsg.setupBusy);
  try {
    if (await anyStore(db)) throw conflict(StoreAdminMsg.setupDone);
    const { staffId } = await createStoreWithAdmin(db, {
      storeName: input.storeName,
      timezone,
      admin: input.admin,
    });
    return staffId;
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(StoreAdminMsg.usernameTaken);
    throw e;
  } finally {
    await deleteOpLock(db, SETUP_LOCK, now);
  }
}
