// What other features may use of the members' channel.
export { memberCalendarEntries, type CalendarEntry } from './service.ts';
/** The member's cards for a class or a lesson, each usable or why not (the lessons' card picker). */
export { cardsChoice, type MemberScope } from './service.ts';
