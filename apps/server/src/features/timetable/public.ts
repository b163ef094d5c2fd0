/**
 * The schedule and booking engine: every function runs inside the caller's transaction
 * (`db.transaction().execute(tx => ...)`) and never opens one. Services of other features
 * (batch scheduling, copy, weekly template) call these so that every rule lives in one place.
 */
export {
  allowedCardsOf,
  confirmAppointment,
  getDeductionMode,
  liveSession,
  overlappingSessions,
  unconfirmedLessons,
  replaceSessionCards,
  sessionRow,
  setSessionLimits,
} from './session-repository.ts';
export { bookingChecker, checkBookingSet } from './rules.ts';
export type { IntendedBooking, MemberForRules, MemberRules, SessionForRules } from './rules.ts';
export {
  createSession,
  deleteSession,
  growLesson,
  requireSessionRefs,
  updateSession,
  writeSessions,
} from './session-engine.ts';
export type { NewSession, SessionChange, TeacherConflict } from './session-engine.ts';
export {
  addPending,
  bookSet,
  bookWithCard,
  refuseSet,
  sessionForRules,
  recheckOpenUse,
  writeBookingSet,
  cancelPending,
  cancelPendingLocked,
  cancelReservation,
  cancelReservationLocked,
  cardsForNewBookings,
  chargePending,
  deduct,
  firstUsableCard,
  signInPending,
} from './booking-engine.ts';
export { withOpenUse } from './rules.ts';
export {
  bookingContextRead,
  loadBookingContext,
  type BookingAsked,
  type BookingContext,
} from './booking-context-repository.ts';
export {
  bookingTrail,
  creditCard,
  creditCards,
  findPending,
  freeSeatsOf,
  takeSeatsOf,
  findReservation,
  heldPairs,
  holdsSession,
  pendingTrail,
  retakeSeatsOf,
  insertBookingRows,
  liveBookings,
  memberHeldOverlapping,
  openUseOf,
  waitingPendings,
  writeTrail,
  type TrailEntry,
} from './booking-repository.ts';
export type { CardBooking, PendingCharge, SetBooking, SetOptions } from './booking-engine.ts';
export { exportRows } from './list-service.ts';
export { lessonMark, teacherSessions } from './calendar.ts';
export { rostersOf } from './list-repository.ts';
export { attendanceTakenSql, bookedOf, cameSql, missedSql } from './attendance-repository.ts';
export { recordAttendance, type AttendanceBooking } from './attendance.ts';
export { roomOf } from '../reference/public.ts';
export {
  bookingCancelled,
  bookingMade,
  bookingsMade,
  lessonBooked,
  lessonCancelled,
  lessonConfirmed,
  memberAttended,
  sessionChanged,
  sessionDeleted,
  sessionsDeletedInBulk,
  sessionMoving,
} from './events.ts';
export type { BookingFact } from './events.ts';
