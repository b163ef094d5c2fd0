// What other features use of teacher pay: a seller's code (the sales link). A closed month's sessions are
// kept by listening to the timetable's sessionMoving (routes.ts), not by the timetable calling in.
export { sellerOfCode } from './seller-code.ts';
