// What other features may use of the members' channel.
export { memberCalendarEntries, type CalendarEntry } from './service.ts';
