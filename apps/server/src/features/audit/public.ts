// What the app's jobs use of the audit log: its retention.
export { purgeOldEntries } from './retention.ts';
