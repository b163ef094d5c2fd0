/**
 * What other features use of 多人共享: a transfer (转卡) clears the card's list; an import writes the
 * lists of the cards it makes, and its undo empties them before deleting the cards.
 */
export { deleteShares as clearShares, deleteSharesOfCards, insertSharesOfNewCards } from './repository.ts';
