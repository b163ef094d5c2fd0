import { Msg, RefMsg, type AreaNode } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { isForeignKeyViolation } from '../../../db/dialect.ts';
import { nest } from '../shared.ts';
import { inOwnTx } from '../../../db/write-queue.ts';

function allAreas(ctx: CallCtx) {
  return ctx.db
    .selectFrom('area')
    .select(['id', 'parentId', 'name'])
    .where('storeId', '=', ctx.store.id)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** The store's venues nested by parent (any depth), siblings by sort then id. */
export async function areaTreeOf(ctx: CallCtx): Promise<AreaNode[]> {
  return nest(await allAreas(ctx), (a, children: AreaNode[]) => ({ id: a.id, name: a.name, children }));
}

async function mustFindArea(ctx: CallCtx, id: number) {
  const a = await ctx.db
    .selectFrom('area')
    .select(['id', 'parentId'])
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!a) throw notFound('场地');
  return a;
}

/** Adds a venue under `parentId` (or at the top). */
export async function createArea(ctx: CallCtx, input: { name: string; parentId: number | null; sort: number }) {
  if (input.parentId) await mustFindArea(ctx, input.parentId);
  return ctx.db
    .insertInto('area')
    .values({ storeId: ctx.store.id, ...input })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Renames or moves a venue; moving it under itself or one of its descendants is refused (400). */
export async function editArea(
  ctx: CallCtx,
  input: { id: number; name: string; parentId: number | null; sort?: number },
) {
  const { id, ...fields } = input;
  await mustFindArea(ctx, id);
  if (fields.parentId) {
    await mustFindArea(ctx, fields.parentId);
    const parentOf = new Map((await allAreas(ctx)).map((a) => [a.id, a.parentId]));
    const seen = new Set<number>();
    for (let at: number | null = fields.parentId; at !== null && !seen.has(at); at = parentOf.get(at) ?? null) {
      if (at === id) throw badRequest(RefMsg.areaCycle);
      seen.add(at);
    }
  }
  await ctx.db.updateTable('area').set(fields).where('storeId', '=', ctx.store.id).where('id', '=', id).execute();
  return null;
}

/**
 * Deletes a venue. Refused (409 场地正在使用中) while it has sub-venues, sessions that are not
 * deleted, or weekly-template rows; deleted sessions simply lose the reference.
 */
export async function removeArea(ctx: CallCtx, id: number) {
  await mustFindArea(ctx, id);
  const storeId = ctx.store.id;
  const used = await ctx.db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('area').select('id').where('parentId', '=', id)).as('child'),
      eb
        .exists(eb.selectFrom('timetable').select('id').where('areaId', '=', id).where('deleted', '=', 0))
        .as('session'),
      eb.exists(eb.selectFrom('fixTimetable').select('id').where('areaId', '=', id)).as('template'),
    ])
    .executeTakeFirstOrThrow();
  if (Number(used.child) || Number(used.session) || Number(used.template)) throw conflict(Msg.inUse('场地'));
  try {
    await inOwnTx(ctx.db, async (tx) => {
      await tx
        .updateTable('timetable')
        .set({ areaId: null })
        .where('storeId', '=', storeId)
        .where('areaId', '=', id)
        .where('deleted', '=', 1)
        .execute();
      await tx.deleteFrom('area').where('storeId', '=', storeId).where('id', '=', id).execute();
    });
  } catch (e) {
    if (isForeignKeyViolation(e)) throw conflict(Msg.inUse('场地'));
    throw e;
  }
  return null;
}
