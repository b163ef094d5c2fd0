// What other features may use of the staff screen.
export { useStaffList } from './hooks.ts';
