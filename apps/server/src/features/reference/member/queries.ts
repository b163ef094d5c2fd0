import type { Executor } from '../../../db/index.ts';
import { notFound } from '../../../lib/errors.ts';
import type { CardOfRules } from '../../timetable/rules.ts';
import { contains } from '../../../db/dialect.ts';

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

/** A member of the store, or 404 会员不存在. */
export async function requireMember(ex: Executor, storeId: number, id: number) {
  const m = await findMember(ex, storeId, id);
  if (!m) throw notFound('会员');
  return m;
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

/** The kind of a member card's product (1 counts, 2 money; see amountText). */
export async function cardBigType(ex: Executor, memberCardId: number): Promise<number> {
  const row = await ex
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select('p.bigType')
    .where('mc.id', '=', memberCardId)
    .executeTakeFirstOrThrow();
  return row.bigType;
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

/** A member card with what the booking rules need: its product, its holder's name, gender and birthday. */
export interface BookingCard extends CardOfRules {
  expireTime: string | null;
  cardName: string;
  memberName: string;
  gender: number;
  birthday: string | null;
}

/**
 * Member cards of the store with what the booking rules need (product, holder), by id; 404
 * 会员卡不存在 when any id is not the store's. With `allowedIn`, each card also says whether that
 * session allows its product (in the same statement).
 */
export async function storeCards(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  o: { allowedIn?: number } = {},
): Promise<Map<number, BookingCard & { allowed: boolean }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ex
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as cp', 'cp.id', 'mc.cardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select([
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'cp.cardName',
      'cp.cardType',
      'cp.perCount',
      'm.name as memberName',
      'm.gender',
      'm.birthday',
    ])
    .$if(o.allowedIn !== undefined, (q) =>
      q.select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('timetableCard as tc')
              .select('tc.cardId')
              .where('tc.timetableId', '=', o.allowedIn!)
              .whereRef('tc.cardId', '=', 'mc.cardId'),
          )
          .as('allowed'),
      ),
    )
    .where('mc.storeId', '=', storeId)
    .where('mc.id', 'in', unique)
    .execute();
  if (rows.length !== unique.length) throw notFound('会员卡');
  return new Map(
    rows.map((r) => [
      r.id,
      { ...r, totalCount: Number(r.totalCount), usedCount: Number(r.usedCount), allowed: Boolean(r.allowed) },
    ]),
  );
}
