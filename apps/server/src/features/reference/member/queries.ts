import type { Executor } from '../../../db/index.ts';
import { contains } from '../shared.ts';

const memberCols = ['id', 'name', 'mobile', 'gender', 'birthday'] as const;

/** A member of the store, or undefined. */
export function findMember(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('member')
    .select([...memberCols, 'createdAt'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The id of the store's member holding `mobile`, if any. */
export async function memberIdByMobile(ex: Executor, storeId: number, mobile: string) {
  const row = await ex
    .selectFrom('member')
    .select('id')
    .where('storeId', '=', storeId)
    .where('mobile', '=', mobile)
    .executeTakeFirst();
  return row?.id;
}

/** Members whose name or mobile contains `param` (all when empty), newest first. */
export function memberQuery(ex: Executor, storeId: number, param: string | null | undefined) {
  let q = ex.selectFrom('member').where('storeId', '=', storeId);
  if (param) q = q.where((eb) => eb.or([contains('name', param), contains('mobile', param)]));
  return q;
}

export function selectMembers(q: ReturnType<typeof memberQuery>) {
  return q.select([...memberCols]).orderBy('id', 'desc');
}

/** Every card a member holds, with its product, oldest first. */
export function memberCards(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select([
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'p.cardName',
      'p.bigType',
      'p.cardType',
      'p.perCount',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'mc.refundedAt',
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.memberId', '=', memberId)
    .orderBy('mc.id')
    .execute();
}
