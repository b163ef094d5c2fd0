import type { Executor } from '../../db/index.ts';
import { addDays, toDateTime } from '../../lib/time.ts';

/**
 * Live sessions of a store starting within the inclusive store-local dates `from`..`to`,
 * optionally only in some venues.
 */
export function sessionsInRange(ex: Executor, storeId: number, from: string, to: string, areaIds: number[] | null) {
  let q = ex
    .selectFrom('timetable as t')
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', toDateTime(from))
    .where('t.startTime', '<', toDateTime(addDays(to, 1)));
  if (areaIds) q = q.where('t.areaId', 'in', areaIds);
  return q;
}
