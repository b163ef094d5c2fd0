// The store's name, logo and QR code as the schedule screen shows them (server: features/reference/store-setting).
import { z } from 'zod';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { zStoreIdOpt } from './shared.ts';

export const storeSetting = defineCall({
  path: `${STORE_API}/query/store/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ storeId: zStoreIdOpt() }),
  res: z.object({
    storeName: z.string(),
    logo: z.string().nullable(),
    storeId: z.number(),
    qrCode: z.string().nullable(),
  }),
  idFields: ['storeId'],
  summary: '门店名称、Logo 和二维码（周课表图用）',
  example: {},
  errors: fails.notFound('门店'),
});

export const storeSettingCalls = [storeSetting] as const;
