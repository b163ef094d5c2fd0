import { RefMsg, type Course, type ParsedReqOf, type insertStoreCourse, type storeCourseList } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { contains } from '../shared.ts';
import { cardsOfCourses, courseCols, liveProductIds } from './queries.ts';

type CourseInput = ParsedReqOf<typeof insertStoreCourse>;

/** Enabled courses for the pickers: id, name and default capacity. */
export function simpleCourses(ctx: CallCtx) {
  return ctx.db
    .selectFrom('course')
    .select(['id', 'name', 'count'])
    .where('storeId', '=', ctx.store.id)
    .where('enabled', '=', 1)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
}

const validDate = (y: number, m: number, d: number) => {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
};

/**
 * The age columns to store. ageLimit 1: an age range, from syear years smonth months to eyear
 * years emonth months; ageLimit 2: a birth-date range syear-smonth-sday .. eyear-emonth-eday.
 */
function ageColumns(i: CourseInput) {
  const none = { syear: null, smonth: null, sday: null, eyear: null, emonth: null, eday: null };
  if (i.ageLimit === 0) return none;
  const [sy, sm, sd, ey, em, ed] = [i.syear, i.smonth, i.sday, i.eyear, i.emonth, i.eday].map((v) => v ?? null);
  if (i.ageLimit === 1) {
    if (sy === null || ey === null || sy > 150 || ey > 150 || (sm ?? 0) > 11 || (em ?? 0) > 11) {
      throw badRequest(RefMsg.ageRange);
    }
    if (sy * 12 + (sm ?? 0) > ey * 12 + (em ?? 0)) throw badRequest(RefMsg.ageRange);
    return { ...none, syear: sy, smonth: sm ?? 0, eyear: ey, emonth: em ?? 0 };
  }
  if (sy === null || sm === null || sd === null || ey === null || em === null || ed === null) {
    throw badRequest(RefMsg.ageRange);
  }
  if (!validDate(sy, sm, sd) || !validDate(ey, em, ed)) throw badRequest(RefMsg.ageRange);
  if (Date.UTC(sy, sm - 1, sd) > Date.UTC(ey, em - 1, ed)) throw badRequest(RefMsg.ageRange);
  return { syear: sy, smonth: sm, sday: sd, eyear: ey, emonth: em, eday: ed };
}

async function courseRow(ctx: CallCtx, i: CourseInput) {
  const cardIds = [...new Set(i.cardIds)];
  const live = await liveProductIds(ctx.db, ctx.store.id, cardIds);
  if (cardIds.some((id) => !live.has(id))) throw notFound('卡种');
  const row = {
    name: i.name,
    count: i.count,
    duration: i.duration,
    color: i.color.toLowerCase(),
    genderLimit: i.genderLimit,
    ageLimit: i.ageLimit,
    ...ageColumns(i),
    description: i.description,
  };
  return { row, cardIds };
}

/** Adds a course with its allowed card products. */
export async function createCourse(ctx: CallCtx, input: CourseInput) {
  const { row, cardIds } = await courseRow(ctx, input);
  const storeId = ctx.store.id;
  return ctx.db.transaction().execute(async (tx) => {
    const c = await tx
      .insertInto('course')
      .values({ storeId, ...row, enabled: 1, deleted: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (cardIds.length) {
      await tx
        .insertInto('courseCard')
        .values(cardIds.map((cardId) => ({ storeId, courseId: c.id, cardId })))
        .execute();
    }
    return c;
  });
}

async function mustFindCourse(ctx: CallCtx, id: number) {
  const c = await ctx.db
    .selectFrom('course')
    .select([...courseCols])
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!c) throw notFound('课程');
  return c;
}

/** Changes a course and replaces its allowed card products (existing sessions keep theirs). */
export async function editCourse(ctx: CallCtx, input: CourseInput & { id: number }) {
  await mustFindCourse(ctx, input.id);
  const { row, cardIds } = await courseRow(ctx, input);
  const storeId = ctx.store.id;
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('course').set(row).where('storeId', '=', storeId).where('id', '=', input.id).execute();
    await tx.deleteFrom('courseCard').where('storeId', '=', storeId).where('courseId', '=', input.id).execute();
    if (cardIds.length) {
      await tx
        .insertInto('courseCard')
        .values(cardIds.map((cardId) => ({ storeId, courseId: input.id, cardId })))
        .execute();
    }
  });
  return null;
}

/** Enables (1) or disables (0) a course; a disabled course is left out of the pickers. */
export async function setCourseEnabled(ctx: CallCtx, id: number, enabled: 0 | 1) {
  await mustFindCourse(ctx, id);
  await ctx.db
    .updateTable('course')
    .set({ enabled })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}

/** One course with its allowed cards. */
export async function courseById(ctx: CallCtx, id: number): Promise<Course> {
  const c = await mustFindCourse(ctx, id);
  const cards = await cardsOfCourses(ctx.db, ctx.store.id, [id]);
  return { ...c, cards: cards.get(id) ?? [] };
}

/** One page of courses (enabled or not), oldest first, each with its allowed cards. */
export async function listCourses(ctx: CallCtx, input: ParsedReqOf<typeof storeCourseList>) {
  let q = ctx.db.selectFrom('course').where('storeId', '=', ctx.store.id).where('deleted', '=', 0);
  if (input.param) q = q.where(contains('name', input.param));
  const [rows, total] = await Promise.all([
    q
      .select([...courseCols])
      .orderBy('id')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const cards = await cardsOfCourses(
    ctx.db,
    ctx.store.id,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => ({ ...r, cards: cards.get(r.id) ?? [] })), total: Number(total.n) };
}
