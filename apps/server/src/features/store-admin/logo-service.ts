import type { Db, Dialect, Executor } from '../../db/index.ts';
import { decodeImageDataUrl } from './image.ts';
import { inOwnTx } from '../../db/write-queue.ts';

/** Where the app serves a stored file of a store (see file-route.ts). */
export const storeFileUrl = (fileId: number) => `/store/files/${fileId}`;

/**
 * Stores an uploaded logo (a base64 data URL of a PNG, JPEG or WebP image up to 1 MiB) as the
 * store's logo, replacing and deleting the previous one, in one transaction.
 */
export async function addLogo(db: Db, dialect: Dialect, storeId: number, image: string): Promise<{ logo: string }> {
  const { mime, bytes } = decodeImageDataUrl(image);
  const fileId = await inOwnTx(db, async (tx) => {
    // Lock the store row first (before the file insert takes its foreign-key share lock): a
    // concurrent upload waits and then replaces this logo instead of orphaning one.
    // SQLite runs one write transaction at a time anyway.
    const current = tx.selectFrom('store').select('logoFileId').where('id', '=', storeId);
    const store = await (dialect === 'postgres' ? current.forUpdate() : current).executeTakeFirstOrThrow();
    const file = await tx
      .insertInto('storeFile')
      .values({ storeId, mime, data: bytes, createdAt: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx.updateTable('store').set({ logoFileId: file.id }).where('id', '=', storeId).execute();
    if (store.logoFileId !== null) {
      await tx.deleteFrom('storeFile').where('id', '=', store.logoFileId).where('storeId', '=', storeId).execute();
    }
    return file.id;
  });
  return { logo: storeFileUrl(fileId) };
}

/** A stored file of one of the given stores, or undefined. */
export async function findStoreFile(db: Executor, fileId: number, storeIds: number[]) {
  if (!storeIds.length) return undefined;
  return db
    .selectFrom('storeFile')
    .select(['mime', 'data'])
    .where('id', '=', fileId)
    .where('storeId', 'in', storeIds)
    .executeTakeFirst();
}
