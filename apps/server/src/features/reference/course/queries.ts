import type { Executor } from '../../../db/index.ts';

export const courseCols = [
  'id',
  'name',
  'count',
  'duration',
  'color',
  'genderLimit',
  'ageLimit',
  'syear',
  'smonth',
  'sday',
  'eyear',
  'emonth',
  'eday',
  'description',
  'enabled',
] as const;

/** The allowed card products ({id, name}) of each course, by course id. */
export async function cardsOfCourses(ex: Executor, storeId: number, courseIds: readonly number[]) {
  const out = new Map<number, { id: number; name: string }[]>();
  if (!courseIds.length) return out;
  const rows = await ex
    .selectFrom('courseCard as cc')
    .innerJoin('cardProduct as p', 'p.id', 'cc.cardId')
    .select(['cc.courseId', 'p.id', 'p.cardName'])
    .where('cc.storeId', '=', storeId)
    .where('cc.courseId', 'in', courseIds)
    .where('p.deleted', '=', 0)
    .orderBy('p.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.courseId) ?? [];
    list.push({ id: r.id, name: r.cardName });
    out.set(r.courseId, list);
  }
  return out;
}

/** Which of `ids` are card products of the store that are not deleted. */
export async function liveProductIds(ex: Executor, storeId: number, ids: readonly number[]) {
  if (!ids.length) return new Set<number>();
  const rows = await ex
    .selectFrom('cardProduct')
    .select('id')
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are courses of the store that are not deleted. */
export async function liveCourseIds(ex: Executor, storeId: number, ids: readonly number[]) {
  if (!ids.length) return new Set<number>();
  const rows = await ex
    .selectFrom('course')
    .select('id')
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}
