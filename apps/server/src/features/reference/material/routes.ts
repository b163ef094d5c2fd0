import { deleteMaterial, insertMaterial, materialDetail, materialList, updateMaterial } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { createMaterial, editMaterial, materialDetailOf, materialTree, removeMaterial } from './service.ts';

/** Teaching materials: book -> chapter -> lesson. */
export function registerMaterial(r: Registry): void {
  r.handle(materialList, (_input, ctx) => materialTree(ctx));
  r.handle(materialDetail, (input, ctx) => materialDetailOf(ctx, input.bookId));
  r.handle(insertMaterial, (input, ctx) => createMaterial(ctx, input), { tx: true });
  r.handle(updateMaterial, (input, ctx) => editMaterial(ctx, input), { tx: true });
  r.handle(deleteMaterial, (input, ctx) => removeMaterial(ctx, input.id));
}
