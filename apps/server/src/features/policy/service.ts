import { audit, changedFields } from '../../lib/audit.ts';
import { MODULE_DEDUCTION_MODE, type BookingPolicy } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { putSetting } from '../store-admin/public.ts';
import { allStoresWith, BOOKING_POLICY, loadPolicy, rulesOf, type BookingRules } from './repository.ts';

export { bookingRules, loadPolicy, type BookingRules } from './repository.ts';

/**
 * `bookingRules` of every store, by id, with its time zone, in one statement: what the policy jobs
 * (no-shows, waits) walk over.
 */
export async function storesBookingRules(db: Executor): Promise<({ id: number; timezone: string } & BookingRules)[]> {
  const rows = await allStoresWith(db, { setting: BOOKING_POLICY, module: MODULE_DEDUCTION_MODE });
  return rows.map((r) => ({ id: r.id, timezone: r.timezone, ...rulesOf(r.setting, r.module) }));
}

/** Changes the given fields, keeping the others. */
export async function savePolicy(db: Executor, storeId: number, change: Partial<BookingPolicy>): Promise<void> {
  const before = await loadPolicy(db, storeId);
  const next = { ...before, ...change };
  await putSetting(db, storeId, BOOKING_POLICY, JSON.stringify(next));
  audit(db, {
    kind: 'settings',
    summary: '修改预约规则',
    target: '预约规则',
    ...changedFields(inWords(before), inWords(next), POLICY_LABELS),
  });
}

/** A policy with its choices in staff words. */
const inWords = (p: BookingPolicy) => ({
  ...p,
  lateCancel: p.lateCancel === 'refuse' ? '不能取消' : '可以取消，不退回',
  waitlist: p.waitlist ? '开启' : '关闭',
  noShow: p.noShow === 'none' ? '不扣费' : '扣除一次课',
});

/** The policy's fields in staff words (操作日志 shows changes by these). */
const POLICY_LABELS: Record<keyof BookingPolicy, string> = {
  openDaysBefore: '开课前几天开放预约',
  closeMinutesBefore: '开课前几分钟停止预约',
  cancelMinutesBefore: '开课前几分钟可免费取消',
  lateCancel: '迟到取消的处理',
  waitlist: '候补',
  waitlistCutoffMinutes: '开课前几分钟停止递补',
  noShow: '爽约的处理',
  noShowLimit: '爽约几次暂停在线预约',
  noShowSuspendDays: '暂停在线预约天数',
  maxOpenBookings: '期限卡最多同时预约几节',
};
