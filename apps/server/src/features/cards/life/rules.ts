import { CARD_TYPE_NO_EXPIRY, CardLifeMsg, CardMsg, type LeaveStatus } from '@studio/contract';
import { addDays, daysBetween } from '../../../lib/time.ts';

/**
 * The leave rules (issue 29, item 1), pure: whether a card may take a leave from `fromDate` to
 * `toDate` (both days of leave) by its product's rules and its other leaves; what the card's leave
 * columns become when a leave is approved or ended. The card's expiry is activation + validity +
 * leave days (cards/activation.ts).
 */

/** Days of leave from `from` to `to`, both included. */
export const leaveDays = (from: string, to: string) => daysBetween(from, to) + 1;

/** Statuses of a leave that counts against the product's limits (it holds or asks for its days). */
const COUNTED: readonly LeaveStatus[] = ['pending', 'approved', 'ended'];

export interface LeaveOfCard {
  id: number;
  status: string;
  fromDate: string;
  toDate: string;
  endedDate: string | null;
  days: number;
}

export interface CardForLeave {
  refundedAt: string | null;
  frozen: number;
  cardType: number;
  expireTime: string | null;
  /** When the card starts (null: not yet, or 首次上课开卡 up to its last day to start). */
  startDate: string | null;
  leaveAllowed: number;
  leaveTimes: number | null;
  leaveDaysMax: number | null;
  leaveDaysTotal: number | null;
}

/** The days a leave covers as it stands: to its end, or to the day it was ended on. */
const spanOf = (l: LeaveOfCard): [string, string] => [l.fromDate, l.endedDate ?? l.toDate];

/**
 * Why the card may not take this leave at `today`, or null. `leaves`: the card's other leaves (not
 * the one being decided). In order: refunded, dates, product rule, card state, overlap, limits.
 */
export function leaveRefusal(a: {
  card: CardForLeave;
  leaves: readonly LeaveOfCard[];
  fromDate: string;
  toDate: string;
  today: string;
}): string | null {
  const { card, fromDate, toDate, today } = a;
  if (card.refundedAt) return CardMsg.refunded;
  if (toDate < fromDate) return CardLifeMsg.dateOrder;
  if (fromDate < today) return CardLifeMsg.pastStart;
  if (!card.leaveAllowed) return CardLifeMsg.notAllowed;
  if (card.cardType === CARD_TYPE_NO_EXPIRY || !card.expireTime) return CardLifeMsg.noExpiry;
  if (card.frozen) return CardLifeMsg.frozen;
  if (!card.startDate || card.startDate > fromDate) return CardLifeMsg.notActivated;
  if (card.expireTime.slice(0, 10) < today) return CardLifeMsg.expired;
  if (fromDate > card.expireTime.slice(0, 10)) return CardLifeMsg.afterExpiry;
  const counted = a.leaves.filter((l) => COUNTED.includes(l.status as LeaveStatus) && l.days > 0);
  if (counted.some((l) => spanOf(l)[0] <= toDate && fromDate <= spanOf(l)[1])) return CardLifeMsg.overlap;
  if (card.leaveTimes !== null && counted.length >= card.leaveTimes) return CardLifeMsg.times(card.leaveTimes);
  const days = leaveDays(fromDate, toDate);
  if (card.leaveDaysMax !== null && days > card.leaveDaysMax) return CardLifeMsg.daysMax(card.leaveDaysMax);
  if (card.leaveDaysTotal !== null) {
    const used = counted.reduce((n, l) => n + l.days, 0);
    if (used + days > card.leaveDaysTotal) {
      return CardLifeMsg.daysTotal(card.leaveDaysTotal, Math.max(0, card.leaveDaysTotal - used));
    }
  }
  return null;
}

/** The card's approved leave periods (the JSON the booking rules read), with one added or changed. */
export function periodsWith(
  json: string,
  change: { add?: [string, string]; remove?: [string, string]; replace?: [string, string] },
): string {
  let periods = JSON.parse(json || '[]') as [string, string][];
  if (change.remove) periods = periods.filter(([f, t]) => !(f === change.remove![0] && t === change.remove![1]));
  if (change.replace) periods.push(change.replace);
  if (change.add) periods.push(change.add);
  periods.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return JSON.stringify(periods);
}

/**
 * Ending an approved leave early: `date` is its last day of leave (the next day books again); before
 * its first day it is withdrawn whole. Answers the days it keeps and the status, or null when `date`
 * is outside the leave (at the earliest yesterday, before its last day).
 */
export function endingOf(
  leave: { fromDate: string; toDate: string },
  date: string,
  today: string,
): { days: number; status: 'ended' | 'cancelled' } | null {
  if (date < addDays(today, -1) || date >= leave.toDate) return null;
  if (date < leave.fromDate) return { days: 0, status: 'cancelled' };
  return { days: leaveDays(leave.fromDate, date), status: 'ended' };
}
