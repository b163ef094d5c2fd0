import { DEFAULT_POLICY, PolicyMsg, type BookingPolicy } from '@studio/contract';
import { describe, expect, it } from 'vitest';
import {
  bookingWindowReason,
  cancelKind,
  memberBookingReason,
  openBookingsReason,
  suspendedUntil,
  waitlistOpen,
} from './rules.ts';

const p = (o: Partial<BookingPolicy> = {}): BookingPolicy => ({ ...DEFAULT_POLICY, ...o });
const START = '2030-05-10 19:00:00';

describe('booking policy rules', () => {
  it('the defaults limit nothing before the start and close at the start', () => {
    expect(bookingWindowReason(p(), { startTime: START, now: '2029-01-01 00:00:00' })).toBeNull();
    expect(bookingWindowReason(p(), { startTime: START, now: START })).toBeNull();
    expect(bookingWindowReason(p(), { startTime: START, now: '2030-05-10 19:00:01' })).toBe(PolicyMsg.closed(0));
    expect(cancelKind(p(), { startTime: START, now: START })).toBe('free');
    expect(cancelKind(p(), { startTime: START, now: '2030-05-10 19:00:01' })).toBe('refused');
    expect(waitlistOpen(p(), { startTime: START, now: '2030-05-01 00:00:00' })).toBe(false);
    expect(suspendedUntil(p(), ['2030-05-01 10:00:00', '2030-05-02 10:00:00'], '2030-05-03 00:00:00')).toBeNull();
  });

  it('opens N days before the start, to the second', () => {
    const pol = p({ openDaysBefore: 7 });
    expect(bookingWindowReason(pol, { startTime: START, now: '2030-05-03 18:59:59' })).toBe(PolicyMsg.notOpenYet(7));
    expect(bookingWindowReason(pol, { startTime: START, now: '2030-05-03 19:00:00' })).toBeNull();
  });

  it('closes M minutes before the start', () => {
    const pol = p({ closeMinutesBefore: 30 });
    expect(bookingWindowReason(pol, { startTime: START, now: '2030-05-10 18:30:00' })).toBeNull();
    expect(bookingWindowReason(pol, { startTime: START, now: '2030-05-10 18:30:01' })).toBe(PolicyMsg.closed(30));
  });

  it('cancels free until K minutes before, then refused or forfeit', () => {
    const w = (now: string) => ({ startTime: START, now });
    expect(cancelKind(p({ cancelMinutesBefore: 120 }), w('2030-05-10 17:00:00'))).toBe('free');
    expect(cancelKind(p({ cancelMinutesBefore: 120 }), w('2030-05-10 17:00:01'))).toBe('refused');
    expect(cancelKind(p({ cancelMinutesBefore: 120, lateCancel: 'forfeit' }), w('2030-05-10 17:00:01'))).toBe(
      'forfeit',
    );
    // Across midnight.
    expect(cancelKind(p({ cancelMinutesBefore: 24 * 60 }), w('2030-05-09 19:00:00'))).toBe('free');
    expect(cancelKind(p({ cancelMinutesBefore: 24 * 60 }), w('2030-05-09 19:00:01'))).toBe('refused');
  });

  it('promotes from the waitlist only when it is on and before the cutoff', () => {
    const pol = p({ waitlist: 1, waitlistCutoffMinutes: 60 });
    expect(waitlistOpen(pol, { startTime: START, now: '2030-05-10 17:59:59' })).toBe(true);
    expect(waitlistOpen(pol, { startTime: START, now: '2030-05-10 18:00:00' })).toBe(false);
  });

  it('suspends after the N-th no-show within 30 days, for D days from the last', () => {
    const pol = p({ noShowLimit: 3, noShowSuspendDays: 7 });
    const shows = ['2030-04-01 10:00:00', '2030-04-20 10:00:00', '2030-04-25 10:00:00'];
    expect(suspendedUntil(pol, shows, '2030-04-26 00:00:00')).toBe('2030-05-02 10:00:00');
    expect(suspendedUntil(pol, shows.slice(1), '2030-04-26 00:00:00')).toBeNull();
    // The first is more than 30 days before now: only two count.
    expect(suspendedUntil(pol, shows, '2030-05-02 00:00:00')).toBeNull();
    // Over by the end of the suspension.
    expect(suspendedUntil(p({ noShowLimit: 2, noShowSuspendDays: 7 }), shows, '2030-05-02 10:00:00')).toBeNull();
    expect(suspendedUntil(p({ noShowLimit: 2, noShowSuspendDays: 0 }), shows, '2030-04-26 00:00:00')).toBeNull();
  });

  it("limits a period card's open bookings (default 10; 0 = no limit), not a count or money card's", () => {
    const period = (openBookings: number) => ({ perCount: 0, openBookings });
    expect(openBookingsReason(p(), period(9))).toBeNull();
    expect(openBookingsReason(p(), period(10))).toBe(PolicyMsg.tooManyOpen(10));
    expect(openBookingsReason(p({ maxOpenBookings: 0 }), period(500))).toBeNull();
    expect(openBookingsReason(p({ maxOpenBookings: 1 }), { perCount: 1, openBookings: 500 })).toBeNull();
  });

  it("says why a member's own booking is kept out: suspension, then the window, then the card", () => {
    const pol = p({ closeMinutesBefore: 30, maxOpenBookings: 1 });
    const w = {
      startTime: START,
      now: '2030-05-10 18:45:00',
      suspendedUntil: null,
      card: { perCount: 0, openBookings: 1 },
    };
    expect(memberBookingReason(pol, { ...w, suspendedUntil: '2030-05-12 10:00:00' })).toBe(
      PolicyMsg.suspended('2030-05-12 10:00:00'),
    );
    expect(memberBookingReason(pol, w)).toBe(PolicyMsg.closed(30));
    expect(memberBookingReason(pol, { ...w, now: '2030-05-10 18:00:00' })).toBe(PolicyMsg.tooManyOpen(1));
    expect(memberBookingReason(pol, { ...w, now: '2030-05-10 18:00:00', card: null })).toBeNull();
  });
});
