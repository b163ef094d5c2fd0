/** What other features use of the booking policy: the store's policy and its pure rules. */
export { storesBookingRules } from './service.ts';
export { bookingRules, bookingRulesRead, loadPolicy, policyRead, type BookingRules } from './repository.ts';
export {
  bookingWindowReason,
  cancelKind,
  lessonCancelPolicy,
  memberBookingReason,
  memberCancelCost,
  memberSessionPhase,
  openBookingsReason,
  suspendedUntil,
  waitlistOpen,
} from './rules.ts';
