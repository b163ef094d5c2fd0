// Store modules: the status of one function of the store, e.g. module 6, the deduction mode
// (server: features/reference/module).
import { z } from 'zod';
import { zId } from '../../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { RefMsg, zStoreIdOpt } from './shared.ts';

export const moduleStatus = defineCall({
  path: `${STORE_API}/query/module/status`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ storeId: zStoreIdOpt(), moduleId: zId(RefMsg.chooseModule) }),
  res: z.object({ status: z.number() }),
  idFields: ['storeId'],
  summary: '门店模块状态（模块6：扣费模式）',
  example: { moduleId: 6 },
});

export const updateModuleStatus = defineCall({
  path: `${STORE_API}/update/module/status`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    storeId: zStoreIdOpt(),
    moduleId: zId(RefMsg.chooseModule),
    status: z
      .number({ error: '状态取值不正确' })
      .int('状态取值不正确')
      .min(0, '状态取值不正确')
      .max(99, '状态取值不正确'),
  }),
  res: z.null(),
  idFields: ['storeId'],
  summary: '修改门店模块状态',
  example: { moduleId: 1, status: 1 },
  errors: fails.badRequest(RefMsg.deductModeStatus),
});

export const moduleCalls = [moduleStatus, updateModuleStatus] as const;
