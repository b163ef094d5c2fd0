import { RefMsg, type Course, type ParsedReqOf, type insertStoreCourse, type storeCourseList } from '@studio/contract';
import { audit } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import {
  cardsOfCourses,
  changeCourse,
  clearCourseCards,
  coursePage,
  enabledCourses,
  findCourse,
  insertCourseCards,
  insertCourseRow,
  liveProductIds,
} from './repository.ts';
import { inOwnTx } from '../../../lib/write-queue.ts';

type CourseInput = ParsedReqOf<typeof insertStoreCourse>;

/** Enabled courses for the pickers: id, name and default capacity. */
export function simpleCourses(ctx: CallCtx) {
  return enabledCourses(ctx.db, ctx.store.id);
}

const validDate = (y: number, m: number, d: number) => {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && y <= 2200 && dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
};
const MAX_AGE_YEARS = 150;

/**
 * The age columns to store, read as the booking rules read them (timetable/rules.ts).
 * ageLimit 1: an age range, from syear years smonth months to eyear years emonth months;
 * ageLimit 2: a birth-date range syear-smonth-sday .. eyear-emonth-eday (an empty month or day
 * means the first for the start and the last for the end). Either bound may be open, not both.
 */
function ageColumns(i: CourseInput) {
  const none = { syear: null, smonth: null, sday: null, eyear: null, emonth: null, eday: null };
  if (i.ageLimit === 0) return none;
  const [sy, sm, sd, ey, em, ed] = [i.syear, i.smonth, i.sday, i.eyear, i.emonth, i.eday].map((v) => v ?? null);
  const refuse = () => badRequest(RefMsg.ageRange);
  if (i.ageLimit === 1) {
    const hasMin = sy !== null || sm !== null;
    const hasMax = ey !== null || em !== null;
    if (!hasMin && !hasMax) throw refuse();
    if ((sy ?? 0) > MAX_AGE_YEARS || (ey ?? 0) > MAX_AGE_YEARS || (sm ?? 0) > 11 || (em ?? 0) > 11) throw refuse();
    const min = (sy ?? 0) * 12 + (sm ?? 0);
    const max = (ey ?? 0) * 12 + (em ?? 0);
    if (hasMin && hasMax && min > max) throw refuse();
    return {
      ...none,
      ...(hasMin ? { syear: sy ?? 0, smonth: sm ?? 0 } : {}),
      ...(hasMax ? { eyear: ey ?? 0, emonth: em ?? 0 } : {}),
    };
  }
  if (sy === null && ey === null) throw refuse();
  if (sy !== null && !validDate(sy, sm ?? 1, sd ?? 1)) throw refuse();
  if (ey !== null && !validDate(ey, em ?? 12, ed ?? 1)) throw refuse();
  if (sy !== null && ey !== null) {
    const lastDay = new Date(Date.UTC(ey, em ?? 12, 0)).getUTCDate();
    if (Date.UTC(sy, (sm ?? 1) - 1, sd ?? 1) > Date.UTC(ey, (em ?? 12) - 1, ed ?? lastDay)) throw refuse();
  }
  return {
    syear: sy,
    smonth: sy === null ? null : sm,
    sday: sy === null ? null : sd,
    eyear: ey,
    emonth: ey === null ? null : em,
    eday: ey === null ? null : ed,
  };
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
    // Absent: a new course is not 少儿, an edited one keeps its flag.
    ...(i.forChildren === undefined ? {} : { forChildren: i.forChildren ? 1 : 0 }),
  };
  return { row, cardIds };
}

/** Adds a course with its allowed card products. */
export async function createCourse(ctx: CallCtx, input: CourseInput) {
  const { row, cardIds } = await courseRow(ctx, input);
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    const c = await insertCourseRow(tx, { storeId, ...row, enabled: 1, deleted: 0 });
    await insertCourseCards(tx, storeId, [c.id], cardIds);
    audit(tx, { kind: 'reference', target: `课程 ${row.name}`, targets: [{ type: 'course', id: c.id }] });
    return c;
  });
}

async function mustFindCourse(ctx: CallCtx, id: number) {
  const c = await findCourse(ctx.db, ctx.store.id, id);
  if (!c) throw notFound('课程');
  return c;
}

/** Changes a course and replaces its allowed card products (existing sessions keep theirs). */
export async function editCourse(ctx: CallCtx, input: CourseInput & { id: number }) {
  await mustFindCourse(ctx, input.id);
  const { row, cardIds } = await courseRow(ctx, input);
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    await changeCourse(tx, storeId, input.id, row);
    await clearCourseCards(tx, storeId, { courseId: input.id });
    await insertCourseCards(tx, storeId, [input.id], cardIds);
    audit(tx, { kind: 'reference', target: `课程 ${row.name}`, targets: [{ type: 'course', id: input.id }] });
  });
  return null;
}

/** Enables (1) or disables (0) a course; a disabled course is left out of the pickers. */
export async function setCourseEnabled(ctx: CallCtx, id: number, enabled: 0 | 1) {
  const course = await mustFindCourse(ctx, id);
  await changeCourse(ctx.db, ctx.store.id, id, { enabled });
  audit(ctx.db, {
    kind: 'reference',
    summary: enabled ? '启用课程' : '停用课程',
    target: `课程 ${course.name}`,
    targets: [{ type: 'course', id }],
  });
  return null;
}

/** One course with its allowed cards. */
export async function courseById(ctx: CallCtx, id: number): Promise<Course> {
  const c = await mustFindCourse(ctx, id);
  const cards = await cardsOfCourses(ctx.db, ctx.store.id, [id]);
  return { ...c, forChildren: c.forChildren === 1, cards: cards.get(id) ?? [] };
}

/** One page of courses (enabled or not), oldest first, each with its allowed cards. */
export async function listCourses(ctx: CallCtx, input: ParsedReqOf<typeof storeCourseList>) {
  const { list: rows, total } = await coursePage(ctx.db, ctx.store.id, input);
  const cards = await cardsOfCourses(
    ctx.db,
    ctx.store.id,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => ({ ...r, forChildren: r.forChildren === 1, cards: cards.get(r.id) ?? [] })), total };
}
