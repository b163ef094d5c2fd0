import type { Db } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import { lockStore } from '../../db/locks.ts';
import { decodeImageDataUrl } from './image.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import type { CallCtx } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { changeStore, deleteStoreFile, insertStoreFile, storeLogoFileId, storeSettingRow } from './repository.ts';

/** Where the app serves a stored file of a store (see file-route.ts). */
export const storeFileUrl = (fileId: number) => `/store/files/${fileId}`;

/**
 * Stores an uploaded logo (a base64 data URL of a PNG, JPEG or WebP image up to 1 MiB) as the
 * store's logo, replacing and deleting the previous one, in one transaction.
 */
export async function addLogo(db: Db, storeId: number, image: string): Promise<{ logo: string }> {
  const { mime, bytes } = decodeImageDataUrl(image);
  const fileId = await inOwnTx(db, async (tx) => {
    // Lock the store row first (before the file insert takes its foreign-key share lock): a
    // concurrent upload waits and then replaces this logo instead of orphaning one.
    // SQLite runs one write transaction at a time anyway.
    await lockStore(tx, storeId);
    const previous = await storeLogoFileId(tx, storeId);
    const file = await insertStoreFile(tx, { storeId, mime, data: bytes, createdAt: Date.now() });
    await changeStore(tx, storeId, { logoFileId: file.id });
    if (previous !== null) await deleteStoreFile(tx, storeId, previous);
    audit(tx, { kind: 'settings', target: '门店标志' });
    return file.id;
  });
  return { logo: storeFileUrl(fileId) };
}

/** The name, logo link and QR-code link the timetable picture shows. */
export async function storeSettingOf(ctx: CallCtx) {
  const s = await storeSettingRow(ctx.db, ctx.store.id);
  if (!s) throw notFound('门店');
  return {
    storeName: s.name,
    logo: s.logoFileId ? storeFileUrl(s.logoFileId) : null,
    storeId: s.id,
    qrCode: s.qrCode,
  };
}
