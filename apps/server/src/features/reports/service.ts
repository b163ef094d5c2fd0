import type { cardAlertList, inactiveMemberList, ParsedReqOf, ResOf, reportOverview } from '@studio/contract';
import { BIG_TYPE_COUNT } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { addDays, localDateTime, weekday } from '../../lib/time.ts';
import { isExpiredAt } from '../cards/public.ts';
import * as repo from './repository.ts';
import type { FillRow } from './repository.ts';

type RangeInput = { fromDate: string; toDate: string };
const rangeOf = (ctx: CallCtx, input: RangeInput): repo.Range => ({
  storeId: ctx.store.id,
  from: input.fromDate,
  to: input.toDate,
});
const now = (ctx: CallCtx) => localDateTime(ctx.store.timezone);

/** Seats taken over seats offered, to four decimals; 0 when nothing was offered. */
export const fillRate = (booked: number, seats: number) =>
  seats > 0 ? Math.round((booked / seats) * 10_000) / 10_000 : 0;
const withRate = <T extends FillRow>(row: T) => ({ ...row, fillRate: fillRate(row.booked, row.seats) });

export async function overview(ctx: CallCtx, input: RangeInput): Promise<ResOf<typeof reportOverview>> {
  const r = rangeOf(ctx, input);
  const [totals, signed, noShows, lateCancels, used, fresh, activeMembers, moneyReceived] = await Promise.all([
    repo.fillTotals(ctx.db, r),
    repo.signedInBySession(ctx.db, r),
    repo.noShowPeople(ctx.db, r, now(ctx)),
    repo.lateCancelCount(ctx.db, r),
    repo.consumption(ctx.db, r),
    repo.newThings(ctx.db, r),
    repo.activeMemberCount(ctx.db, r),
    repo.moneyReceived(ctx.db, r),
  ]);
  return {
    ...withRate(totals),
    signedIn: signed.reduce((s, x) => s + x.people, 0),
    noShows,
    lateCancels,
    ...used,
    ...fresh,
    moneyReceived: moneyReceived.total,
    moneySplit: moneyReceived.split,
    activeMembers,
  };
}

export async function byCourse(ctx: CallCtx, input: RangeInput) {
  const rows = await repo.fillByCourse(ctx.db, rangeOf(ctx, input));
  return rows.map(withRate).sort((a, b) => b.booked - a.booked || a.courseId - b.courseId);
}

export async function byTeacher(ctx: CallCtx, input: RangeInput) {
  const r = rangeOf(ctx, input);
  const [rows, signed] = await Promise.all([repo.fillByTeacher(ctx.db, r), repo.signedInBySession(ctx.db, r)]);
  const signedBy = new Map<number, number>();
  for (const s of signed) signedBy.set(s.teacherId, (signedBy.get(s.teacherId) ?? 0) + s.people);
  return rows
    .map((x) => ({
      teacherId: x.teacherId,
      teacherName: x.teacherName,
      sessions: x.sessions,
      booked: x.booked,
      signedIn: signedBy.get(x.teacherId) ?? 0,
    }))
    .sort((a, b) => b.sessions - a.sessions || a.teacherId - b.teacherId);
}

function add(into: FillRow, x: FillRow) {
  into.sessions += x.sessions;
  into.seats += x.seats;
  into.booked += x.booked;
}

/** Weekday (0 = Sunday) x start hour, only the slots that had sessions. */
export async function bySlot(ctx: CallCtx, input: RangeInput) {
  const cells = new Map<string, FillRow & { weekday: number; hour: number }>();
  for (const x of await repo.fillByDateHour(ctx.db, rangeOf(ctx, input))) {
    const wd = weekday(x.date);
    const key = `${wd}-${x.hour}`;
    const cell = cells.get(key) ?? { weekday: wd, hour: x.hour, sessions: 0, seats: 0, booked: 0 };
    add(cell, x);
    cells.set(key, cell);
  }
  return [...cells.values()].map(withRate).sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
}

/** Every date of the range, in order, days without sessions included (a trend line has no holes). */
export async function byDay(ctx: CallCtx, input: RangeInput) {
  const r = rangeOf(ctx, input);
  const [cells, signed] = await Promise.all([repo.fillByDateHour(ctx.db, r), repo.signedInBySession(ctx.db, r)]);
  const days = new Map<string, FillRow & { signedIn: number }>();
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) days.set(d, { sessions: 0, seats: 0, booked: 0, signedIn: 0 });
  for (const x of cells) add(days.get(x.date)!, x);
  for (const s of signed) days.get(s.date)!.signedIn += s.people;
  return [...days].map(([date, x]) => ({ date, ...withRate(x) }));
}

/** Cards to look after: expiring within `days`, count cards at or below `minCount`, money cards below `minMoney`. */
export function cardAlerts(ctx: CallCtx, input: ParsedReqOf<typeof cardAlertList>) {
  return cardsToAlert(ctx.db, ctx.store.id, now(ctx), input);
}

/** The card alerts of a store at store-local time `at` (the list and the daily digest). */
export async function cardsToAlert(
  db: Executor,
  storeId: number,
  at: string,
  input: ParsedReqOf<typeof cardAlertList>,
): Promise<ResOf<typeof cardAlertList>> {
  const until = `${addDays(at.slice(0, 10), input.days)} 23:59:59`;
  const out: ResOf<typeof cardAlertList> = [];
  for (const c of await repo.unfrozenCards(db, storeId)) {
    if (isExpiredAt(c, c, at)) continue;
    const balance = c.totalCount - c.usedCount;
    const reasons: ResOf<typeof cardAlertList>[number]['reasons'] = [];
    if (isExpiredAt(c, c, until)) reasons.push('expiring');
    if (c.bigType === BIG_TYPE_COUNT && balance <= input.minCount) reasons.push('lowCount');
    if (c.bigType !== BIG_TYPE_COUNT && balance < input.minMoney) reasons.push('lowMoney');
    if (!reasons.length) continue;
    out.push({
      member: { id: c.memberId, name: c.memberName, mobile: c.mobile },
      card: { id: c.id, cardName: c.cardName, bigType: c.bigType },
      balance,
      expireTime: c.expireTime,
      reasons,
    });
  }
  // Soonest expiry first (cards that never expire last), then by card.
  return out.sort((a, b) => (a.expireTime ?? '9999').localeCompare(b.expireTime ?? '9999') || a.card.id - b.card.id);
}

/** Members not seen for `days` days (or never), longest absent first, with how many live cards they hold. */
export async function inactiveMembers(ctx: CallCtx, days: number): Promise<ResOf<typeof inactiveMemberList>> {
  const at = now(ctx);
  const since = `${addDays(at.slice(0, 10), -days)} ${at.slice(11)}`;
  const [members, cards] = await Promise.all([
    repo.membersNotSeenSince(ctx.db, ctx.store.id, since, at),
    repo.unfrozenCards(ctx.db, ctx.store.id),
  ]);
  const live = new Map<number, number>();
  for (const c of cards) if (!isExpiredAt(c, c, at)) live.set(c.memberId, (live.get(c.memberId) ?? 0) + 1);
  return members
    .map((m) => ({
      member: { id: m.id, name: m.name, mobile: m.mobile },
      lastVisit: m.lastVisit ?? null,
      liveCards: live.get(m.id) ?? 0,
    }))
    .sort((a, b) => (a.lastVisit ?? '').localeCompare(b.lastVisit ?? '') || a.member.id - b.member.id);
}
