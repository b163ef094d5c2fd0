/** What the app and other features use of no-shows: the job, and a member's suspension. */
export { runNoShows, suspensionFrom, suspensionOf } from './service.ts';
export { suspensionFactsRead, type SuspensionFacts } from './repository.ts';
