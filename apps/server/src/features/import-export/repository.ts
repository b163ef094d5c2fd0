import { insertRows } from '../../db/bulk-insert.ts';
import { idChunks } from '../../db/chunks.ts';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import type { ImportProduct } from './rows.ts';

/** The store's card products that are not deleted, for matching by name. */
export async function productsOf(ex: Executor, storeId: number): Promise<ImportProduct[]> {
  const rows = await ex
    .selectFrom('cardProduct')
    .select([
      'id',
      'cardName',
      'bigType',
      'perCount',
      'cardType',
      'validDays',
      'enabled',
      'activation',
      'activateWithinDays',
      'shareMax',
    ])
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    validDays: r.validDays === null ? null : Number(r.validDays),
    perCount: Number(r.perCount),
    activateWithinDays: Number(r.activateWithinDays),
    shareMax: Number(r.shareMax),
  }));
}

export interface ExistingMember {
  id: number;
  mobile: string;
  name: string;
  gender: number;
  birthday: string | null;
  remark: string | null;
}

/** The store's members among `mobiles`, by mobile. */
export async function membersByMobile(
  ex: Executor,
  storeId: number,
  mobiles: string[],
): Promise<Map<string, ExistingMember>> {
  const out = new Map<string, ExistingMember>();
  for (const part of idChunks(mobiles)) {
    const rows = await ex
      .selectFrom('member')
      .select(['id', 'mobile', 'name', 'gender', 'birthday', 'remark'])
      .where('storeId', '=', storeId)
      .where('mobile', 'in', part)
      .execute();
    for (const r of rows) out.set(r.mobile, r);
  }
  return out;
}

/** A store setting's value, or undefined. */
export async function settingOf(ex: Executor, storeId: number, key: string): Promise<string | undefined> {
  const row = await ex
    .selectFrom('storeSetting')
    .select('value')
    .where('storeId', '=', storeId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Sets a store setting. */
export async function putSetting(ex: Executor, storeId: number, key: string, value: string): Promise<void> {
  await ex
    .insertInto('storeSetting')
    .values({ storeId, key, value })
    .onConflict((oc) => oc.columns(['storeId', 'key']).doUpdateSet({ value }))
    .execute();
}

/** Inserts members; answers id by mobile. */
export async function insertMembers(ex: Executor, rows: NewRow<'member'>[]): Promise<Map<string, number>> {
  const back = await insertRows(ex, 'member', rows, ['id', 'mobile']);
  return new Map(back.map((r) => [String(r.mobile), Number(r.id)]));
}

/** Changes one member's fields. */
export async function updateMember(
  ex: Executor,
  storeId: number,
  id: number,
  fields: { name?: string; gender?: number; birthday?: string | null; remark?: string | null },
): Promise<void> {
  await ex.updateTable('member').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** Inserts cards (at most one per member in one call): answers card id by member id. */
export async function insertCards(ex: Executor, rows: NewRow<'memberCard'>[]): Promise<Map<number, number>> {
  const back = await insertRows(ex, 'memberCard', rows, ['id', 'memberId']);
  return new Map(back.map((r) => [Number(r.memberId), Number(r.id)]));
}

/** Inserts ledger entries (one per card): answers entry id by card id. */
export async function insertLedger(ex: Executor, rows: NewRow<'cardLedger'>[]): Promise<Map<number, number>> {
  const back = await insertRows(ex, 'cardLedger', rows, ['id', 'memberCardId']);
  return new Map(back.map((r) => [Number(r.memberCardId), Number(r.id)]));
}

/** Inserts leaves (请假) of imported cards; answers their ids. */
export async function insertLeaves(ex: Executor, rows: NewRow<'cardLeave'>[]): Promise<number[]> {
  const back = await insertRows(ex, 'cardLeave', rows, ['id']);
  return back.map((r) => Number(r.id));
}

export async function insertPayments(ex: Executor, rows: NewRow<'cardPayment'>[]): Promise<void> {
  await insertRows(ex, 'cardPayment', rows);
}

/** The newest audit entry of a call by a staff member in a store (the import's, read back). */
export async function lastEntryOf(ex: Executor, storeId: number, call: string, staffId: number) {
  const row = await ex
    .selectFrom('auditLog')
    .select('id')
    .where('storeId', '=', storeId)
    .where('call', '=', call)
    .where('staffId', '=', staffId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Sets a job's shared progress row (PostgreSQL; see progress.ts). */
export async function putProgress(ex: Executor, row: NewRow<'jobProgress'>): Promise<void> {
  const { key: _key, storeId: _store, ...set } = row;
  await ex
    .insertInto('jobProgress')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet(set))
    .execute();
}

/** A job's shared progress row of the store, if any. */
export function progressRow(ex: Executor, key: string, storeId: number) {
  return ex
    .selectFrom('jobProgress')
    .select(['phase', 'done', 'total'])
    .where('key', '=', key)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
}

/** Removes progress rows last written before `before` (ms). */
export async function deleteOldProgress(ex: Executor, before: number): Promise<void> {
  await ex.deleteFrom('jobProgress').where('updatedAt', '<', before).execute();
}
