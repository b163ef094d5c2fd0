// What other features may use of the schedule.
export { default as WeekArrangeModal } from './modals/week-arrange-modal.tsx';
/** 私教体验课 (leads): the lesson types and a teacher's free start times of a day, as 约私教 offers them. */
export { useFreeSlots, useLessonTypes } from './hooks/lessons.ts';
