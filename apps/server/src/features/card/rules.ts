import { CARD_TYPE_NO_EXPIRY, Msg } from '@studio/contract';

export interface CardForRules {
  memberId: number;
  cardId: number;
  totalCount: number;
  usedCount: number;
  expireTime: string | null;
  frozen: number;
  /**
   * JSON `[[from, to], ...]` (`YYYY-MM-DD`, both days of leave) of the card's approved leaves
   * (`member_card.leave_periods`, kept by features/card-life): a class on such a day is refused.
   */
  leavePeriods: string;
  /**
   * JSON `[id, ...]` of the members besides the holder who book on it (多人共享,
   * `member_card.shared_with`, kept with `card_share` by features/card-share).
   */
  sharedWith: string;
  /**
   * When the card starts (`member_card.activate_time`, store-local; null: a 首次上课开卡 card not
   * started, which its first class starts): a class on an earlier day is refused (指定日期开卡).
   */
  activateTime: string | null;
  /**
   * Its product's 开卡方式 (contract CardActivation): a 首次上课开卡 card ('first_class') starts on
   * the day of its first class booked, so a sooner class starts it sooner (activation.ts), never refused.
   */
  activation: string;
  /**
   * What the card's open pendings (deduction mode 1: waiting for sign-in, classes not ended) will
   * take from it at sign-in, when read for a new booking (`openUseOf`); a new booking must leave it
   * paid. Not read (undefined) where a pending is being charged itself.
   */
  committed?: number;
}
export interface ProductForRules {
  cardType: number;
  perCount: number;
}

/** Whether a card has expired by `at` (store-local `YYYY-MM-DD HH:mm:ss`): never for a card that never expires. */
export function isExpiredAt(
  card: Pick<CardForRules, 'expireTime'>,
  product: Pick<ProductForRules, 'cardType'>,
  at: string,
) {
  return product.cardType !== CARD_TYPE_NO_EXPIRY && card.expireTime !== null && card.expireTime < at;
}

/** `YYYY-MM-DD` as M月D日. */
const monthDay = (date: string) => `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日`;

/** `YYYY-MM-DD` as YYYY年M月D日. */
export const yearMonthDay = (date: string) => `${Number(date.slice(0, 4))}年${monthDay(date)}`;

/** The leave (from, to) of the card covering the day of `at`, or null. */
export function leaveAt(card: Pick<CardForRules, 'leavePeriods'>, at: string): [string, string] | null {
  if (card.leavePeriods === '[]' || !card.leavePeriods) return null;
  const day = at.slice(0, 10);
  const periods = JSON.parse(card.leavePeriods) as [string, string][];
  return periods.find(([from, to]) => from <= day && day <= to) ?? null;
}

/**
 * The day (`YYYY-MM-DD`) the card starts when that is after the day of `at` (指定日期开卡, a card
 * sold or imported with a later start), else null.
 */
export function startsAfter(card: Pick<CardForRules, 'activateTime' | 'activation'>, at: string): string | null {
  if (card.activation === 'first_class') return null;
  const day = card.activateTime?.slice(0, 10);
  return day && day > at.slice(0, 10) ? day : null;
}

/** Whether `memberId` books on the card: its holder, or a member it is shared with (多人共享). */
export function booksOn(card: Pick<CardForRules, 'memberId' | 'sharedWith'>, memberId: number): boolean {
  if (card.memberId === memberId) return true;
  if (card.sharedWith === '[]' || !card.sharedWith) return false;
  return (JSON.parse(card.sharedWith) as number[]).includes(memberId);
}

/**
 * Why a member card cannot pay for `studentCount` seats of a class starting at `at`
 * (store-local `YYYY-MM-DD HH:mm:ss`), or null when it can (domain.md, booking rule 1).
 * The same rules serve the card picker (usable / reason) and the booking itself.
 */
export function cardUnusableReason(args: {
  card: CardForRules;
  product: ProductForRules;
  memberId: number;
  allowedCardIds: readonly number[];
  at: string;
  studentCount: number;
}): string | null {
  const { card, product, memberId, allowedCardIds, at, studentCount } = args;
  if (!booksOn(card, memberId)) return Msg.cardNotOwned;
  if (!allowedCardIds.includes(card.cardId)) return Msg.cardNotAllowed;
  if (card.frozen) return Msg.cardFrozen;
  const starts = startsAfter(card, at);
  if (starts) return Msg.cardNotStarted(yearMonthDay(starts));
  const leave = leaveAt(card, at);
  if (leave) return Msg.cardInLeave(monthDay(leave[0]), monthDay(leave[1]));
  if (isExpiredAt(card, product, at)) return Msg.cardExpired;
  const needed = product.perCount * studentCount;
  const balance = card.totalCount - card.usedCount;
  if (balance < needed || balance <= 0) return Msg.cardBalance;
  if (balance - (card.committed ?? 0) < needed) return Msg.cardCommitted;
  return null;
}

/** What booking `studentCount` seats takes from the card: perCount x studentCount. */
export const chargeFor = (product: ProductForRules, studentCount: number) => product.perCount * studentCount;
