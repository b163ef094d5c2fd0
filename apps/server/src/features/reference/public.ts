/** What other features use of the reference data: the look-ups of a store's member and their cards, its teachers, venues, courses, materials and modules. */
export { changeMember, findMember, memberIdByMobile, membersMatching, requireMember } from './member/repository.ts';
export {
  booksOnCard,
  cardBigType,
  cardHolder,
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
} from './card/repository.ts';
export {
  addLedgerNote,
  closeCardForRefund,
  issueCardPaidOnline,
  putBackRefund,
  recordOnlineRefund,
  takeFromCardForRefund,
  topUpCardPaidOnline,
} from './card/member-card-service.ts';
export type { CloseRefusal, OnlinePayment } from './card/member-card-service.ts';
export {
  activateBy,
  activateOnClass,
  activationDateOf,
  startDatePassed,
  cardLifeView,
  endOfDay,
  expiryOf,
  validDaysFor,
} from './card/activation.ts';
export { loadCardLifeSetting, quoteRefund, type RefundQuote } from './card/refund-quote.ts';
export { refundCard } from './card/payment-service.ts';
export { CARD_LIFE_KEY } from './card/repository.ts';
export type { BookingCard } from './card/repository.ts';
export {
  areaAndBelow,
  getModuleStatus,
  namesOf,
  putModuleStatus,
  requireArea,
  requireCourse,
  requireTeacher,
  requireTeachers,
  roomOf,
  teacherAreaMaterialCheck,
} from './repository.ts';
export type { CourseWithCards, TeacherAreaMaterial } from './repository.ts';
