import type { Executor } from '../../../db/index.ts';
import { notFound } from '../../../lib/errors.ts';
import type { NewRow, RowUpdate } from '../../../db/schema.ts';
import { contains } from '../../../db/dialect.ts';

/** The members' repository: a store's members by id, mobile or name, and their rows written. Their cards are in `card/repository.ts`. */

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

/** Members whose name or mobile contains `param` (all when empty). */
function memberQuery(ex: Executor, storeId: number, param: string | null | undefined) {
  let q = ex.selectFrom('member').where('storeId', '=', storeId);
  if (param) q = q.where((eb) => eb.or([contains('name', param), contains('mobile', param)]));
  return q;
}

const selectMembers = (q: ReturnType<typeof memberQuery>) => q.select([...memberCols]).orderBy('id', 'desc');

/** Up to `limit` members whose name or mobile contains `param` (all when empty), newest first. */
export function membersMatching(ex: Executor, storeId: number, param: string | null | undefined, limit: number) {
  return selectMembers(memberQuery(ex, storeId, param))
    .limit(limit)
    .execute();
}

/** One page of the members whose name or mobile contains `param` (all when empty), newest first, and their count. */
export async function memberPage(
  ex: Executor,
  storeId: number,
  a: { param?: string | null; page: number; pageSize: number },
) {
  const q = memberQuery(ex, storeId, a.param);
  const [list, total] = await Promise.all([
    selectMembers(q)
      .limit(a.pageSize)
      .offset((a.page - 1) * a.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/** Adds a member; answers its id. */
export function addMember(ex: Executor, row: NewRow<'member'>) {
  return ex.insertInto('member').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a member's fields. */
export async function changeMember(ex: Executor, storeId: number, id: number, fields: RowUpdate<'member'>) {
  await ex.updateTable('member').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}
