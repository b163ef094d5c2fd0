/** What other features use of 多人共享: a transfer (转卡) clears the card's list. */
export { deleteShares as clearShares } from './repository.ts';
