// What other features may use of the members' channel.
export { memberCalendarEntries, type CalendarEntry } from './service.ts';
/** Who a member cookie signs in (a file route outside the call loop: the members' data download). */
export { memberCookieName, resolveMember } from './member-auth.ts';
/** The member's cards for a class or a lesson, each usable or why not (the lessons' card picker). */
export { cardsChoice, type MemberScope } from './service.ts';
export { admitPublicRequest, installationSecret, trialDoor } from './member-auth.ts';
export { referralCodeOf, referrerIdOf } from './referral.ts';
/** Announced before a member's own booking or queueing is written (a guard may refuse it). */
export { memberBooking } from './events.ts';
