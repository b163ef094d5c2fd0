/**
 * What other features use of member cards (会员卡): the card products and the cards of a store's
 * members, their rules (what a card may pay for, what it charges, its caps), their life (activation,
 * leave, the refund quote), sharing and transfer, and the card's money. The one door into features/cards:
 * nothing outside this folder imports another file of it (dependency-cruiser, `cards-through-public`).
 */
export {
  booksOnCard,
  cardBigType,
  cardHolder,
  cardsSharedWith,
  memberCards,
  memberHadTrial,
  paidBackAgainst,
  productForSale,
  insertPayment,
  productsOnSale,
  requireMemberCard,
  sharersOf,
  storeCards,
  storeCardsRead,
  lessonTermsOf,
  CARD_LIFE_KEY,
  type BookingCard,
} from './repository.ts';
export {
  addLedgerNote,
  closeCardForRefund,
  issueCardPaidOnline,
  putBackRefund,
  recordOnlineRefund,
  takeFromCardForRefund,
  topUpCardPaidOnline,
  type CloseRefusal,
  type OnlinePayment,
} from './member-card-service.ts';
export {
  activateBy,
  activateOnClass,
  activationDateOf,
  startDatePassed,
  cardLifeView,
  endOfDay,
  expiryOf,
  saleActivation,
  validDaysFor,
} from './activation.ts';
export { loadCardLifeSetting, quoteRefund, type RefundQuote } from './refund-quote.ts';
export { refundCard } from './payment-service.ts';
/** Prepaid limits per city: an online order about to be created is asked first. */
export {
  importedCardOver,
  loadPrepaidRule,
  overLimitCards,
  productOrderRefusal,
  remainingValue,
  topupOrderRefusal,
  usedValue,
} from './prepaid-limits.ts';
/** 转介绍奖励: a credit for nothing paid (classes, days or money) on the member's card of its kind, and its taking back. */
export { creditCard, takeBackCredit } from './credit.ts';
export { cardForCredit, type CreditKind } from './credit-repository.ts';
/** A card sold (desk or online), announced in the sale's transaction (the leads' conversion listens). */
export { cardSold } from './events.ts';
export * from './rules.ts';
/** The days a leave holds, both ends included (the import reads leaves a studio moves in with). */
export { leaveDays } from './life/rules.ts';
/**
 * 多人共享: a transfer (转卡) empties the card's list; an import writes the lists of the cards it makes,
 * and its undo empties them before deleting the cards.
 */
export { deleteSharesOfCards, insertSharesOfNewCards } from './share/repository.ts';
/** A card gives up bookings (leave, transfer): the timetable cancels them; a leave decided: the member is told (reminders). */
export { cardBookingsDropped, leaveDecided } from './events.ts';
/** A member's cards as the prepaid limits see them (what remains paid on each): the erasure's check. */
export { cardNetPaid, cardsForPrepaidLimits } from './prepaid-repository.ts';
/** The ledger's kinds by the balance they change (a card's total, its used part). */
export { LEDGER_TOTAL_KINDS, LEDGER_USED_KINDS } from './prepaid-repository.ts';
