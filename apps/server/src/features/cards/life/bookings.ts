import type { Tx } from '../../../db/index.ts';
import type { StoreScope } from '../../../lib/context.ts';
import { event, type Events } from '../../../lib/events.ts';
import { cardBookingsDropped } from '../events.ts';

/**
 * Cancels the given bookings of a card with their refunds (their sessions locked by the caller): the
 * timetable does it as the listener of `cardBookingsDropped`, and announces each cancel.
 */
export async function cancelCardBookings(
  tx: Tx,
  store: StoreScope,
  found: readonly { kind: 'reservation' | 'pending'; id: number }[],
  by: { staffId: number | null; member: boolean },
  events: Events,
) {
  if (!found.length) return;
  await events.emit(tx, event(cardBookingsDropped, { storeId: store.id, store, bookings: found, by }));
}
