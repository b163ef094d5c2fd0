import { defineEvent } from '../../lib/events.ts';

/**
 * A card gives up bookings of classes not ended (a leave over their days, a transfer that does not
 * leave them with the old holder), announced in the change's transaction with their sessions locked:
 * the timetable cancels each with its refund through its one cancel, and announces each cancel.
 */
export const cardBookingsDropped = defineEvent<{
  storeId: number;
  store: { id: number; name: string; timezone: string };
  bookings: readonly { kind: 'reservation' | 'pending'; id: number }[];
  /** Who gives them up: a member (their own leave) or the desk (a staff member, or none for a job). */
  by: { staffId: number | null; member: boolean };
}>('card.bookingsDropped');

/** The desk decided a member's leave request (请假申请): approved, or refused saying why. */
export const leaveDecided = defineEvent<{
  storeId: number;
  memberId: number;
  leaveId: number;
  cardName: string;
  fromDate: string;
  toDate: string;
  /** null: approved; else why it was refused. */
  refusedFor: string | null;
}>('card.leaveDecided');

/**
 * A card was sold to a member (the desk's 开卡 or an online order's fulfilment), in the transaction
 * that wrote it: the leads' conversion listens (a lead holding the member's mobile becomes 已成交),
 * and the contracts (the sale's contract names the template version in force).
 */
export const cardSold = defineEvent<{
  storeId: number;
  memberId: number;
  memberCardId: number;
  /** Fen paid for the card at the sale. */
  paid: number;
  /** Store-local time of the sale. */
  now: string;
  /** A 体验卡 (a product of `trial` 1): not the lead's conversion (leads: a paid trial). */
  trial: boolean;
  /** The member signed the card's contract before paying (an online order): when, from where. */
  signature?: { at: string; ip: string; ua: string };
}>('card.sold');
