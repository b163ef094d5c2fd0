import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';

/**
 * Closed months (pay_month_close): a month of teacher pay or of commission, closed with its statement
 * as it stood. Kept apart from the feature's other queries: the timetable's session edits ask it
 * (`public.ts`), and it imports nothing of the timetable.
 */

export type CloseKind = 'teacher' | 'commission';

/** A closed month of a kind, with its snapshot; undefined when open. */
export function closingOf(ex: Executor, storeId: number, kind: CloseKind, month: string) {
  return ex
    .selectFrom('payMonthClose')
    .select(['month', 'closedByName', 'closedAt', 'snapshot'])
    .where('storeId', '=', storeId)
    .where('kind', '=', kind)
    .where('month', '=', month)
    .executeTakeFirst();
}

/** Which of `months` are closed for a kind, in order. */
export async function closedAmong(ex: Executor, storeId: number, kind: CloseKind, months: readonly string[]) {
  if (!months.length) return [];
  const rows = await ex
    .selectFrom('payMonthClose')
    .select('month')
    .where('storeId', '=', storeId)
    .where('kind', '=', kind)
    .where('month', 'in', months)
    .orderBy('month')
    .execute();
  return rows.map((r) => r.month);
}

/** Every closed month of the store, newest first. */
export function closings(ex: Executor, storeId: number) {
  return ex
    .selectFrom('payMonthClose')
    .select(['kind', 'month', 'closedAt', 'closedByName'])
    .where('storeId', '=', storeId)
    .orderBy('month', 'desc')
    .orderBy('kind', 'desc')
    .execute();
}

/** Closes a month (its primary key refuses a second close at once): false when it was closed already. */
export async function insertClosing(tx: Tx, row: NewRow<'payMonthClose'>): Promise<boolean> {
  const r = await tx
    .insertInto('payMonthClose')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'kind', 'month']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Reopens a month: false when it was not closed. */
export async function deleteClosing(tx: Tx, storeId: number, kind: CloseKind, month: string): Promise<boolean> {
  const r = await tx
    .deleteFrom('payMonthClose')
    .where('storeId', '=', storeId)
    .where('kind', '=', kind)
    .where('month', '=', month)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
