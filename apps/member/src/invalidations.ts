import type { MemberIdentity } from '@studio/contract';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keys, privateKeys } from './query-keys.ts';

/** A class's seats and my state on it, 我的预约, my cards (balance, ledger, usable for a class) and lessons' free times. */
const seatsAndCards = [keys.timetable.all, keys.bookings.all, keys.cards.all, keys.lessons.all] as const;

/**
 * What each write of the member changes: the caches refetched after it succeeds. One place, so a
 * screen that shows what a write changes only has to be listed here.
 */
export const invalidates = {
  /** 预约 (a class, or a lesson: 约私教): a seat taken (charged now, or held until check-in). */
  book: seatsAndCards,
  /** 排队候补: a place in the queue (the card is charged when a seat comes). */
  joinWaitlist: seatsAndCards,
  /** 取消预约 / 退出候补: a seat or place given back, and a refund or a late-cancel charge. */
  cancel: seatsAndCards,
  /** 签到 by the desk's QR code: 已到店, a held seat charged. */
  checkIn: seatsAndCards,
  /** 请假: the card's expiry and leaves, and the bookings inside the leave cancelled. */
  leave: seatsAndCards,
  /** 购卡 / 充值 ordered: a new order 待支付 in 我的订单. */
  order: [keys.orders.all],
  /** An order found paid (我已支付): the new card or the top-up, and the order's status. */
  paid: [keys.cards.all, keys.orders.all],
} as const satisfies Record<string, readonly QueryKey[]>;

export type WriteKind = keyof typeof invalidates;

/** Refetches what a write changed (not awaited: the screen goes on, the data follows). */
export function afterWrite(qc: QueryClient, kind: WriteKind): void {
  for (const key of invalidates[kind]) void qc.invalidateQueries({ queryKey: key });
}

/** The member is signed out: nobody on this phone, and nothing of theirs left in the cache. */
export function forgetMember(qc: QueryClient, storeId: number | null): void {
  if (storeId) qc.setQueryData(keys.me(storeId), null);
  for (const key of privateKeys) qc.removeQueries({ queryKey: key });
}

/** The member signed in on this phone for the store. */
export function rememberMember(qc: QueryClient, storeId: number | null, who: MemberIdentity): void {
  if (storeId) qc.setQueryData(keys.me(storeId), who);
}
