import { fixed } from '../../db/fixed.ts';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';

/**
 * The queries of members' logins: member sessions (`member_session`) and installation secrets; the
 * one-time codes' are in `auth/member-code-repository.ts` (contracts use them too). The limits and
 * checks stay in `member-auth.ts`.
 */
export { insertLoginCode, liveLoginCodes, markCodeUsed, takeCodeTry } from '../../auth/member-code-repository.ts';

/** An installation secret by name (see migration 20261127_0100), or undefined. */
export async function appSecret(ex: Executor, name: string): Promise<string | undefined> {
  const row = await ex.selectFrom('appSecret').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Stores an installation secret unless one of that name exists (the first instance's wins). */
export async function insertAppSecretIfAbsent(ex: Executor, name: string, value: string): Promise<void> {
  await ex
    .insertInto('appSecret')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
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
  return memberSession.first(ex, { id });
}

// Read on every call of a signed-in member: built once (db/fixed.ts).
const memberSession = fixed((ex, p: { id: string }) =>
  ex
    .selectFrom('memberSession as s')
    .innerJoin('member as m', 'm.id', 's.memberId')
    .innerJoin('store as st', 'st.id', 's.storeId')
    .select(['s.expiresAt', 's.storeId', 'm.id', 'm.name', 'm.mobile', 'st.name as storeName'])
    .where('s.id', '=', p.id),
);

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
