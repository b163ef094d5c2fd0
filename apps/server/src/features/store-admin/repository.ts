import { LIVE_RESERVATION, PendingStatus } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { fixed, mapRead, sendRead, type Read } from '../../db/fixed.ts';
import type { NewRow, RowUpdate } from '../../db/schema.ts';

/**
 * The store administration's repository: the store row, its key/value settings, its stored files
 * (the logo) and the bookings and pending items a deduction-mode switch has to count. The first-run setup's
 * guard row is an operation lock (`db/op-locks.ts`). The rules (time zones, the deduction switch,
 * one setup at a time) stay in the services.
 */

// Settings.

const storeValueRows = fixed((ex, p: { storeId: number; settings: string[]; modules: number[] }) =>
  ex
    .selectFrom('storeSetting')
    .select((eb) => [eb.val('s').as('kind'), 'key', 'value'])
    .where('storeId', '=', p.storeId)
    .where('key', 'in', p.settings)
    .unionAll(
      ex
        .selectFrom('storeModule')
        .select((eb) => [
          eb.val('m').as('kind'),
          eb.cast<string>('moduleId', 'text').as('key'),
          eb.cast<string>('status', 'text').as('value'),
        ])
        .where('storeId', '=', p.storeId)
        .where('moduleId', 'in', p.modules),
    ),
);

/**
 * Some settings and module statuses of a store in one statement (a booking needs the deduction
 * mode and the booking policy before anything else: one round trip instead of two).
 */
export function storeValues(
  ex: Executor,
  storeId: number,
  keys: { settings: readonly string[]; modules: readonly number[] },
): Promise<{ settings: Map<string, string>; modules: Map<number, number> }> {
  return sendRead(ex, storeValuesRead(ex, storeId, keys));
}

/** `storeValues` as a read to send with others. */
export function storeValuesRead(
  ex: Executor,
  storeId: number,
  keys: { settings: readonly string[]; modules: readonly number[] },
): Read<{ settings: Map<string, string>; modules: Map<number, number> }> {
  const read = storeValueRows.plan(ex, {
    storeId,
    settings: keys.settings.length ? [...keys.settings] : [''],
    modules: keys.modules.length ? [...keys.modules] : [-1],
  });
  return mapRead(read, (rows) => {
    const settings = new Map<string, string>();
    const modules = new Map<number, number>();
    for (const r of rows) {
      if (r.kind === 's') settings.set(r.key, r.value);
      else modules.set(Number(r.key), Number(r.value));
    }
    return { settings, modules };
  });
}

/** The stored text of one store setting, or undefined. */
export async function getSetting(db: Executor, storeId: number, key: string): Promise<string | undefined> {
  return (await settingRow.first(db, { storeId, key }))?.value;
}

const settingRow = fixed((db, p: { storeId: number; key: string }) =>
  db.selectFrom('storeSetting').select('value').where('storeId', '=', p.storeId).where('key', '=', p.key),
);

/** Inserts or replaces one store setting. */
export async function putSetting(db: Executor, storeId: number, key: string, value: string): Promise<void> {
  await db
    .insertInto('storeSetting')
    .values({ storeId, key, value })
    .onConflict((oc) => oc.columns(['storeId', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}

/** Pending items waiting for sign-in on sessions that are not deleted and not over at `now`. */
export async function countWaitingPending(db: Executor, storeId: number, now: string): Promise<number> {
  const row = await db
    .selectFrom('pending')
    .innerJoin('timetable', 'timetable.id', 'pending.timetableId')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pending.storeId', '=', storeId)
    .where('pending.status', '=', PendingStatus.WAITING)
    .where('timetable.storeId', '=', storeId)
    .where('timetable.deleted', '=', 0)
    .where('timetable.endTime', '>', now)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * What a deduction-mode switch leaves as it is: live bookings (booked or signed in) and pendings
 * waiting for sign-in of the store's live sessions starting at `fromTime` or later.
 */
export async function countBookingsFrom(ex: Executor, storeId: number, fromTime: string) {
  const [reservations, pendings] = await Promise.all([
    ex
      .selectFrom('reservation as r')
      .innerJoin('timetable as t', 't.id', 'r.timetableId')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('r.storeId', '=', storeId)
      .where('r.status', 'in', LIVE_RESERVATION)
      .where('t.storeId', '=', storeId)
      .where('t.deleted', '=', 0)
      .where('t.startTime', '>=', fromTime)
      .executeTakeFirst(),
    ex
      .selectFrom('pending as p')
      .innerJoin('timetable as t', 't.id', 'p.timetableId')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('p.storeId', '=', storeId)
      .where('p.status', '=', PendingStatus.WAITING)
      .where('t.storeId', '=', storeId)
      .where('t.deleted', '=', 0)
      .where('t.startTime', '>=', fromTime)
      .executeTakeFirst(),
  ]);
  return { reservations: Number(reservations?.n ?? 0), pendings: Number(pendings?.n ?? 0) };
}

// The store row and its files.

/** Changes fields of a store's row. */
export async function changeStore(ex: Executor, storeId: number, fields: RowUpdate<'store'>): Promise<void> {
  await ex.updateTable('store').set(fields).where('id', '=', storeId).execute();
}

/** The store's logo file id, or null when it has none or there is no such store. */
export async function storeLogoFileId(ex: Executor, storeId: number): Promise<number | null> {
  const row = await ex.selectFrom('store').select('logoFileId').where('id', '=', storeId).executeTakeFirst();
  return row?.logoFileId ?? null;
}

/** Stores a file of a store; answers its id. */
export function insertStoreFile(tx: Tx, row: NewRow<'storeFile'>) {
  return tx.insertInto('storeFile').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Deletes a stored file of a store. */
export async function deleteStoreFile(tx: Tx, storeId: number, fileId: number): Promise<void> {
  await tx.deleteFrom('storeFile').where('id', '=', fileId).where('storeId', '=', storeId).execute();
}

/** A stored file (type and bytes) of one of the given stores, or undefined. */
export async function findStoreFile(db: Executor, fileId: number, storeIds: number[]) {
  if (!storeIds.length) return undefined;
  return db
    .selectFrom('storeFile')
    .select(['mime', 'data'])
    .where('id', '=', fileId)
    .where('storeId', 'in', storeIds)
    .executeTakeFirst();
}

/** The store's logo file (type and bytes), or undefined when it has none. */
/** The store row's name, logo file and QR-code link (the timetable picture's heading), or undefined when there is no such store. */
export function storeSettingRow(ex: Executor, storeId: number) {
  return ex
    .selectFrom('store')
    .select(['id', 'name', 'logoFileId', 'qrCode'])
    .where('id', '=', storeId)
    .executeTakeFirst();
}

export function storeLogo(ex: Executor, storeId: number) {
  return ex
    .selectFrom('store as s')
    .innerJoin('storeFile as f', (j) => j.onRef('f.id', '=', 's.logoFileId').onRef('f.storeId', '=', 's.id'))
    .select(['f.mime', 'f.data'])
    .where('s.id', '=', storeId)
    .executeTakeFirst();
}

/** Stores a setting unless the store has one under `key` already (the first written stays). */
export async function insertSettingIfAbsent(ex: Executor, storeId: number, key: string, value: string): Promise<void> {
  await ex
    .insertInto('storeSetting')
    .values({ storeId, key, value })
    .onConflict((oc) => oc.columns(['storeId', 'key']).doNothing())
    .execute();
}
