/** What other features may use of the staff's sign-in: logging a staff member in (the first-run setup). */
export { startSession } from './service.ts';
