/** What other features use of the booking policy: the store's policy and its pure rules. */
export { bookingRules, bookingRulesRead, loadPolicy, policyRead, storesBookingRules } from './service.ts';
export type { BookingRules } from './service.ts';
export {
  bookingWindowReason,
  cancelKind,
  memberBookingReason,
  memberCancelCost,
  memberSessionPhase,
  openBookingsReason,
  suspendedUntil,
  waitlistOpen,
} from './rules.ts';
