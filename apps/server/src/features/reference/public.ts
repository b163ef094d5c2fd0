/** What other features use of the reference data: the one look-up of a store's member. */
export { findMember } from './member/queries.ts';
