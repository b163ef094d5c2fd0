import type { BatchExportRow } from '@studio/contract';
import type { CallCtx } from '../../lib/context.ts';
import { addDays, localDateTime, toDateTime } from '../../lib/time.ts';
import { exportRows } from '../timetable/public.ts';
import { deleteSessions } from './bulk-delete.ts';
import { sessionIdsInRange } from './repository.ts';
import { areaAndBelow } from '../reference/public.ts';
import { bulkTx } from './preview.ts';

/**
 * Batch delete: every live session starting in the inclusive range (venue filter with its
 * sub-venues) is deleted, its bookings cancelled and refunded as the engine's deleteSession does,
 * in bulk and in one transaction.
 */
export async function cancelSessionsInRange(
  ctx: CallCtx,
  input: { fromDate: string; toDate: string; venueId: number | null; dryRun?: boolean },
) {
  const storeId = ctx.store.id;
  return bulkTx(ctx, input.dryRun, async (tx) => {
    const venueIds = await areaAndBelow(tx, storeId, input.venueId);
    const sessions = await sessionIdsInRange(tx, storeId, input.fromDate, input.toDate, venueIds);
    const ids = sessions.map((s) => s.id);
    const count = await deleteSessions(tx, ctx.store, ids, ctx.staff.id, ctx.events);
    // The preview lists the sessions it deletes (by time).
    return { count, listed: ids };
  });
}

/**
 * The bookings of the live sessions starting in the inclusive range, by time, with what became of
 * each (状态: booked, came, signed in, late cancel, no-show).
 */
export function exportRange(ctx: CallCtx, input: { fromDate: string; toDate: string }): Promise<BatchExportRow[]> {
  return exportRows(
    ctx.db,
    ctx.store.id,
    { fromTime: toDateTime(input.fromDate), beforeTime: toDateTime(addDays(input.toDate, 1)) },
    localDateTime(ctx.store.timezone),
  );
}
