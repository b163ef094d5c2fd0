import { MODULE_DEDUCTION_MODE, MODULE_ONLINE_DEFAULT, RefMsg } from '@studio/contract';
import { audit, changedFields } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest } from '../../../lib/errors.ts';
import { getModuleStatus, putModuleStatus } from '../repository.ts';

/** A module's status in the acting store; 0 when the store never set it. */
export async function moduleStatusOf(ctx: CallCtx, moduleId: number) {
  return { status: (await getModuleStatus(ctx.db, ctx.store.id, moduleId)) ?? 0 };
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
    kind: 'settings',
    summary: `修改${label}`,
    target: label,
    ...changedFields({ v: words(before) }, { v: words(status) }, { v: label }),
  });
  await putModuleStatus(ctx.db, ctx.store.id, moduleId, status);
  return null;
}
