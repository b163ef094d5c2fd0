/** What the app shell uses of the reports feature: the daily digest's run. */
export { runDueDigests } from './digest.ts';
export { cardsDigest } from './events.ts';
/** The money of a range, payment by payment (the sales commission lists it per seller). */
export { paymentRowsIn } from './repository.ts';
/** The card-alert rule and the store's thresholds (the reminders' card expiring and balance low). */
export { cardsToAlert } from './service.ts';
export { loadDigest } from './digest.ts';
/** The reads of the lessons' reports (私教报表, in features/lessons/reports.ts) and the rate they print. */
export * as lessonReportReads from './lesson-report-reads.ts';
export { fillRate } from './service.ts';
