/** What other features use of the today screen's queries: the sessions of a date range. */
export { sessionsBetween } from './repository.ts';
