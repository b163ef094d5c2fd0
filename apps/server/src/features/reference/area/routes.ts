import { areaTree, deleteArea, insertArea, updateArea } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { areaTreeOf, createArea, editArea, removeArea } from './service.ts';

/** Venues: tree, add, edit (no cycles), delete (refused while in use). */
export function registerArea(r: Registry): void {
  r.handle(areaTree, (_input, ctx) => areaTreeOf(ctx));
  r.handle(insertArea, (input, ctx) => createArea(ctx, input), { tx: true });
  r.handle(updateArea, (input, ctx) => editArea(ctx, input), { tx: true });
  r.handle(deleteArea, (input, ctx) => removeArea(ctx, input.id));
}
