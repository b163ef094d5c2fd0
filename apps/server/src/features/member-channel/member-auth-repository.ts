import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';

/**
 * The queries of members' logins: one-time login codes (`member_login_code`) and member sessions
 * (`member_session`). The limits and checks stay in `member-auth.ts`.
 */

/** Inserts a login code row (its hash, never the code). */
export async function insertLoginCode(ex: Executor, row: NewRow<'memberLoginCode'>): Promise<void> {
  await ex.insertInto('memberLoginCode').values(row).execute();
}

/** A member's newest login code (id and hash), or undefined. */
export function latestLoginCode(ex: Executor, memberId: number) {
  return ex
    .selectFrom('memberLoginCode')
    .select(['id', 'codeHash'])
    .where('memberId', '=', memberId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Takes one try of a code in one guarded UPDATE: false when it has no try left, was used or has
 * expired at `now`.
 */
export async function takeCodeTry(ex: Executor, id: number, maxTries: number, now: number): Promise<boolean> {
  const res = await ex
    .updateTable('memberLoginCode')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('tries', '<', maxTries)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a code used at `now` in one guarded UPDATE; false when it already was. */
export async function markCodeUsed(ex: Executor, id: number, now: number): Promise<boolean> {
  const res = await ex
    .updateTable('memberLoginCode')
    .set({ usedAt: now })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Inserts a member session row (`id` is the token's hash). */
export async function insertMemberSession(ex: Executor, row: NewRow<'memberSession'>): Promise<void> {
  await ex.insertInto('memberSession').values(row).execute();
}

/** Deletes the member sessions expired before `now`. */
export async function deleteExpiredMemberSessions(ex: Executor, now: number): Promise<void> {
  await ex.deleteFrom('memberSession').where('expiresAt', '<', now).execute();
}

/** A member session by id (the token's hash) with its member and store, or undefined. */
export function findMemberSession(ex: Executor, id: string) {
  return ex
    .selectFrom('memberSession as s')
    .innerJoin('member as m', 'm.id', 's.memberId')
    .innerJoin('store as st', 'st.id', 's.storeId')
    .select(['s.expiresAt', 's.storeId', 'm.id', 'm.name', 'm.mobile', 'st.name as storeName'])
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** Moves a member session's expiry to `expiresAt`. */
export async function extendMemberSession(ex: Executor, id: string, expiresAt: number): Promise<void> {
  await ex.updateTable('memberSession').set({ expiresAt }).where('id', '=', id).execute();
}

/** Deletes one member session by id (the token's hash). */
export async function deleteMemberSession(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('memberSession').where('id', '=', id).execute();
}

/** Deletes every session of a member; how many were deleted. */
export async function deleteMemberSessionsOf(ex: Executor, memberId: number): Promise<number> {
  const res = await ex.deleteFrom('memberSession').where('memberId', '=', memberId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
