import type {
  ResOf,
  reportLessonOutstanding,
  reportLessonPacks,
  reportLessons,
  reportLessonUtilisation,
} from '@studio/contract';
import { BIG_TYPE_COUNT, ReportMsg } from '@studio/contract';
import { badRequest } from '../../lib/errors.ts';
import type { CallCtx } from '../../lib/context.ts';
import { addDays, minutesBetween, storeNow, weekday } from '../../lib/time.ts';
import { cardsForPrepaidLimits, isExpiredAt, remainingValue, usedValue } from '../cards/public.ts';
import { namesOf } from '../reference/public.ts';
import { fillRate, lessonReportReads as repo } from '../reports/public.ts';
import { storeHours, workingSpans } from './public.ts';

/**
 * The reports of 私教 and 小班 (issue 43 item 8), over the same live rows as the other reports:
 * lessons and their value by type and teacher, teachers' utilisation by week, lesson packs sold and
 * consumed, and the lessons still owed on packs (预收款). What a lesson is worth is `usedValue`
 * (cards): the fen a 储值卡 gave, or a count card's share of what was paid for it.
 */

type RangeInput = { fromDate: string; toDate: string };
const rangeOf = (ctx: CallCtx, input: RangeInput): repo.Range => ({
  storeId: ctx.store.id,
  from: input.fromDate,
  to: input.toDate,
});
const key = (courseId: number, teacherId: number) => `${courseId}-${teacherId}`;

/** Lessons by type and teacher, most lessons first. */
export async function lessonsByType(ctx: CallCtx, input: RangeInput): Promise<ResOf<typeof reportLessons>> {
  const r = rangeOf(ctx, input);
  const [rows, signed, used] = await Promise.all([
    repo.lessonsByTypeAndTeacher(ctx.db, r, storeNow(ctx)),
    repo.signedInBySession(ctx.db, r),
    repo.usedByCard(ctx.db, r),
  ]);
  const came = new Map<string, number>();
  for (const s of signed)
    came.set(key(s.courseId, s.teacherId), (came.get(key(s.courseId, s.teacherId)) ?? 0) + s.people);
  const take = new Map<string, { countUsed: number; moneyUsed: number; revenue: number }>();
  for (const u of used) {
    if (u.kind === 'group') continue;
    const k = key(u.courseId, u.teacherId);
    const t = take.get(k) ?? { countUsed: 0, moneyUsed: 0, revenue: 0 };
    if (u.bigType === BIG_TYPE_COUNT) t.countUsed += u.amount;
    else t.moneyUsed += u.amount;
    t.revenue += usedValue(u, u.amount);
    take.set(k, t);
  }
  return rows
    .map((x) => ({
      courseId: x.courseId,
      courseName: x.courseName,
      kind: x.kind as Exclude<typeof x.kind, 'group'>,
      teacherId: x.teacherId,
      teacherName: x.teacherName,
      lessons: x.lessons,
      taught: x.taught,
      booked: x.booked,
      signedIn: came.get(key(x.courseId, x.teacherId)) ?? 0,
      ...(take.get(key(x.courseId, x.teacherId)) ?? { countUsed: 0, moneyUsed: 0, revenue: 0 }),
    }))
    .sort((a, b) => b.lessons - a.lessons || a.courseId - b.courseId || a.teacherId - b.teacherId);
}

/** Minutes after `date`'s midnight of a store-local date-time (the next midnight: 1440). */
const minuteOf = (date: string, at: string) => minutesBetween(`${date} 00:00:00`, at);

/** The Monday of a date's week. */
const mondayOf = (date: string) => addDays(date, -((weekday(date) + 6) % 7));

/**
 * Each teacher's weeks of the range: working minutes (weekly hours and extra hours less time off,
 * `workingSpans`, the free-slot finder's own), the part of them live sessions take, lesson minutes,
 * and the rate. A week is the days of it inside the range; weeks without hours or lessons (a teacher
 * of group classes only) are left out.
 */
export async function lessonUtilisation(
  ctx: CallCtx,
  input: RangeInput,
): Promise<ResOf<typeof reportLessonUtilisation>> {
  const r = rangeOf(ctx, input);
  const [hours, sessions] = await Promise.all([
    storeHours(ctx.db, ctx.store.id, r.from, r.to),
    repo.teacherSessions(ctx.db, r),
  ]);
  const teacherIds = [
    ...new Set([
      ...hours.weekly.map((h) => h.teacherId),
      ...hours.exceptions.map((e) => e.teacherId),
      ...sessions.map((s) => s.teacherId),
    ]),
  ];
  const names = new Map((await namesOf(ctx.db, 'teacher', teacherIds)).map((t) => [t.id, t.name]));
  const weeks = new Map<
    string,
    { teacherId: number; weekStart: string; work: number; booked: number; lessons: number }
  >();
  for (let date = r.from; date <= r.to; date = addDays(date, 1)) {
    const weekStart = mondayOf(date);
    for (const teacherId of teacherIds) {
      if (!names.has(teacherId)) continue;
      const spans = workingSpans(
        date,
        hours.weekly.filter((h) => h.teacherId === teacherId),
        hours.exceptions.filter((e) => e.teacherId === teacherId),
      );
      const own = sessions.filter((s) => s.teacherId === teacherId && s.startTime.startsWith(date));
      if (!spans.length && !own.length) continue;
      const k = `${teacherId}-${weekStart}`;
      const w = weeks.get(k) ?? { teacherId, weekStart, work: 0, booked: 0, lessons: 0 };
      for (const sp of spans) w.work += sp.end - sp.start;
      for (const s of own) {
        const start = minuteOf(date, s.startTime);
        const end = minuteOf(date, s.endTime);
        if (s.kind !== 'group') w.lessons += end - start;
        for (const sp of spans) w.booked += Math.max(0, Math.min(end, sp.end) - Math.max(start, sp.start));
      }
      weeks.set(k, w);
    }
  }
  return [...weeks.values()]
    .filter((w) => w.work > 0 || w.lessons > 0)
    .map((w) => ({
      teacherId: w.teacherId,
      teacherName: names.get(w.teacherId)!,
      weekStart: w.weekStart,
      workMinutes: w.work,
      bookedMinutes: w.booked,
      lessonMinutes: w.lessons,
      rate: fillRate(w.booked, w.work),
    }))
    .sort((a, b) => a.weekStart.localeCompare(b.weekStart) || a.teacherId - b.teacherId);
}

/** Lesson packs sold and consumed in the range, per product (products deleted and idle left out). */
export async function lessonPacks(ctx: CallCtx, input: RangeInput): Promise<ResOf<typeof reportLessonPacks>> {
  const r = rangeOf(ctx, input);
  const [products, issued, payments, used] = await Promise.all([
    repo.lessonPackProducts(ctx.db, ctx.store.id),
    repo.issuedByProduct(ctx.db, r),
    repo.paymentRowsIn(ctx.db, r),
    repo.usedByCard(ctx.db, r),
  ]);
  const money = new Map<number, number>();
  // Money received as `moneyReceived` counts it: a refund paid back is taken off.
  for (const p of payments)
    money.set(p.productId, (money.get(p.productId) ?? 0) + (p.kind === 'refund' ? -p.amount : p.amount));
  // What each card gave in all, then its value (one rounding per card), then per product.
  const perCard = new Map<number, (typeof used)[number]>();
  for (const u of used) {
    const c = perCard.get(u.memberCardId);
    perCard.set(u.memberCardId, c ? { ...c, amount: c.amount + u.amount } : u);
  }
  const usedOf = new Map<number, { lessons: number; value: number }>();
  for (const c of perCard.values()) {
    const x = usedOf.get(c.cardId) ?? { lessons: 0, value: 0 };
    x.lessons += c.amount;
    x.value += usedValue(c, c.amount);
    usedOf.set(c.cardId, x);
  }
  return products
    .map((p) => ({
      productId: p.id,
      cardName: p.cardName,
      teacherId: p.teacherId,
      teacherLevel: p.teacherLevel,
      cardsSold: issued.cards.get(p.id) ?? 0,
      lessonsSold: issued.added.get(p.id) ?? 0,
      moneyReceived: money.get(p.id) ?? 0,
      lessonsUsed: usedOf.get(p.id)?.lessons ?? 0,
      usedValue: usedOf.get(p.id)?.value ?? 0,
      deleted: p.deleted,
    }))
    .filter((p) => !p.deleted || p.cardsSold || p.lessonsSold || p.moneyReceived || p.lessonsUsed)
    .map(({ deleted: _, ...p }) => p);
}

/**
 * 预收款 at the end of `date` (absent or today: now): on every lesson pack neither refunded nor
 * expired then, the lessons left and what remains paid for them (`remainingValue`, the prepaid
 * limits' own measure), per product and in total. A past date takes each card as it was then
 * (`cardsForPrepaidLimits` at that moment: the ledger's and the payments' entries after it taken back
 * off, cards sold or refunded after it as unsold or unrefunded); expiry is the card's end date now.
 */
export async function lessonOutstanding(
  ctx: CallCtx,
  input: { date?: string } = {},
): Promise<ResOf<typeof reportLessonOutstanding>> {
  const now = storeNow(ctx);
  const today = now.slice(0, 10);
  if (input.date && input.date > today) throw badRequest(ReportMsg.asOfFuture);
  const past = input.date !== undefined && input.date < today;
  const at = past ? `${input.date} 23:59:59` : now;
  const [products, cards] = await Promise.all([
    repo.lessonPackProducts(ctx.db, ctx.store.id),
    cardsForPrepaidLimits(ctx.db, ctx.store.id, undefined, past ? at : undefined),
  ]);
  const byProduct = new Map(
    products.map((p) => [p.id, { productId: p.id, cardName: p.cardName, cards: 0, lessons: 0, value: 0 }]),
  );
  const total = { cards: 0, lessons: 0, value: 0 };
  for (const c of cards) {
    const row = byProduct.get(c.cardId);
    const left = Number(c.totalCount) - Number(c.usedCount);
    if (!row || left <= 0 || isExpiredAt(c, c, at)) continue;
    const value = remainingValue(c, at.slice(0, 10));
    for (const x of [row, total]) {
      x.cards += 1;
      x.lessons += left;
      x.value += value;
    }
  }
  return { asOf: at.slice(0, 10), total, products: [...byProduct.values()].filter((p) => p.cards > 0) };
}
