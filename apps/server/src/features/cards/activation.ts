import { CARD_TYPE_NO_EXPIRY, type CardActivation } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { addDays, daysBetween } from '../../lib/time.ts';
import { addLedgerEntry, cardForActivation, setCardActivated } from './repository.ts';

/**
 * A card's start and expiry (issue 29, item 2; domain.md "A card's life"), in one place:
 *
 *   expiry = end of day (activation date + validDays + leaveDays)
 *
 * where activation is the sale (售卡即开卡), the product's date (指定日期开卡), or the day of the
 * first class booked or signed in (首次上课开卡), at the latest `activateWithinDays` after the sale.
 * A 首次上课开卡 card not yet started is stored with the expiry it gets if it starts on that latest
 * day, so the stored expiry is right as it stands: the first class can only bring it forward.
 */

/** A date `YYYY-MM-DD` as the last second of that day, store-local. */
export const endOfDay = (date: string) => `${date} 23:59:59`;

/** The expiry of a card started on `activationDate`, valid `validDays` plus `leaveDays` of leave. */
export const expiryOf = (activationDate: string, validDays: number, leaveDays: number) =>
  endOfDay(addDays(activationDate, validDays + leaveDays));

/** The validity (days) that makes a card started on `activationDate` expire at the end of `expireDate`. */
export const validDaysFor = (activationDate: string, expireDate: string, leaveDays: number) =>
  daysBetween(activationDate, expireDate) - leaveDays;

export interface ProductActivation {
  activation: CardActivation;
  activationDate: string | null;
  /** 指定日期开卡 sold after that day: 1, the card starts on the day of sale. */
  lateSaleStartsToday: number;
  activateWithinDays: number;
}

/**
 * The day a card of `product` sold on `today` (`YYYY-MM-DD`, store-local) starts, the one rule of
 * every sale (desk and online): the sale (售卡即开卡), the product's day (指定日期开卡), or the day of
 * sale once that day has passed if the manager chose so on the product (开卡日期已过时，售出当天开卡);
 * null for 首次上课开卡 (its first class starts it). The product list answers it for today
 * (`startsIfSoldToday`, the desk's 发卡 note).
 */
export function saleStartDay(
  product: Pick<ProductActivation, 'activation' | 'activationDate' | 'lateSaleStartsToday'>,
  today: string,
): string | null {
  if (product.activation === 'first_class') return null;
  if (product.activation !== 'date' || !product.activationDate) return today;
  return product.activationDate < today && Number(product.lateSaleStartsToday) === 1 ? today : product.activationDate;
}

/** A 指定日期开卡 product whose card sold `today` would start in the past: not sold online. */
export const startDatePassed = (
  product: Pick<ProductActivation, 'activation' | 'activationDate' | 'lateSaleStartsToday'>,
  today: string,
) => {
  const start = saleStartDay(product, today);
  return start !== null && start < today;
};

/** The latest day a 首次上课开卡 card sold at `soldAt` starts (it starts then without a class). */
export const activateBy = (soldAt: string, product: Pick<ProductActivation, 'activateWithinDays'>) =>
  addDays(soldAt.slice(0, 10), product.activateWithinDays);

/**
 * How a card of `product` sold at `now` starts: its activation time (null: 首次上课开卡, not yet),
 * its validity in days and its expiry (provisional for 首次上课开卡, see above). `expireDate`: the
 * desk's own last day instead of the product's valid days, counted from the card's start (from the
 * sale for 首次上课开卡). Null expiry and validity for a card that never expires; undefined when the
 * card expires but has neither valid days nor a date (the caller refuses).
 */
export function saleActivation(
  product: ProductActivation & { cardType: number; validDays: number | null },
  now: string,
  expireDate: string | null,
): { activateTime: string | null; validDays: number | null; expireTime: string | null } | undefined {
  const today = now.slice(0, 10);
  const start = saleStartDay(product, today);
  const activateTime = start === null ? null : start === today ? now : `${start} 00:00:00`;
  if (product.cardType === CARD_TYPE_NO_EXPIRY) return { activateTime, validDays: null, expireTime: null };
  const counted = start ?? today;
  const validDays = expireDate ? daysBetween(counted, expireDate) : product.validDays;
  if (validDays === null) return undefined;
  const from = start ?? activateBy(now, product);
  return { activateTime, validDays, expireTime: expiryOf(from, validDays, 0) };
}

/** A card's start as it stands at `today`: its activation date, the latest day once passed (首次上课开卡), or null. */
export function activationDateOf(
  card: { activateTime: string | null; createdAt: string },
  product: Pick<ProductActivation, 'activation' | 'activateWithinDays'>,
  today: string,
): string | null {
  if (card.activateTime) return card.activateTime.slice(0, 10) <= today ? card.activateTime.slice(0, 10) : null;
  if (product.activation !== 'first_class') return null;
  const by = activateBy(card.createdAt, product);
  return by <= today ? by : null;
}

/** What the booking engine knows of a card it charged or held a seat with (its read of the card). */
export interface CardUse {
  card: { id: number; activateTime?: string | null; activation?: string };
  /** The class's start, store-local. */
  at: string;
}

/**
 * Starts the 首次上课开卡 cards of a set of bookings that have not started (the engine calls it after
 * writing the bookings, and at a sign-in): on the day of their earliest class of the set, at the
 * latest on their last day to start; the expiry follows. Cards that started already (every other
 * card) cost nothing: their read says so. Guarded (only while not started), with a ledger note.
 */
export async function activateOnClass(tx: Tx, storeId: number, uses: readonly CardUse[], now: string): Promise<void> {
  const first = new Map<number, string>();
  for (const { card, at } of uses) {
    if (card.activation !== 'first_class' || card.activateTime) continue;
    const day = at.slice(0, 10);
    const known = first.get(card.id);
    if (known === undefined || day < known) first.set(card.id, day);
  }
  for (const [id, day] of [...first].sort((a, b) => a[0] - b[0])) {
    const c = await cardForActivation(tx, storeId, id);
    if (!c || c.activateTime || c.activation !== 'first_class') continue;
    const by = activateBy(c.createdAt, c);
    const start = day < by ? day : by;
    const expireTime = c.validDays === null ? c.expireTime : expiryOf(start, c.validDays, Number(c.leaveDays));
    if (!(await setCardActivated(tx, storeId, id, `${start} 00:00:00`, expireTime))) continue;
    await addLedgerEntry(tx, {
      storeId,
      memberCardId: id,
      kind: 'activate',
      amount: 0,
      operatorId: null,
      remark: `首次上课开卡：${start} 起算${expireTime ? `，有效期至 ${expireTime.slice(0, 10)}` : ''}`,
      createdAt: now,
    });
  }
}

/**
 * A card's life as screens show it (the card rows of the desk and the phone): when it starts, the
 * latest day a 首次上课开卡 card starts, its days of leave and its approved leaves.
 */
export function cardLifeView(c: {
  activateTime: string | null;
  createdAt: string;
  leaveDays: number | string;
  leavePeriods: string;
  activation: CardActivation;
  activateWithinDays: number;
}) {
  return {
    activation: c.activation,
    activateTime: c.activateTime,
    activateBy: c.activation === 'first_class' && !c.activateTime ? activateBy(c.createdAt, c) : null,
    leaveDays: Number(c.leaveDays),
    leaves: (JSON.parse(c.leavePeriods || '[]') as [string, string][]).map(([fromDate, toDate]) => ({
      fromDate,
      toDate,
    })),
  };
}
