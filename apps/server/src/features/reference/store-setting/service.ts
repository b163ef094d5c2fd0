import type { CallCtx } from '../../../lib/context.ts';
import { notFound } from '../../../lib/errors.ts';
import { storeFileUrl } from '../../store-admin/public.ts';
import { storeSettingRow } from './repository.ts';

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
