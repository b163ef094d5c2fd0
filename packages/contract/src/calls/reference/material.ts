// Teaching materials (教材): book, chapter, lesson; the wire calls a session's material its "book"
// (server: features/reference/material).
import { z } from 'zod';
import { zId, zName, zOptId } from '../../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { Msg } from '../../messages.ts';
import { RefMsg, zSort, zSortOpt, zStoreIdOpt } from './shared.ts';

export interface MaterialNode {
  id: number;
  name: string;
  level: number;
  children?: MaterialNode[];
}
export const zMaterialNode: z.ZodType<MaterialNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), level: z.number(), children: z.array(zMaterialNode).optional() }),
);

export const materialList = defineCall({
  path: `${STORE_API}/query/material/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ storeId: zStoreIdOpt() }),
  res: z.array(zMaterialNode),
  idFields: ['storeId'],
  summary: '教材列表（教材、章节、课时三级；失败时为空列表）',
  example: {},
});

export const materialDetail = defineCall({
  path: `${STORE_API}/query/material/detail`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ storeId: zStoreIdOpt(), bookId: zId('请选择教材') }),
  res: zMaterialNode,
  idFields: ['storeId', 'bookId'],
  summary: '一本教材及其章节和课时',
  example: { bookId: 1 },
  errors: fails.notFound('教材'),
});

export const insertMaterial = defineCall({
  path: `${STORE_API}/insert/material`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ name: zName(RefMsg.materialName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
  summary: '新增教材、章节或课时',
  example: { name: '第一章', parentId: 1, sort: 0 },
  errors: [...fails.badRequest(RefMsg.materialTooDeep), ...fails.notFound('教材')],
});

export const updateMaterial = defineCall({
  path: `${STORE_API}/update/material`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择教材'), name: zName(RefMsg.materialName), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改教材、章节或课时',
  example: { id: 1, name: '少儿舞蹈基础' },
  errors: fails.notFound('教材'),
});

export const deleteMaterial = defineCall({
  path: `${STORE_API}/delete/material`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择教材') }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除教材、章节或课时（在用时拒绝）',
  example: { id: 1 },
  errors: [...fails.notFound('教材'), ...fails.conflict(Msg.inUse('教材'))],
});

export const materialCalls = [materialList, materialDetail, insertMaterial, updateMaterial, deleteMaterial] as const;
