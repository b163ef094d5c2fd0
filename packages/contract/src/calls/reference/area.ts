// Areas: the store's venues (场地) as a tree; the wire keeps the spec's name "area"
// (server: features/reference/area).
import { z } from 'zod';
import { zEmpty, zId, zName, zOptId } from '../../common.ts';
import { defineCall, STORE_API } from '../../define.ts';
import { RefMsg, zSort, zSortOpt } from './shared.ts';

export interface AreaNode {
  id: number;
  name: string;
  children: AreaNode[];
}
export const zAreaNode: z.ZodType<AreaNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), children: z.array(zAreaNode) }),
);

export const areaTree = defineCall({
  path: `${STORE_API}/query/area/tree`,
  auth: 'store',
  req: zEmpty,
  res: z.array(zAreaNode),
});

export const insertArea = defineCall({
  path: `${STORE_API}/insert/area`,
  auth: 'store',
  req: z.object({ name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
});

export const updateArea = defineCall({
  path: `${STORE_API}/update/area`,
  auth: 'store',
  req: z.object({ id: zId('请选择场地'), name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id', 'parentId'],
});

export const deleteArea = defineCall({
  path: `${STORE_API}/delete/area`,
  auth: 'store',
  req: z.object({ id: zId('请选择场地') }),
  res: z.null(),
  idFields: ['id'],
});

export const areaCalls = [areaTree, insertArea, updateArea, deleteArea] as const;
