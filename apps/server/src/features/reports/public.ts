/** What the app shell uses of the reports feature: the daily digest's run. */
export { runDueDigests } from './digest.ts';
export { cardsDigest } from './events.ts';
