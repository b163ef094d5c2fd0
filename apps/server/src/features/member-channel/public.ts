// What other features may use of the members' channel.
export { memberCalendarEntries, type CalendarEntry } from './service.ts';
export { admitPublicRequest, trialDoor } from './member-auth.ts';
export { referralCodeOf, referrerIdOf } from './referral.ts';
