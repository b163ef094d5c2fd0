import type { MeetingInfo } from '@studio/contract';
import type { Executor } from '../db/index.ts';

/**
 * What the booking engine and the online rooms announce, inside the transaction that made the
 * change. Listeners (store messaging) write in that same transaction, so an announcement commits or
 * rolls back with the change it describes.
 */
export type EngineEvent =
  | { type: 'reservation.booked' | 'reservation.cancelled'; storeId: number; reservationId: number }
  | { type: 'pending.added' | 'pending.cancelled'; storeId: number; pendingId: number }
  | {
      type: 'session.deleted';
      storeId: number;
      timetableId: number;
      refunds: { memberId: number; memberCardId: number; amount: number }[];
    }
  | { type: 'room.created'; storeId: number; timetableId: number; info: MeetingInfo }
  /** A session's time, capacity or place changed (seats may have freed up). */
  | { type: 'session.changed'; storeId: number; timetableId: number }
  /** A waiting member got a seat (booked, or a pending in sign-in mode). */
  | {
      type: 'waitlist.promoted';
      storeId: number;
      timetableId: number;
      memberId: number;
      waitId: number;
      studentCount: number;
    }
  /** The daily digest of card alerts (reports), once per store and day. */
  | {
      type: 'cards.digest';
      storeId: number;
      date: string;
      total: number;
      /** The first cards, soonest expiry first: member, card, balance text, reasons. */
      rows: {
        memberName: string;
        mobile: string;
        cardName: string;
        bigType: number;
        balance: number;
        reasons: string;
      }[];
    };

export type EngineListener = (tx: Executor, e: EngineEvent) => Promise<void>;

/** What a listener reads first when an event of `type` comes, started ahead (see `readAhead`). */
export type EngineReadAhead = (tx: Executor, storeId: number, type: EngineEvent['type']) => void;

const listeners = new Set<EngineListener>();
const readAheads = new Set<EngineReadAhead>();

/** Adds a listener (once: adding the same function again changes nothing), with its read ahead if any. */
export function onEngineEvent(listener: EngineListener, ahead?: EngineReadAhead): void {
  listeners.add(listener);
  if (ahead) readAheads.add(ahead);
}

/**
 * The change about to be made in `tx` will announce an event of `type`: listeners start the reads
 * they would make first, now, so that on PostgreSQL they go with the change's own reads (call it in
 * the same turn as those, db/fixed.ts) and not after the change's writes, while its row locks are held.
 */
export function readAhead(tx: Executor, storeId: number, type: EngineEvent['type']): void {
  for (const ahead of readAheads) ahead(tx, storeId, type);
}

/** Announces a change to every listener, in the caller's transaction, one after the other. */
export async function emit(tx: Executor, e: EngineEvent): Promise<void> {
  for (const l of listeners) await l(tx, e);
}
