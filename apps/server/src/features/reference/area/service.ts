import { Msg, RefMsg, type AreaNode } from '@studio/contract';
import { audit } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { isForeignKeyViolation } from '../../../db/dialect.ts';
import { nest } from '../shared.ts';
import { inOwnTx } from '../../../lib/write-queue.ts';
import { requireArea, storeAreas } from '../repository.ts';
import { areaUsage, deleteAreaRow, insertAreaRow, unsetAreaOfDeletedSessions, changeArea } from './repository.ts';

/** The store's venues nested by parent (any depth), siblings by sort then id. */
export async function areaTreeOf(ctx: CallCtx): Promise<AreaNode[]> {
  return nest(await storeAreas(ctx.db, ctx.store.id), (a, children: AreaNode[]) => ({
    id: a.id,
    name: a.name,
    children,
  }));
}

const mustFindArea = (ctx: CallCtx, id: number) => requireArea(ctx.db, ctx.store.id, id);

/** Adds a venue under `parentId` (or at the top). */
export async function createArea(ctx: CallCtx, input: { name: string; parentId: number | null; sort: number }) {
  if (input.parentId) await mustFindArea(ctx, input.parentId);
  const row = await insertAreaRow(ctx.db, { storeId: ctx.store.id, ...input });
  audit(ctx.db, { kind: 'reference', target: `场地 ${input.name}`, targets: [{ type: 'area', id: row.id }] });
  return row;
}

/** Renames or moves a venue; moving it under itself or one of its descendants is refused (400). */
export async function editArea(
  ctx: CallCtx,
  input: { id: number; name: string; parentId: number | null; sort?: number },
) {
  const { id, ...fields } = input;
  if (fields.parentId) {
    // One read of the store's venues finds the venue, its new parent and the parent's ancestors.
    const parentOf = new Map((await storeAreas(ctx.db, ctx.store.id)).map((a) => [a.id, a.parentId]));
    if (!parentOf.has(id) || !parentOf.has(fields.parentId)) throw notFound('场地');
    const seen = new Set<number>();
    for (let at: number | null = fields.parentId; at !== null && !seen.has(at); at = parentOf.get(at) ?? null) {
      if (at === id) throw badRequest(RefMsg.areaCycle);
      seen.add(at);
    }
  } else {
    await mustFindArea(ctx, id);
  }
  await changeArea(ctx.db, ctx.store.id, id, fields);
  audit(ctx.db, { kind: 'reference', target: `场地 ${fields.name}`, targets: [{ type: 'area', id }] });
  return null;
}

/**
 * Deletes a venue. Refused (409 场地正在使用中) while it has sub-venues, sessions that are not
 * deleted, or weekly-template rows; deleted sessions simply lose the reference.
 */
export async function removeArea(ctx: CallCtx, id: number) {
  await mustFindArea(ctx, id);
  const storeId = ctx.store.id;
  const used = await areaUsage(ctx.db, id);
  if (Number(used.child) || Number(used.session) || Number(used.template)) throw conflict(Msg.inUse('场地'));
  try {
    await inOwnTx(ctx.db, async (tx) => {
      audit(tx, { kind: 'reference', targets: [{ type: 'area', id }] });
      await unsetAreaOfDeletedSessions(tx, storeId, id);
      await deleteAreaRow(tx, storeId, id);
    });
  } catch (e) {
    if (isForeignKeyViolation(e)) throw conflict(Msg.inUse('场地'));
    throw e;
  }
  return null;
}
