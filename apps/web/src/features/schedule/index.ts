// What other features may use of the schedule.
export { default as WeekArrangeModal } from './modals/week-arrange-modal.tsx';
