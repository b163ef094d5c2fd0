import {
  DEDUCT_AT_SIGN_IN,
  DEFAULT_POLICY,
  PhaseMsg,
  PolicyMsg,
  TimetableMsg,
  type BookingPolicy,
  type MemberPhase,
} from '@studio/contract';
import { addDays, addMinutes } from '../../lib/time.ts';

/** Store-local `YYYY-MM-DD HH:mm:ss` times of a session and of now. */
export interface When {
  startTime: string;
  now: string;
}

/**
 * Why the booking window keeps a booking out at `now`, or null when it is open: not yet open
 * (`openDaysBefore` days before the start) or already closed (`closeMinutesBefore` before it).
 * Members are refused with the reason; staff book anyway, the reason recorded as an override.
 */
export function bookingWindowReason(p: BookingPolicy, w: When): string | null {
  const phase = windowPhase(p, w);
  if (phase === 'notOpen') return PolicyMsg.notOpenYet(p.openDaysBefore);
  return phase === 'closed' ? PolicyMsg.closed(p.closeMinutesBefore) : null;
}

/** The booking window at `now`: not open yet, open, or closed (`closeMinutesBefore` before the start). */
function windowPhase(p: BookingPolicy, w: When): 'notOpen' | 'open' | 'closed' {
  if (p.openDaysBefore > 0 && w.now < opensAt(p, w.startTime)) return 'notOpen';
  return w.now > addMinutes(w.startTime, -p.closeMinutesBefore) ? 'closed' : 'open';
}

/**
 * What the members' timetable says of a session at `now`, seats aside: where it stands (ended,
 * running, or the booking window's phase), when booking opens (phase notOpen), and why a member
 * cannot book it, or null: ended, running, their suspension, then the window (with the date it
 * opens). The booking itself is refused by memberBookingReason.
 */
export function memberSessionPhase(
  p: BookingPolicy,
  w: When & { endTime: string; suspendedUntil: string | null },
): { phase: MemberPhase; opensAt: string | null; reason: string | null } {
  if (w.endTime <= w.now) return { phase: 'ended', opensAt: null, reason: PhaseMsg.endedReason };
  if (w.startTime <= w.now) return { phase: 'running', opensAt: null, reason: PhaseMsg.runningReason };
  const phase = windowPhase(p, w);
  const at = phase === 'notOpen' ? opensAt(p, w.startTime) : null;
  const reason = w.suspendedUntil
    ? PolicyMsg.suspended(w.suspendedUntil)
    : at
      ? PhaseMsg.opensAt(at)
      : phase === 'closed'
        ? PolicyMsg.closed(p.closeMinutesBefore)
        : null;
  return { phase, opensAt: at, reason };
}

/**
 * Why a card may not hold one more open booking, or null: a period card (its product charges
 * nothing per class, so its balance never limits it) holds at most `maxOpenBookings` open bookings
 * (booked or waiting for sign-in, of classes not ended; 0 = no limit). Count and money cards are
 * limited by their balance instead (cards/rules.ts).
 */
export function openBookingsReason(p: BookingPolicy, card: { perCount: number; openBookings?: number }): string | null {
  if (card.perCount !== 0 || !p.maxOpenBookings) return null;
  return (card.openBookings ?? 0) >= p.maxOpenBookings ? PolicyMsg.tooManyOpen(p.maxOpenBookings) : null;
}

/**
 * Why the policy keeps a member's own booking (or wait, or the promotion of their wait) out at
 * `now`, or null, in this order: their online booking is suspended (no-shows), the booking window,
 * the card's open bookings. Members are refused with it; a staff booking it would refuse is made
 * anyway and history records the reason as an override.
 */
export function memberBookingReason(
  p: BookingPolicy,
  w: When & { suspendedUntil: string | null; card: { perCount: number; openBookings?: number } | null },
): string | null {
  if (w.suspendedUntil) return PolicyMsg.suspended(w.suspendedUntil);
  return bookingWindowReason(p, w) ?? (w.card ? openBookingsReason(p, w.card) : null);
}

/** When booking a class opens: `openDaysBefore` whole days before its start time. */
export const opensAt = (p: BookingPolicy, startTime: string) =>
  `${addDays(startTime.slice(0, 10), -p.openDaysBefore)} ${startTime.slice(11)}`;

/**
 * What a cancel at `now` is: free until `cancelMinutesBefore` before the start, then late: refused,
 * or allowed keeping the deduction (forfeit), as the policy says.
 */
export function cancelKind(p: BookingPolicy, w: When): 'free' | 'forfeit' | 'refused' {
  if (w.now <= addMinutes(w.startTime, -p.cancelMinutesBefore)) return 'free';
  return p.lateCancel === 'forfeit' ? 'forfeit' : 'refused';
}

/**
 * What a member's own cancel at `now` costs, in their words: a booking's is refunded (`amount`, what
 * it took) or kept, a pending's is free or charges its card what its sign-in would;
 * refused when late cancels are, and nothing once the class started (the cancel is refused then).
 */
export function memberCancelCost(
  p: BookingPolicy,
  w: When,
  booking: { kind: 'booked'; amount: string } | { kind: 'pending' },
): string | null {
  if (w.now >= w.startTime) return TimetableMsg.startedNoCancel;
  const kind = cancelKind(p, w);
  if (kind === 'refused') return PolicyMsg.lateCancelRefused(p.cancelMinutesBefore);
  if (booking.kind === 'pending') {
    return kind === 'free' ? PolicyMsg.cancelFreePending : PolicyMsg.cancelLatePending(p.cancelMinutesBefore);
  }
  return kind === 'free'
    ? PolicyMsg.cancelFree(booking.amount)
    : PolicyMsg.cancelLate(p.cancelMinutesBefore, booking.amount);
}

/** A lesson's (私教/小班) cancel rule as a booking policy: free until its type's cutoff, then kept (迟到取消). */
export const lessonCancelPolicy = (cutoffMinutes: number): BookingPolicy => ({
  ...DEFAULT_POLICY,
  cancelMinutesBefore: cutoffMinutes,
  lateCancel: 'forfeit',
});

/** No promotion from the waitlist at or after the cutoff before the start. */
export const waitlistOpen = (p: BookingPolicy, w: When) =>
  p.waitlist === 1 && w.now < addMinutes(w.startTime, -p.waitlistCutoffMinutes);

/**
 * Until when (store-local) a member is suspended from booking online, given the start times of their
 * no-shows, or null. `noShowLimit` no-shows within 30 days before `now` suspend for
 * `noShowSuspendDays` days from the last of them.
 */
export function suspendedUntil(p: BookingPolicy, noShowStarts: string[], now: string): string | null {
  if (!p.noShowLimit || !p.noShowSuspendDays) return null;
  const since = `${addDays(now.slice(0, 10), -30)} ${now.slice(11)}`;
  const recent = noShowStarts.filter((t) => t >= since && t <= now).sort();
  if (recent.length < p.noShowLimit) return null;
  const last = recent[recent.length - 1];
  const until = `${addDays(last.slice(0, 10), p.noShowSuspendDays)} ${last.slice(11)}`;
  return until > now ? until : null;
}

/** The deduction mode a store's module status says: 1 charges at on-site sign-in, 0 at booking. */
export const deductionModeOf = (status: number | undefined): 0 | 1 => (status === DEDUCT_AT_SIGN_IN ? 1 : 0);
