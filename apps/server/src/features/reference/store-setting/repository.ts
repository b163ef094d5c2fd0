import type { Executor } from '../../../db/index.ts';

/** The store row's name, logo file and QR-code link, or undefined when there is no such store. */
export function storeSettingRow(ex: Executor, storeId: number) {
  return ex
    .selectFrom('store')
    .select(['id', 'name', 'logoFileId', 'qrCode'])
    .where('id', '=', storeId)
    .executeTakeFirst();
}
