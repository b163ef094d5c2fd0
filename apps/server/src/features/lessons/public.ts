/**
 * What other features use of 私教 and 小班 (issue 43): the free-slot finder (where a lesson of a
 * type can start: teacher working and free, a room free, machines left, notice met) and its pure
 * parts. The one door into features/lessons.
 */
export {
  findFreeSlots,
  freeSlots,
  loadFreeSlots,
  peakUse,
  workingSpans,
  type FreeSlot,
  type SlotQuery,
} from './slots.ts';
export { freeSlotsByDay } from './service.ts';
/** Every teacher's hours of a range (the reports' utilisation measures them with `workingSpans`). */
export { storeHours } from './repository.ts';
/** Lesson booking's release job of unconfirmed lessons (main.ts). */
export { releaseUnconfirmed } from './booking-service.ts';
/** A lesson opened for a lead's 私教体验课 and released when nobody is left (leads: trials.ts). */
export { openLesson, releaseIfEmpty } from './booking-service.ts';
