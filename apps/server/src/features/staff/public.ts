// What other features use of staff roles: a teacher's own sessions.
export { requireOwnSession } from './access.ts';
export { findStaffOfStore, listStaffOfStore, sessionOfStore } from './repository.ts';
export { requireSeller } from './seller.ts';
