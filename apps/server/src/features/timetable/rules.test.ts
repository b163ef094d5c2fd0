import { DEFAULT_POLICY, Msg, PolicyMsg } from '@studio/contract';
import { describe, expect, it } from 'vitest';
import {
  ageInMonths,
  ageRefusal,
  bookingChecker,
  checkBookingSet,
  genderRefusal,
  type IntendedBooking,
} from './rules.ts';

const none = { genderLimit: 2, syear: null, smonth: null, sday: null, eyear: null, emonth: null, eday: null };

describe('gender and age limits', () => {
  it('counts whole months, a month only once its day is reached', () => {
    expect(ageInMonths('2020-01-15', '2021-01-14')).toBe(11);
    expect(ageInMonths('2020-01-15', '2021-01-15')).toBe(12);
    expect(ageInMonths('2020-01-31', '2020-03-01')).toBe(1);
  });

  it('reads the gender limit as 2 all, 1 male, otherwise female', () => {
    expect(genderRefusal(2, 0)).toBeNull();
    expect(genderRefusal(1, 1)).toBeNull();
    expect(genderRefusal(1, 2)).toBe(Msg.genderLimited);
    expect(genderRefusal(0, 2)).toBeNull();
    expect(genderRefusal(0, 0)).toBe(Msg.genderLimited);
  });

  it('leaves an open bound of an age range open', () => {
    const minOnly = { ...none, ageLimit: 1, syear: 5 };
    expect(ageRefusal(minOnly, '2000-01-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(minOnly, '2026-01-02', '2030-01-01')).toBe(Msg.ageLimited);
    const maxOnly = { ...none, ageLimit: 1, eyear: 0, emonth: 18 };
    expect(ageRefusal(maxOnly, '2028-07-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(maxOnly, '2028-06-01', '2030-01-01')).toBe(Msg.ageLimited);
  });

  it('fills a missing month or day of a birth-date range to cover the whole year or month', () => {
    const years = { ...none, ageLimit: 2, syear: 2020, eyear: 2021 };
    expect(ageRefusal(years, '2020-01-01', '2030-01-01')).toBeNull();
    expect(ageRefusal(years, '2021-12-31', '2030-01-01')).toBeNull();
    expect(ageRefusal(years, '2019-12-31', '2030-01-01')).toBe(Msg.ageLimited);
    expect(ageRefusal(years, '2022-01-01', '2030-01-01')).toBe(Msg.ageLimited);
    expect(ageRefusal({ ...none, ageLimit: 0 }, null, '2030-01-01')).toBeNull();
    expect(ageRefusal(years, null, '2030-01-01')).toBe(Msg.ageLimited);
  });
});

describe('the booking rule set over a set of bookings', () => {
  const session = (key: number, startTime: string, seats = 2) => ({
    ...none,
    ageLimit: 0,
    key,
    startTime,
    endTime: startTime.replace(/ \d\d:/, (h) => ` ${String(Number(h.slice(1, 3)) + 1).padStart(2, '0')}:`),
    reservableCount: seats,
    realCount: 0,
    allowedCardIds: [7],
  });
  const member = (id: number, gender = 1) => ({ id, gender, birthday: '1990-01-01' });
  // A count card (perCount 1) of product 7 with `left` classes.
  const card = (id: number, memberId: number, left: number) => ({
    id,
    memberId,
    cardId: 7,
    totalCount: left,
    usedCount: 0,
    expireTime: null,
    frozen: 0,
    leavePeriods: '[]',
    sharedWith: '[]',
    activateTime: null,
    activation: 'sale',
    cardType: 3,
    perCount: 1,
  });
  const now = '2030-01-01 08:00:00';
  const a = session(1, '2030-01-02 09:00:00');
  const b = session(2, '2030-01-03 09:00:00');
  const booking = (s: typeof a, memberId: number, c: ReturnType<typeof card> | null, n = 1): IntendedBooking => ({
    session: s,
    member: member(memberId),
    card: c,
    studentCount: n,
  });

  it('charges a card its running balance over the set, in session time order', () => {
    const c = card(10, 1, 1);
    // Given later-first, the earlier session is booked first and the later one runs out.
    const { refused, spent } = checkBookingSet([booking(b, 1, c), booking(a, 1, c)], { mode: 0, now });
    expect(refused).toEqual({ index: 0, reason: Msg.cardBalance });
    expect(spent.get(10)).toBe(1);
    const two = card(11, 1, 2);
    const ok = checkBookingSet([booking(b, 1, two), booking(a, 1, two)], { mode: 0, now });
    expect(ok.refused).toBeNull();
    expect(ok.spent.get(11)).toBe(2);
  });

  it('counts the seats the set takes on top of those taken before it', () => {
    const full = { ...a, realCount: 1 };
    const set = [booking(full, 1, card(10, 1, 5)), booking(full, 2, card(20, 2, 5))];
    expect(checkBookingSet(set, { mode: 0, now }).refused).toEqual({ index: 1, reason: Msg.sessionFull });
    expect(checkBookingSet([booking(a, 1, card(10, 1, 5), 3)], { mode: 0, now }).refused?.reason).toBe(Msg.sessionFull);
  });

  it('refuses a member twice in a session, within the set or against what they hold', () => {
    const c = card(10, 1, 5);
    expect(checkBookingSet([booking(a, 1, c), booking(a, 1, c)], { mode: 0, now }).refused).toEqual({
      index: 1,
      reason: Msg.alreadyBooked,
    });
    expect(checkBookingSet([booking(a, 1, c)], { mode: 0, now, held: [[1, 1]] }).refused?.reason).toBe(
      Msg.alreadyBooked,
    );
    expect(checkBookingSet([booking(b, 1, c)], { mode: 0, now, held: [[1, 1]] }).refused).toBeNull();
  });

  it('refuses in one order: one student in mode 1, card, session over, gender, age, duplicate, seats', () => {
    const over = { ...a, endTime: now };
    const women = { ...a, genderLimit: 0 };
    const broke = card(10, 1, 0);
    // A card that cannot pay wins over the session being over and the gender limit.
    expect(checkBookingSet([booking({ ...over, genderLimit: 0 }, 1, broke)], { mode: 0, now }).refused?.reason).toBe(
      Msg.cardBalance,
    );
    expect(checkBookingSet([booking({ ...over, genderLimit: 0 }, 1, null)], { mode: 1, now }).refused?.reason).toBe(
      Msg.sessionStarted,
    );
    expect(checkBookingSet([booking(women, 1, null)], { mode: 1, now }).refused?.reason).toBe(Msg.genderLimited);
    expect(checkBookingSet([booking(a, 1, broke, 2)], { mode: 1, now }).refused?.reason).toBe(
      Msg.oneStudentInSignInMode,
    );
    // Mode 1 charges nothing now, but each pending will be charged at sign-in: a card holding one
    // class holds one pending; holding two, both (and nothing is spent now).
    const one = card(10, 1, 1);
    expect(checkBookingSet([booking(a, 1, one), booking(b, 1, one)], { mode: 1, now }).refused).toEqual({
      index: 1,
      reason: Msg.cardCommitted,
    });
    const two = card(11, 1, 2);
    const held = checkBookingSet([booking(a, 1, two), booking(b, 1, two)], { mode: 1, now });
    expect(held.refused).toBeNull();
    expect(held.spent.size).toBe(0);
  });

  it('leaves room on a card for what its open pendings will take, in both modes', () => {
    // Two classes left, one of them promised to a pending waiting for sign-in.
    const promised = { ...card(10, 1, 2), committed: 1 };
    for (const mode of [0, 1] as const) {
      expect(checkBookingSet([booking(a, 1, promised)], { mode, now }).refused).toBeNull();
      expect(checkBookingSet([booking(a, 1, promised), booking(b, 1, promised)], { mode, now }).refused).toEqual({
        index: 1,
        reason: Msg.cardCommitted,
      });
    }
    const spoken = { ...promised, committed: 2 };
    expect(checkBookingSet([booking(a, 1, spoken)], { mode: 1, now }).refused?.reason).toBe(Msg.cardCommitted);
  });

  it("holds a member's own booking to the policy: suspension, window, a period card's open bookings", () => {
    const policy = { ...DEFAULT_POLICY, openDaysBefore: 3, maxOpenBookings: 2 };
    const far = session(4, '2030-01-09 09:00:00');
    const member = { policy, suspendedUntil: null };
    const period = { ...card(10, 1, 1), perCount: 0, openBookings: 1 };
    for (const mode of [0, 1] as const) {
      // Opens three days before: a (tomorrow) is open, far (in eight days) not yet.
      expect(checkBookingSet([booking(far, 1, card(9, 1, 5))], { mode, now, member }).refused?.reason).toBe(
        PolicyMsg.notOpenYet(3),
      );
      expect(checkBookingSet([booking(far, 1, card(9, 1, 5))], { mode, now }).refused).toBeNull();
      // One open booking held, one more allowed, the set's next is one too many.
      const later = { ...a, key: 3 };
      expect(
        checkBookingSet([booking(a, 1, period), booking(later, 1, period)], { mode, now, member }).refused,
      ).toEqual({ index: 1, reason: PolicyMsg.tooManyOpen(2) });
      // Staff are not held to it (their override is recorded by the engine); a count card is held by its balance.
      expect(checkBookingSet([booking(a, 1, period), booking(later, 1, period)], { mode, now }).refused).toBeNull();
      expect(
        checkBookingSet([booking(a, 1, card(9, 1, 5)), booking(later, 1, card(9, 1, 5))], { mode, now, member })
          .refused,
      ).toBeNull();
      const suspended = { policy, suspendedUntil: '2030-01-05 09:00:00' };
      expect(checkBookingSet([booking(a, 1, card(9, 1, 5))], { mode, now, member: suspended }).refused?.reason).toBe(
        PolicyMsg.suspended('2030-01-05 09:00:00'),
      );
    }
  });

  it('takes only what passes: a refused booking leaves the checker as it was', () => {
    const checker = bookingChecker({ mode: 0 });
    const c = card(10, 1, 1);
    expect(checker.take(booking(a, 2, c), now)).toBe(Msg.cardNotOwned);
    expect(checker.check(booking(a, 1, c), now)).toBeNull();
    expect(checker.spent.size).toBe(0);
    expect(checker.take(booking(a, 1, c), now)).toBeNull();
    expect(checker.take(booking(b, 1, c), now)).toBe(Msg.cardBalance);
    expect(checker.spent.get(10)).toBe(1);
  });
});
