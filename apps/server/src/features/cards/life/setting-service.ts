import { LEAVE_APPROVALS, type CardLifeSetting } from '@studio/contract';
import { audit, changedFields } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { CARD_LIFE_KEY } from '../repository.ts';
import { loadCardLifeSetting } from '../refund-quote.ts';
import { putSetting } from '../../store-admin/public.ts';

/** The store's card-life setting: cooling-off days (default 7) and how members' leave requests are approved. */
export const cardLifeSetting = (ctx: CallCtx) => loadCardLifeSetting(ctx.db, ctx.store.id);

const words = (s: CardLifeSetting) => ({
  coolingOffDays: s.coolingOffDays,
  leaveApproval: s.leaveApproval === LEAVE_APPROVALS[0] ? '自动批准' : '前台审批',
});

/** Saves the card-life setting (the manager's), audited with what changed. */
export async function saveCardLifeSetting(ctx: CallCtx, input: CardLifeSetting) {
  const before = await loadCardLifeSetting(ctx.db, ctx.store.id);
  await putSetting(ctx.db, ctx.store.id, CARD_LIFE_KEY, JSON.stringify(input));
  audit(ctx.db, {
    kind: 'settings',
    target: '退卡与请假设置',
    ...changedFields(words(before), words(input), { coolingOffDays: '冷静期天数', leaveApproval: '请假审批' }),
  });
  return null;
}
