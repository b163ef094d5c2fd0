/** What the app and other features use of no-shows: the job, and a member's suspension. */
export { runNoShows, suspensionOf, suspensionRead } from './service.ts';
