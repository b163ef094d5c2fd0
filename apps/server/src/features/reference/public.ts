/** What other features use of the reference data: the look-ups of a store's member and their cards. */
export { findMember, memberCards, memberIdByMobile } from './member/queries.ts';
