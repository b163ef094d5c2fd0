/** What other features use of a card's life: the card's bookings of classes in a range and their cancelling (a transfer's, a leave's). */
export { bookingsOfCardBetween } from './repository.ts';
export { cancelCardBookings } from './bookings.ts';
/** The days a leave holds, both ends included (the import reads leaves a studio moves in with). */
export { leaveDays } from './rules.ts';
