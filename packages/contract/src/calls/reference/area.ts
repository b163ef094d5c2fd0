// Areas: the store's venues (场地) as a tree; the wire keeps the spec's name "area"
// (server: features/reference/area).
import { z } from 'zod';
import { zEmpty, zId, zName, zOptId } from '../../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { Msg } from '../../messages.ts';
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
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: zEmpty,
  res: z.array(zAreaNode),
  summary: '场地树',
  example: {},
});

export const insertArea = defineCall({
  path: `${STORE_API}/insert/area`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
  summary: '新增场地（可挂在上级场地下）',
  example: { name: '一号教室', parentId: null, sort: 0 },
  errors: fails.notFound('场地'),
});

export const updateArea = defineCall({
  path: `${STORE_API}/update/area`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择场地'), name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id', 'parentId'],
  summary: '修改场地（不能移到自己或下级之下）',
  example: { id: 2, name: '一号教室', parentId: 1 },
  errors: [...fails.badRequest(RefMsg.areaCycle), ...fails.notFound('场地')],
});

export const deleteArea = defineCall({
  path: `${STORE_API}/delete/area`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择场地') }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除场地（有下级、课程或周课表在用时拒绝）',
  example: { id: 2 },
  errors: [...fails.notFound('场地'), ...fails.conflict(Msg.inUse('场地'))],
});

export const areaCalls = [areaTree, insertArea, updateArea, deleteArea] as const;
