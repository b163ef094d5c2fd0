import type { Executor } from '../db/index.ts';
import type { NewRow } from '../db/schema.ts';

/**
 * The queries of members' one-time codes (`member_login_code`): a sign-in's (texted, given by the
 * desk) or a contract's (texted to sign). The checks are in `member-codes.ts` and features/member-channel.
 */

/** Inserts a login code row (its hash, never the code). */
export async function insertLoginCode(ex: Executor, row: NewRow<'memberLoginCode'>): Promise<void> {
  await ex.insertInto('memberLoginCode').values(row).execute();
}

/**
 * A member's live codes of `sources`: of each source (texted, given by the desk, a contract's) the newest, when it is
 * neither used nor expired at `now` (an older code of a source stopped working when a newer came).
 */
export function liveLoginCodes(ex: Executor, memberId: number, now: number, sources: readonly string[]) {
  return ex
    .selectFrom('memberLoginCode')
    .select(['id', 'codeHash', 'source'])
    .where(
      'id',
      'in',
      ex
        .selectFrom('memberLoginCode')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('memberId', '=', memberId)
        .where('source', 'in', sources)
        .groupBy('source'),
    )
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('id', 'desc')
    .execute();
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
