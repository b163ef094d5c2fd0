import { amountText, ReservationStatus, type BookingPolicy, type MemberSession } from '@studio/contract';
import type { Db } from '../../db/index.ts';
import { taggedCache } from '../../lib/cache.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { RawJson } from '../../lib/raw-json.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { suspensionOf } from '../no-show/public.ts';
import { memberCancelCost, memberSessionPhase, waitlistOpen } from '../policy/public.ts';
import { sessionsBetween } from '../today/public.ts';
import { loadTimetableState, type MemberState } from './repository.ts';

const MAX_DAYS = 14;

type Rows = Awaited<ReturnType<typeof sessionsBetween>>;

/**
 * The store's sessions of a range, as every member sees them, per app instance, tagged with the
 * range's data version (`lib/cache.ts`); at most 500 ranges per database.
 */
const ranges = taggedCache<Rows>({ max: 500 });

/**
 * The whole answer for whoever holds nothing in the range and is not suspended (the public page, and
 * most members in a class release before they book): per range, policy and second, tagged with the
 * range's data version, serialised once and compressed once per encoding (`sendRawJson`).
 */
const plainAnswers = taggedCache<RawJson>({ max: 500 });

/** The start times of the sessions of `fromDate` to `toDate`: [from, to). */
const rangeOf = (fromDate: string, toDate: string) => ({
  from: `${fromDate} 00:00:00`,
  to: `${addDays(toDate, 1)} 00:00:00`,
});

/**
 * The store's sessions from `fromDate` to `toDate` with their seats: the part of the members'
 * timetable that is the same for every member. Kept per app instance and reused while the data
 * version of the range (db/data-version.ts, the staff calendar's, read by the caller from the
 * database on every call, so a write on any instance is seen by the next read on every other) has
 * not moved. The version is read before the rows, so rows are never older than their tag.
 * Concurrent misses at one version share one load (a class release: a thousand members opening the
 * day at once).
 */
async function sessionsOfRange(
  db: Db,
  storeId: number,
  fromDate: string,
  toDate: string,
  version: string,
): Promise<Rows> {
  return ranges.get(db, `${storeId}|${fromDate}|${toDate}`, version, () =>
    sessionsBetween(db, storeId, fromDate, toDate, undefined, { groupClasses: true }),
  );
}

/** The member's state on each session they hold (booked, signed, pending, waiting). */
function memberOverlay(held: MemberState, rows: Rows, policy: BookingPolicy, now: string) {
  const mine = new Map<number, NonNullable<MemberSession['mine']>>();
  const startOf = new Map(rows.map((r) => [r.id, r.startTime]));
  const costOf = (sessionId: number, booking: Parameters<typeof memberCancelCost>[2]) =>
    memberCancelCost(policy, { startTime: startOf.get(sessionId)!, now }, booking);
  // Waits first, then pendings, then bookings: a later kind wins on the same session.
  const order = { wait: 0, pending: 1, booking: 2 };
  for (const h of [...held].sort((a, b) => order[a.kind] - order[b.kind])) {
    if (!startOf.has(h.sessionId)) continue;
    if (h.kind === 'wait') {
      mine.set(h.sessionId, { kind: 'waiting', id: h.id, position: Number(h.position), cancelCost: null });
    } else if (h.kind === 'pending') {
      mine.set(h.sessionId, {
        kind: 'pending',
        id: h.id,
        position: null,
        cancelCost: costOf(h.sessionId, { kind: 'pending' }),
      });
    } else {
      const signed = h.status === ReservationStatus.SIGNED_IN;
      mine.set(h.sessionId, {
        kind: signed ? 'signed' : 'booked',
        id: h.id,
        position: null,
        cancelCost: signed
          ? null
          : costOf(h.sessionId, { kind: 'booked', amount: amountText(h.bigType!, Number(h.usedCount)) }),
      });
    }
  }
  return mine;
}

/**
 * Sessions of the store from `fromDate` to `toDate` by day, with the member's state on each (none
 * for `memberId` null: the public page). The sessions and their seats come from the per-instance
 * cache (`sessionsOfRange`); the policy and the member's own state are read on every call.
 */
export async function timetable(
  db: Db,
  store: StoreScope,
  range: { fromDate: string; toDate: string },
  memberId: number | null,
): Promise<{ date: string; sessions: MemberSession[] }[] | RawJson> {
  if (range.toDate < range.fromDate) throw badRequest('结束日期不能早于开始日期');
  if (addDays(range.fromDate, MAX_DAYS - 1) < range.toDate) throw badRequest(`日期范围不能超过${MAX_DAYS}天`);
  const now = localDateTime(store.timezone);
  const span = rangeOf(range.fromDate, range.toDate);
  // The range's data version, the policy and what the member holds there: one round trip on
  // PostgreSQL. Then the sessions, from the cache while the version has not moved.
  const { version, policy, held } = await loadTimetableState(db, store.id, memberId, span);
  const rows = await sessionsOfRange(db, store.id, range.fromDate, range.toDate, version);
  const mine = memberOverlay(held, rows, policy, now);
  // No-shows suspend only when the policy says so (policy/rules.ts suspendedUntil): otherwise
  // there is nothing to read.
  const suspendedUntil =
    memberId !== null && rows.length && policy.noShowLimit && policy.noShowSuspendDays
      ? ((await suspensionOf(db, store.id, memberId, now))?.until ?? null)
      : null;
  if (mine.size || suspendedUntil !== null) return daysOf(range, rows, { policy, now, suspendedUntil, mine });
  const key = `${store.id}|${range.fromDate}|${range.toDate}|${now}|${JSON.stringify(policy)}`;
  return plainAnswers.get(db, key, version, async () => {
    const days = daysOf(range, rows, { policy, now, suspendedUntil: null, mine });
    return new RawJson(JSON.stringify(days), days);
  });
}

/** The range's days with their sessions as this member sees them (`mine`: what they hold). */
function daysOf(
  range: { fromDate: string; toDate: string },
  rows: Rows,
  o: {
    policy: BookingPolicy;
    now: string;
    suspendedUntil: string | null;
    mine: ReturnType<typeof memberOverlay>;
  },
): { date: string; sessions: MemberSession[] }[] {
  const { policy, now, suspendedUntil, mine } = o;
  const days = new Map<string, MemberSession[]>();
  for (let d = range.fromDate; d <= range.toDate; d = addDays(d, 1)) days.set(d, []);
  for (const r of rows) {
    const full = r.realCount >= r.reservableCount;
    const my = mine.get(r.id) ?? null;
    // Ended, running, or what the policy says to this member (suspension, booking window), before seats.
    const {
      phase,
      opensAt,
      reason: held,
    } = memberSessionPhase(policy, {
      startTime: r.startTime,
      endTime: r.endTime,
      now,
      suspendedUntil,
    });
    const reason = held ?? (full ? '已满' : null);
    days.get(r.startTime.slice(0, 10))?.push({
      id: r.id,
      fromTime: r.startTime,
      toTime: r.endTime,
      courseName: r.courseName,
      color: r.color,
      teacherName: r.teacherName,
      areaName: r.areaName,
      isOnline: Boolean(r.isOnline),
      realCount: r.realCount,
      reservableCount: r.reservableCount,
      waitCount: Number(r.waitCount ?? 0),
      mine: my,
      bookable: !my && reason === null,
      reason: my ? null : reason,
      phase,
      opensAt,
      waitlistOpen: full && !my && held === null && waitlistOpen(policy, { startTime: r.startTime, now }),
    });
  }
  return [...days].map(([date, sessions]) => ({ date, sessions }));
}
