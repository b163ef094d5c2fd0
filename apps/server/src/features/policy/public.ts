/** What other features use of the booking policy: the store's policy and its pure rules. */
export { bookingRules, loadPolicy, storesBookingRules } from './service.ts';
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
