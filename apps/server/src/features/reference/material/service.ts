import { Msg, RefMsg, type MaterialNode } from '@studio/contract';
import { audit } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { isForeignKeyViolation } from '../../../db/dialect.ts';
import { nest } from '../shared.ts';
import { inOwnTx } from '../../../lib/write-queue.ts';
import { requireMaterialNode } from '../repository.ts';
import {
  deleteMaterialRow,
  insertMaterialRow,
  materialUsage,
  storeMaterials,
  unsetMaterialOfDeletedSessions,
  changeMaterial,
} from './repository.ts';

/** Levels of the material tree: book 1, chapter 2, lesson 3. */
const MAX_LEVEL = 3;

const toNode = (m: { id: number; name: string; level: number }, children: MaterialNode[]): MaterialNode =>
  children.length ? { id: m.id, name: m.name, level: m.level, children } : { id: m.id, name: m.name, level: m.level };

/** The store's books, each with its chapters and their lessons (sorted by sort then id). */
export async function materialTree(ctx: CallCtx): Promise<MaterialNode[]> {
  const rows = await storeMaterials(ctx.db, ctx.store.id);
  return nest(rows, toNode, new Set(rows.filter((r) => r.parentId === null).map((r) => r.id)));
}

const mustFindMaterial = (ctx: CallCtx, id: number) => requireMaterialNode(ctx.db, ctx.store.id, id);

/** One book (or chapter) with everything below it. */
export async function materialDetailOf(ctx: CallCtx, materialId: number): Promise<MaterialNode> {
  const rows = await storeMaterials(ctx.db, ctx.store.id);
  if (!rows.some((r) => r.id === materialId)) throw notFound('教材');
  return nest(rows, toNode, new Set([materialId]))[0];
}

/** Adds a book (no parent), a chapter (under a book) or a lesson (under a chapter). */
export async function createMaterial(ctx: CallCtx, input: { name: string; parentId: number | null; sort: number }) {
  const level = input.parentId ? (await mustFindMaterial(ctx, input.parentId)).level + 1 : 1;
  if (level > MAX_LEVEL) throw badRequest(RefMsg.materialTooDeep);
  const row = await insertMaterialRow(ctx.db, { storeId: ctx.store.id, ...input, level });
  audit(ctx.db, { kind: 'reference', target: `教材 ${input.name}`, targets: [{ type: 'material', id: row.id }] });
  return row;
}

/** Renames a material or changes its place among its siblings. */
export async function editMaterial(ctx: CallCtx, input: { id: number; name: string; sort?: number }) {
  const { id, ...fields } = input;
  await mustFindMaterial(ctx, id);
  await changeMaterial(ctx.db, ctx.store.id, id, fields);
  audit(ctx.db, { kind: 'reference', target: `教材 ${fields.name}`, targets: [{ type: 'material', id }] });
  return null;
}

/**
 * Deletes a material. Refused (409 教材正在使用中) while it has children, or sessions that are
 * not deleted or weekly-template rows use it; deleted sessions simply lose the reference.
 */
export async function removeMaterial(ctx: CallCtx, id: number) {
  await mustFindMaterial(ctx, id);
  const storeId = ctx.store.id;
  const used = await materialUsage(ctx.db, id);
  if (Number(used.child) || Number(used.session) || Number(used.template)) throw conflict(Msg.inUse('教材'));
  try {
    await inOwnTx(ctx.db, async (tx) => {
      audit(tx, { kind: 'reference', targets: [{ type: 'material', id }] });
      await unsetMaterialOfDeletedSessions(tx, storeId, id);
      await deleteMaterialRow(tx, storeId, id);
    });
  } catch (e) {
    if (isForeignKeyViolation(e)) throw conflict(Msg.inUse('教材'));
    throw e;
  }
  return null;
}
