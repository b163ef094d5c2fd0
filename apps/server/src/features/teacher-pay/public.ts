// What other features use of teacher pay: the timetable asks before a session of a closed month changes.
export { refuseClosedSessionChange, type SessionPayFacts } from './session-guard.ts';
export { sellerOfCode } from './seller-code.ts';
