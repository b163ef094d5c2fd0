/**
 * What other features use of 多人共享: a transfer (转卡) empties the card's list; an import writes the
 * lists of the cards it makes, and its undo empties them before deleting the cards.
 */
export { deleteSharesOfCards, insertSharesOfNewCards } from './repository.ts';
