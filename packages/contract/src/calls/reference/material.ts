// Teaching materials (教材): book, chapter, lesson; the wire calls a session's material its "book"
// (server: features/reference/material).
import { z } from 'zod';
import { zId, zName, zOptId } from '../../common.ts';
import { defineCall, STORE_API } from '../../define.ts';
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
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt() }),
  res: z.array(zMaterialNode),
  idFields: ['storeId'],
});

export const materialDetail = defineCall({
  path: `${STORE_API}/query/material/detail`,
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt(), bookId: zId('请选择教材') }),
  res: zMaterialNode,
  idFields: ['storeId', 'bookId'],
});

export const insertMaterial = defineCall({
  path: `${STORE_API}/insert/material`,
  auth: 'store',
  req: z.object({ name: zName(RefMsg.materialName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
});

export const updateMaterial = defineCall({
  path: `${STORE_API}/update/material`,
  auth: 'store',
  req: z.object({ id: zId('请选择教材'), name: zName(RefMsg.materialName), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id'],
});

export const deleteMaterial = defineCall({
  path: `${STORE_API}/delete/material`,
  auth: 'store',
  req: z.object({ id: zId('请选择教材') }),
  res: z.null(),
  idFields: ['id'],
});

export const materialCalls = [materialList, materialDetail, insertMaterial, updateMaterial, deleteMaterial] as const;
