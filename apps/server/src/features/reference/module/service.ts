import { MODULE_DEDUCTION_MODE, MODULE_ONLINE_DEFAULT, RefMsg } from '@studio/contract';
import { audit, changedFields } from '../../../lib/audit.ts';
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
  const { status: before } = await moduleStatusOf(ctx, moduleId);
  const words = (x: number) =>
    moduleId === MODULE_DEDUCTION_MODE ? (x === 1 ? '签到后扣费' : '预约即扣费') : x ? '开启' : '关闭';
  const label =
    moduleId === MODULE_DEDUCTION_MODE
      ? '扣费方式'
      : moduleId === MODULE_ONLINE_DEFAULT
        ? '新课程默认在线教室'
        : '门店功能';
  audit(ctx.db, {
    summary: `修改${label}`,
    target: label,
    ...changedFields({ v: words(before) }, { v: words(status) }, { v: label }),
  });
  await ctx.db
    .insertInto('storeModule')
    .values({ storeId: ctx.store.id, moduleId, status })
    .onConflict((oc) => oc.columns(['storeId', 'moduleId']).doUpdateSet({ status }))
    .execute();
  return null;
}
