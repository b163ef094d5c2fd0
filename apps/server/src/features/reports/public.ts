/** What the app shell uses of the reports feature: the daily digest's scheduler. */
export { startDigestScheduler } from './digest.ts';
