import { OperateType } from '@studio/contract';
import type { Tx } from '../../../db/index.ts';
import type { StoreScope } from '../../../lib/context.ts';
import { event, type Events } from '../../../lib/events.ts';
import { bookingCancelled, cancelPending, cancelReservation } from '../../timetable/public.ts';

/** Cancels the given bookings of a card with their refunds (their sessions locked by the caller), each announced. */
export async function cancelCardBookings(
  tx: Tx,
  store: StoreScope,
  found: readonly { kind: 'reservation' | 'pending'; id: number }[],
  by: { staffId: number | null; member: boolean },
  events: Events,
) {
  const operateType = by.member ? OperateType.USER_CANCELLED : OperateType.ADMIN_CANCELLED;
  for (const b of found) {
    const fact =
      b.kind === 'reservation'
        ? (await cancelReservation(tx, store, { reservationId: b.id, operatorId: by.staffId, operateType })).fact
        : await cancelPending(tx, store, { pendingId: b.id, operatorId: by.staffId, operateType });
    await events.emit(tx, event(bookingCancelled, fact));
  }
}
