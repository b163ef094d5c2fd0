import { sql } from 'kysely';
import type { Executor } from '../db/index.ts';
import { fixed } from '../db/fixed.ts';
import type { NewRow } from '../db/schema.ts';

/**
 * The queries of staff logins: staff sessions (`http_session`), the staff and posts a session leads
 * to, and the login counters (`login_counter`, also the members' login-code limits). The rules (how
 * many sessions, when to sweep, which window) stay with their callers in `sessions.ts` and
 * `rate-limit.ts`.
 */

/** Inserts a staff session row (`id` is the token's hash). */
export async function insertStaffSession(ex: Executor, row: NewRow<'httpSession'>): Promise<void> {
  await ex.insertInto('httpSession').values(row).execute();
}

/** Ends a staff member's sessions beyond their `keep` newest. */
export async function trimStaffSessions(ex: Executor, staffId: number, keep: number): Promise<void> {
  await ex
    .deleteFrom('httpSession')
    .where('staffId', '=', staffId)
    .where(
      'id',
      'not in',
      ex
        .selectFrom('httpSession')
        .select('id')
        .where('staffId', '=', staffId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(keep),
    )
    .execute();
}

/** Deletes the staff sessions expired before `now`. */
export async function deleteExpiredStaffSessions(ex: Executor, now: number): Promise<void> {
  await ex.deleteFrom('httpSession').where('expiresAt', '<', now).execute();
}

/** A staff session by id (the token's hash) with its staff member's auth version, or undefined. */
export function findStaffSession(ex: Executor, id: string) {
  return staffSession.first(ex, { id });
}

const staffSession = fixed((ex, p: { id: string }) =>
  ex
    .selectFrom('httpSession')
    .innerJoin('staff', 'staff.id', 'httpSession.staffId')
    .select(['httpSession.staffId', 'httpSession.expiresAt', 'staff.authVersion'])
    .where('httpSession.id', '=', p.id),
);

/** Deletes one staff session by id (the token's hash). */
export async function deleteStaffSession(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('httpSession').where('id', '=', id).execute();
}

/**
 * Ends every live session of a staff member at `now` without deleting it: the row stays (until the
 * sweep) so a call with it can be told why it ended (a disabled account).
 */
export async function expireStaffSessionsOf(ex: Executor, staffId: number, now: number): Promise<void> {
  await ex
    .updateTable('httpSession')
    .set({ expiresAt: now })
    .where('staffId', '=', staffId)
    .where('expiresAt', '>', now)
    .execute();
}

/** Deletes every session of a staff member, except the one with id `exceptId` when given. */
export async function deleteStaffSessionsOf(ex: Executor, staffId: number, exceptId?: string): Promise<void> {
  let q = ex.deleteFrom('httpSession').where('staffId', '=', staffId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

/** A staff member's name and mobile by id, or undefined. */
export function findStaff(ex: Executor, staffId: number) {
  return ex.selectFrom('staff').select(['id', 'name', 'mobile']).where('id', '=', staffId).executeTakeFirst();
}

/** The staff whose account name or mobile is `account`, with name, mobile and password hash, or undefined. */
export function findStaffByLogin(ex: Executor, account: string) {
  return ex
    .selectFrom('staff')
    .select(['id', 'name', 'mobile', 'passwordHash'])
    .where((eb) => eb.or([eb('username', '=', account), eb('mobile', '=', account)]))
    .executeTakeFirst();
}

/** A staff member's enabled posts with their store's name and time zone, in post order. */
export function enabledPostsOf(ex: Executor, staffId: number) {
  return ex
    .selectFrom('post')
    .innerJoin('store', 'store.id', 'post.storeId')
    .select(['post.storeId', 'store.name', 'store.timezone', 'post.role', 'post.teacherId'])
    .where('post.staffId', '=', staffId)
    .where('post.enabled', '=', 1)
    .orderBy('post.id')
    .execute();
}

/**
 * Takes one slot of the counter `key` in one conditional upsert: a counter whose window started at
 * or before `expired` starts afresh at `now`; otherwise it counts on while under `max`. False when
 * the counter was full (nothing written).
 */
export async function takeCounterSlot(
  ex: Executor,
  key: string,
  max: number,
  now: number,
  expired: number,
): Promise<boolean> {
  const row = await ex
    .insertInto('loginCounter')
    .values({ key, startedAt: now, n: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({
          n: sql<number>`case when ${eb.ref('loginCounter.startedAt')} <= ${expired} then 1 else ${eb.ref('loginCounter.n')} + 1 end`,
          startedAt: sql<number>`case when ${eb.ref('loginCounter.startedAt')} <= ${expired} then ${now} else ${eb.ref('loginCounter.startedAt')} end`,
        }))
        .where((eb) => eb.or([eb('loginCounter.startedAt', '<=', expired), eb('loginCounter.n', '<', max)])),
    )
    .returning('n')
    .executeTakeFirst();
  return row !== undefined;
}

/** How many slots of the counter `key` are taken in the window that began after `expired` (0 when none). */
export async function counterValue(ex: Executor, key: string, expired: number): Promise<number> {
  const row = await ex
    .selectFrom('loginCounter')
    .select('n')
    .where('key', '=', key)
    .where('startedAt', '>', expired)
    .executeTakeFirst();
  return row ? Number(row.n) : 0;
}

/** Gives one slot of the counter `key` back (never below zero). */
export async function giveCounterSlotBack(ex: Executor, key: string): Promise<void> {
  await ex
    .updateTable('loginCounter')
    .set((eb) => ({ n: eb('n', '-', 1) }))
    .where('key', '=', key)
    .where('n', '>', 0)
    .execute();
}

/** Deletes one counter (its key starts afresh). */
export async function deleteCounter(ex: Executor, key: string): Promise<void> {
  await ex.deleteFrom('loginCounter').where('key', '=', key).execute();
}

/** Deletes the counters whose window started before `before`. */
export async function deleteCountersStartedBefore(ex: Executor, before: number): Promise<void> {
  await ex.deleteFrom('loginCounter').where('startedAt', '<', before).execute();
}
