import type { Nullable, SelectQueryBuilder } from 'kysely';
import type { Executor, Tx } from '../../../db/index.ts';
import type { Database, NewRow, RowUpdate } from '../../../db/schema.ts';
import { contains } from '../../../db/dialect.ts';

/**
 * The courses' repository: a store's courses and the card products allowed to book each (the
 * links written from either side: a course's cards, a card product's courses). The
 * course with its cards as the booking engine reads it is shared with the other features and lives
 * in `../repository.ts` (`requireCourse`); the rules (age ranges, cards on sale) stay in `service.ts`.
 */

/** The columns of a course as the store-course calls answer it. */
const courseCols = [
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
  'forChildren',
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

/** The store's enabled group courses that are not deleted ({id, name, count}), by id (lesson types are not offered). */
export function enabledCourses(ex: Executor, storeId: number) {
  return ex
    .selectFrom('course')
    .select(['id', 'name', 'count'])
    .where('storeId', '=', storeId)
    .where('enabled', '=', 1)
    .where('deleted', '=', 0)
    .where('kind', '=', 'group')
    .orderBy('id')
    .execute();
}

/** A group course of the store that is not deleted (its `courseCols`), or undefined (lesson types: features/lessons). */
export function findCourse(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('course')
    .select([...courseCols])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .where('kind', '=', 'group')
    .executeTakeFirst();
}

/** One page of the store's group courses that are not deleted and whose name contains `param` (all when empty), by id, and their count. */
export async function coursePage(
  ex: Executor,
  storeId: number,
  a: { param?: string | null; page: number; pageSize: number },
) {
  let q = ex.selectFrom('course').where('storeId', '=', storeId).where('deleted', '=', 0).where('kind', '=', 'group');
  if (a.param) q = q.where(contains('name', a.param));
  const [list, total] = await Promise.all([
    q
      .select([...courseCols])
      .orderBy('id')
      .limit(a.pageSize)
      .offset((a.page - 1) * a.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/** Inserts a course; answers its id. */
export function insertCourseRow(tx: Tx, row: NewRow<'course'>) {
  return tx.insertInto('course').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Changes a course's fields. */
export async function changeCourse(ex: Executor, storeId: number, id: number, fields: RowUpdate<'course'>) {
  await ex.updateTable('course').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/**
 * Allows card products to book courses: one link for every course and card product given (the
 * course side gives one course and its cards, the card side one product and its courses; nothing
 * to do when either list is empty).
 */
export async function insertCourseCards(
  tx: Tx,
  storeId: number,
  courseIds: readonly number[],
  cardIds: readonly number[],
) {
  if (!courseIds.length || !cardIds.length) return;
  await tx
    .insertInto('courseCard')
    .values(courseIds.flatMap((courseId) => cardIds.map((cardId) => ({ storeId, courseId, cardId }))))
    .execute();
}

/** Removes every link of a course (`courseId`) or of a card product (`cardId`) to the other side. */
export async function clearCourseCards(tx: Tx, storeId: number, side: { courseId: number } | { cardId: number }) {
  const q = tx.deleteFrom('courseCard').where('storeId', '=', storeId);
  await ('courseId' in side ? q.where('courseId', '=', side.courseId) : q.where('cardId', '=', side.cardId)).execute();
}

/** What a query reads that reads sessions as `t` (the timetable row), with whatever else. */
type Sessions = Database & { t: Database['timetable'] };
type MaybeSessions = Database & { t: Nullable<Database['timetable']> };

/**
 * The course of the sessions a query reads (`t`, the timetable row): joined as `c` and its name
 * selected as `courseName`. Every read that names a session's class joins it here (the course
 * join written once); `c` stays in scope for a filter or a grouping.
 */
export function withCourseName<DB extends Sessions, TB extends keyof DB & string, O>(
  qb: SelectQueryBuilder<DB, TB | 't', O>,
) {
  // Kysely cannot type a join on a builder generic in its tables: the one cast, checked at each caller.
  return (qb as unknown as SelectQueryBuilder<Sessions, 't', O>)
    .innerJoin('course as c', 'c.id', 't.courseId')
    .select('c.name as courseName') as unknown as SelectQueryBuilder<
    DB & { c: Database['course'] },
    TB | 't' | 'c',
    O & { courseName: string }
  >;
}

/** As withCourseName, for a session that may be absent (`t` left-joined: a ledger line of no class): courseName null then. */
export function withCourseNameIfAny<DB extends MaybeSessions, TB extends keyof DB & string, O>(
  qb: SelectQueryBuilder<DB, TB | 't', O>,
) {
  return (qb as unknown as SelectQueryBuilder<MaybeSessions, 't', O>)
    .leftJoin('course as c', 'c.id', 't.courseId')
    .select('c.name as courseName') as unknown as SelectQueryBuilder<
    DB & { c: Nullable<Database['course']> },
    TB | 't' | 'c',
    O & { courseName: string | null }
  >;
}
