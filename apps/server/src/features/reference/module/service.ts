import { MODULE_DEDUCTION_MODE, RefMsg } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest } from '../../../lib/errors.ts';

/** A module's status in the acting store; 0 when the store never set it. */
export async function moduleStatusOf(ctx: CallCtx, moduleId: number) {
  const row = await ctx.db
    .selectFrom('storeModule')
    .select('status')
    .where('storeId', '=', ctx.store.id)
    .where('moduleId', '=', moduleId)
    .executeTakeFirst();
  return { status: row?.status ?? 0 };
}

/** Sets a module's status (module 6, the deduction mode, takes only 0 or 1). */
export async function setModuleStatus(ctx: CallCtx, moduleId: number, status: number) {
  if (moduleId === MODULE_DEDUCTION_MODE && status !== 0 && status !== 1) throw badRequest(RefMsg.deductModeStatus);
  await ctx.db
    .insertInto('storeModule')
    .values({ storeId: ctx.store.id, moduleId, status })
    .onConflict((oc) => oc.columns(['storeId', 'moduleId']).doUpdateSet({ status }))
    .execute();
  return null;
}
