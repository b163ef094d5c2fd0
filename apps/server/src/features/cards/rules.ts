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
   * (`member_card.leave_periods`, kept by features/cards/life): a class on such a day is refused.
   */
  leavePeriods: string;
  /**
   * JSON `[id, ...]` of the members besides the holder who book on it (多人共享,
   * `member_card.shared_with`, kept with `card_share` by features/cards/share).
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
  /**
   * The card's contract is 待签约 and its store books only signed cards (未签约的卡可以预约: 否): read
   * with the card (`unsignedBlocks`, cards/repository.ts); 1/true refuses a new booking
   * (`newBookingCardReason`), never the charge of a booking already made.
   */
  contractUnsigned?: number | boolean | null;
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
 * The same rules serve the card picker (usable / reason), the booking itself and the charge of a
 * booking made (sign-in, a no-show); a new booking adds the contract's (`newBookingCardReason`).
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

/**
 * Why a card cannot pay for a NEW booking (a booking, the card pickers): the card rules, then its
 * contract (待签约 where the store books only signed cards, `Msg.cardUnsigned`). The charge of a
 * booking already made (sign-in, a no-show) reads `cardUnusableReason` alone: an unsigned contract
 * never stops it.
 */
export function newBookingCardReason(args: Parameters<typeof cardUnusableReason>[0]): string | null {
  return cardUnusableReason(args) ?? (args.card.contractUnsigned ? Msg.cardUnsigned : null);
}

/** What booking `studentCount` seats takes from the card: perCount x studentCount. */
export const chargeFor = (product: ProductForRules, studentCount: number) => product.perCount * studentCount;

/**
 * A member card with its product's type and price per class, as the rules read it; for a new
 * booking also what its open bookings hold (`committed`, `openBookings`: see `openUseOf`).
 */
export type CardOfRules = CardForRules &
  ProductForRules & {
    id: number;
    /** Its open bookings (booked or waiting for sign-in, of classes not ended), when read. */
    openBookings?: number;
    /** Its product lets it go on leave (请假): a leave may start while a booking with it is on its way. */
    leaveAllowed?: number;
    /** Its product's caps a day and a week with the classes it holds per day, when read for a new booking (null: none). */
    caps?: CardCaps | null;
  };

/** A card's caps (classes a day, a week; null: none) and its live bookings per day (`YYYY-MM-DD`) from this week on. */
export interface CardCaps {
  maxPerDay: number | null;
  maxPerWeek: number | null;
  perDay: ReadonlyMap<string, number>;
}

/** Caps as read (`capDays`: the days of its classes, comma separated) to the rules' form. */
export function capsOf(u: { maxPerDay: number | null; maxPerWeek: number | null; capDays: string | null }): CardCaps {
  const perDay = new Map<string, number>();
  for (const d of u.capDays ? u.capDays.split(',') : []) perDay.set(d, (perDay.get(d) ?? 0) + 1);
  return { maxPerDay: u.maxPerDay, maxPerWeek: u.maxPerWeek, perDay };
}

/** The seven days (`YYYY-MM-DD`, Monday first) of the week of a date. */
export function weekDays(date: string): string[] {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return Array.from({ length: 7 }, (_, i) => new Date(d.getTime() + i * 86_400_000).toISOString().slice(0, 10));
}

/**
 * Why a capped card cannot take one more class on `day`, given its classes that day and week
 * (`count`: the card's live bookings plus the set's own), or null.
 */
export function capRefusal(caps: CardCaps, day: string, count: (d: string) => number): string | null {
  if (caps.maxPerDay !== null && count(day) >= caps.maxPerDay) return Msg.capPerDay(caps.maxPerDay);
  if (caps.maxPerWeek !== null) {
    const week = weekDays(day).reduce((n, d) => n + count(d), 0);
    if (week >= caps.maxPerWeek) return Msg.capPerWeek(caps.maxPerWeek);
  }
  return null;
}
