/**
 * The schedule and booking engine: every function runs inside the caller's transaction
 * (`db.transaction().execute(tx => ...)`) and never opens one. Services of other features
 * (batch scheduling, copy, weekly template) call these so that every rule lives in one place.
 */
export { getDeductionMode, isUniqueViolation, liveSession } from './engine-shared.ts';
export { bookingRef } from './booking-refs.ts';
export {
  createSession,
  deleteSession,
  findRoomConflicts,
  findTeacherConflicts,
  roomOf,
  updateSession,
} from './session-engine.ts';
export type { NewSession, SessionChange, TeacherConflict } from './session-engine.ts';
export {
  addPending,
  bookWithCard,
  cancelPending,
  cancelPendingLocked,
  cancelReservation,
  cancelReservationLocked,
  credit,
  deduct,
  firstUsableCard,
  signInPending,
  writeBookingTrail,
} from './booking-engine.ts';
export type { CardBooking } from './booking-engine.ts';
export { exportRows } from './queries.ts';
