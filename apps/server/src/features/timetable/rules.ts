import { GENDER_ALL, Msg, type BookingPolicy } from '@studio/contract';
import type { AgeLimitColumns } from '../../db/schema.ts';
import {
  capRefusal,
  capsOf,
  chargeFor,
  newBookingCardReason,
  type CardCaps,
  type CardOfRules,
} from '../cards/public.ts';
import { memberBookingReason } from '../policy/rules.ts';
import type { OpenUse } from './booking-repository.ts';

/** Member gender: 1 male, 2 female, 0 unknown. Session genderLimit: 2 all, 1 male, otherwise female. */
export function genderRefusal(genderLimit: number, memberGender: number): string | null {
  if (genderLimit === GENDER_ALL) return null;
  const wanted = genderLimit === 1 ? 1 : 2;
  return memberGender === wanted ? null : Msg.genderLimited;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Whole months between a birthday and a date (`YYYY-MM-DD`), counting a month only once its day is reached. */
export function ageInMonths(birthday: string, at: string): number {
  const [by, bm, bd] = birthday.slice(0, 10).split('-').map(Number);
  const [ay, am, ad] = at.slice(0, 10).split('-').map(Number);
  return (ay - by) * 12 + (am - bm) - (ad < bd ? 1 : 0);
}

/**
 * Checks a session's age limit against a member's birthday at the session's date.
 * - ageLimit 0: no limit.
 * - ageLimit 1 (age range): syear/smonth is the minimum age (years + months), eyear/emonth the
 *   maximum age (years + months), both inclusive, counted in whole months at the session date.
 *   A bound whose year and month are both empty is open.
 * - ageLimit 2 (birth-date range): the birthday must fall between syear-smonth-sday and
 *   eyear-emonth-eday inclusive; an empty month or day means 1 for the start and 12 / 31 for the end.
 * A member without a birthday cannot pass a limit.
 */
export function ageRefusal(limit: AgeLimitColumns, birthday: string | null, sessionDate: string): string | null {
  if (!limit.ageLimit) return null;
  if (!birthday) return Msg.ageLimited;
  if (limit.ageLimit === 1) {
    const age = ageInMonths(birthday, sessionDate);
    const hasMin = limit.syear != null || limit.smonth != null;
    const hasMax = limit.eyear != null || limit.emonth != null;
    const min = (limit.syear ?? 0) * 12 + (limit.smonth ?? 0);
    const max = (limit.eyear ?? 0) * 12 + (limit.emonth ?? 0);
    if (hasMin && age < min) return Msg.ageLimited;
    if (hasMax && age > max) return Msg.ageLimited;
    return null;
  }
  const b = birthday.slice(0, 10);
  if (limit.syear) {
    const from = `${limit.syear}-${pad(limit.smonth || 1)}-${pad(limit.sday || 1)}`;
    if (b < from) return Msg.ageLimited;
  }
  if (limit.eyear) {
    const to = `${limit.eyear}-${pad(limit.emonth || 12)}-${pad(limit.eday || 31)}`;
    if (b > to) return Msg.ageLimited;
  }
  return null;
}

/** What the booking rules need of a session a booking goes into (one not yet written included). */
export interface SessionForRules extends AgeLimitColumns {
  /** Tells the sessions of one set apart: the session's id, or its place in a plan not yet written. */
  key: number;
  startTime: string;
  endTime: string;
  reservableCount: number;
  /** Seats taken before this set of bookings. */
  realCount: number;
  genderLimit: number;
  /** The card products that may book it. */
  allowedCardIds: readonly number[];
}
export interface MemberForRules {
  id: number;
  gender: number;
  birthday: string | null;
}
/** A member's own booking (or the promotion of their wait) is held to the store's policy: these. */
export interface MemberRules {
  policy: BookingPolicy;
  /** Until when their online booking is suspended (no-shows), or null. */
  suspendedUntil: string | null;
}

/** One booking someone intends to make: a member, a session, the card that pays for it (or none). */
export interface IntendedBooking {
  session: SessionForRules;
  member: MemberForRules;
  /** The card charged now (deduction mode 0) or at sign-in (mode 1); null for a pending without one. */
  card: CardOfRules | null;
  studentCount: number;
}

const heldKey = (sessionKey: number, memberId: number) => `${sessionKey}:${memberId}`;

/**
 * The booking rules over a set of intended bookings, taken one after another: each is checked
 * against the store's state before the set (the card's balance and open bookings, the seats taken,
 * the members already booked, given as `held` pairs of session key and member id) plus the
 * bookings of the set accepted before it. In the order every booking path refuses in: for a
 * member's own booking (`member`) the store's policy (suspension, booking window, a period card's
 * open bookings: policy/rules.ts), one student a booking in deduction mode 1, the card rules
 * (features/cards/rules.ts, the card's start date among them; with what the set already charged the
 * card in mode 0, or will charge it at sign-in in mode 1, beside what its open pendings will), the
 * session not over at `now`, the gender and age limits, one live booking per member and session, the seats. A single booking is a
 * set of one; batch scheduling, template runs, drop-in, copy, the waitlist and the demo seed all
 * take their bookings through this.
 */
export function bookingChecker(o: { mode: 0 | 1; held?: Iterable<readonly [number, number]>; member?: MemberRules }) {
  const spent = new Map<number, number>();
  /** Mode 1: what the set's pendings will take from each card at sign-in. */
  const committed = new Map<number, number>();
  /** The set's bookings of each card (its open bookings grow by these). */
  const opened = new Map<number, number>();
  const seats = new Map<number, number>();
  /** The set's classes of each capped card per day (`${cardId} ${day}`). */
  const capTaken = new Map<string, number>();
  const held = new Set<string>();
  for (const [sessionKey, memberId] of o.held ?? []) held.add(heldKey(sessionKey, memberId));
  const add = (m: Map<number, number>, key: number, n: number) => m.set(key, (m.get(key) ?? 0) + n);
  const refusal = (b: IntendedBooking, now: string): string | null => {
    const { session: s, member: m, card, studentCount } = b;
    if (o.member) {
      const reason = memberBookingReason(o.member.policy, {
        startTime: s.startTime,
        now,
        suspendedUntil: o.member.suspendedUntil,
        card: card && { perCount: card.perCount, openBookings: (card.openBookings ?? 0) + (opened.get(card.id) ?? 0) },
      });
      if (reason) return reason;
    }
    if (o.mode === 1 && studentCount !== 1) return Msg.oneStudentInSignInMode;
    if (card) {
      const used = spent.get(card.id);
      const more = committed.get(card.id);
      const reason = newBookingCardReason({
        card:
          used === undefined && more === undefined
            ? card
            : { ...card, usedCount: card.usedCount + (used ?? 0), committed: (card.committed ?? 0) + (more ?? 0) },
        product: card,
        memberId: m.id,
        allowedCardIds: s.allowedCardIds,
        at: s.startTime,
        studentCount,
      });
      if (reason) return reason;
      const caps = card.caps;
      if (caps) {
        const count = (d: string) => (caps.perDay.get(d) ?? 0) + (capTaken.get(`${card.id} ${d}`) ?? 0);
        const capped = capRefusal(caps, s.startTime.slice(0, 10), count);
        if (capped) return capped;
      }
    }
    if (s.endTime <= now) return Msg.sessionStarted;
    return (
      genderRefusal(s.genderLimit, m.gender) ??
      ageRefusal(s, m.birthday, s.startTime.slice(0, 10)) ??
      (held.has(heldKey(s.key, m.id)) ? Msg.alreadyBooked : null) ??
      (s.realCount + (seats.get(s.key) ?? 0) + studentCount > s.reservableCount ? Msg.sessionFull : null)
    );
  };
  return {
    /** Why `b` would be refused at `now` after the bookings taken so far, or null (nothing is taken). */
    check: refusal,
    /** Why `b` is refused at `now` after the bookings taken so far, or null: then it is taken too. */
    take(b: IntendedBooking, now: string): string | null {
      const reason = refusal(b, now);
      if (reason) return reason;
      held.add(heldKey(b.session.key, b.member.id));
      add(seats, b.session.key, b.studentCount);
      if (b.card) {
        add(o.mode === 0 ? spent : committed, b.card.id, chargeFor(b.card, b.studentCount));
        add(opened, b.card.id, 1);
        if (b.card.caps) {
          const key = `${b.card.id} ${b.session.startTime.slice(0, 10)}`;
          capTaken.set(key, (capTaken.get(key) ?? 0) + 1);
        }
      }
      return null;
    },
    /** What each card pays for the bookings taken (deduction mode 0; nothing in mode 1). */
    spent,
  };
}

/**
 * Checks a set of bookings in the order they happen (session start, then the order given): the
 * first refused one with its reason, or null and what each card pays in total.
 */
export function checkBookingSet(
  bookings: readonly IntendedBooking[],
  o: { mode: 0 | 1; now: string; held?: Iterable<readonly [number, number]>; member?: MemberRules },
): { refused: { index: number; reason: string } | null; spent: Map<number, number> } {
  const checker = bookingChecker(o);
  // Plain string order (the times are ISO-like): localeCompare costs far more over tens of thousands.
  const at = (i: number) => bookings[i].session.startTime;
  const order = bookings.map((_, i) => i).sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : a - b));
  for (const index of order) {
    const reason = checker.take(bookings[index], o.now);
    if (reason) return { refused: { index, reason }, spent: checker.spent };
  }
  return { refused: null, spent: checker.spent };
}

/** A card as a new booking's rules read it: with what its open bookings hold (`openUseOf`). */
export function withOpenUse<C extends { perCount: number }>(
  card: C,
  use: OpenUse | undefined,
): C & { committed: number; openBookings: number; caps: CardCaps | null } {
  return {
    ...card,
    committed: (use?.pendingSeats ?? 0) * card.perCount,
    openBookings: use?.openBookings ?? 0,
    caps: use && use.capDays !== null ? capsOf(use) : null,
  };
}
