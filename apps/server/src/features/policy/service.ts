import { audit, changedFields } from '../../lib/audit.ts';
import { DEFAULT_POLICY, MODULE_DEDUCTION_MODE, zBookingPolicy, type BookingPolicy } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { mapRead, sendRead, type Read } from '../../db/fixed.ts';
import { getSetting, putSetting, storeValuesRead } from '../store-admin/public.ts';
import { deductionModeOf } from './rules.ts';
import { allStoresWith } from './repository.ts';

const KEY = 'bookingPolicy';

/** The fields a stored policy may hold (built once: building a zod schema costs more than using it). */
const storedPolicy = zBookingPolicy.partial();

/** Stored policy texts already read, with what they say (a store's text changes seldom). */
const parsed = new Map<string, BookingPolicy>();

/** A stored policy's fields over the defaults (nothing stored, or something unreadable: the defaults). */
function policyOf(value: string | undefined): BookingPolicy {
  if (value === undefined) return DEFAULT_POLICY;
  const known = parsed.get(value);
  if (known) return known;
  let policy = DEFAULT_POLICY;
  try {
    const r = storedPolicy.safeParse(JSON.parse(value));
    if (r.success) policy = { ...DEFAULT_POLICY, ...r.data };
  } catch {
    // Unreadable: the defaults.
  }
  if (parsed.size >= 1000) parsed.clear();
  parsed.set(value, policy);
  return policy;
}

/** The store's policy: the stored fields over the defaults (a store that never saved one gets the defaults). */
export async function loadPolicy(db: Executor, storeId: number): Promise<BookingPolicy> {
  return policyOf(await getSetting(db, storeId, KEY));
}

/** `loadPolicy` as a read to send with others. */
export function policyRead(db: Executor, storeId: number): Read<BookingPolicy> {
  return mapRead(storeValuesRead(db, storeId, { settings: [KEY], modules: [] }), (v) => policyOf(v.settings.get(KEY)));
}

/** What a booking is held to: the store's deduction mode and its booking policy. */
export interface BookingRules {
  deductionMode: 0 | 1;
  policy: BookingPolicy;
}

/** The rules from the stored values: the policy's setting text and the deduction-mode module's status. */
const rulesOf = (policy: string | null | undefined, deductionMode: number | null | undefined): BookingRules => ({
  deductionMode: deductionModeOf(deductionMode ?? undefined),
  policy: policyOf(policy ?? undefined),
});

/** What a booking is held to: the store's deduction mode and its booking policy, in one read. */
export function bookingRules(db: Executor, storeId: number): Promise<BookingRules> {
  return sendRead(db, bookingRulesRead(db, storeId));
}

/** `bookingRules` as a read to send with others (a booking's first reads). */
export function bookingRulesRead(db: Executor, storeId: number): Read<BookingRules> {
  return mapRead(storeValuesRead(db, storeId, { settings: [KEY], modules: [MODULE_DEDUCTION_MODE] }), (v) =>
    rulesOf(v.settings.get(KEY), v.modules.get(MODULE_DEDUCTION_MODE)),
  );
}

/**
 * `bookingRules` of every store, by id, with its time zone, in one statement: what the policy jobs
 * (no-shows, waits) walk over.
 */
export async function storesBookingRules(db: Executor): Promise<({ id: number; timezone: string } & BookingRules)[]> {
  const rows = await allStoresWith(db, { setting: KEY, module: MODULE_DEDUCTION_MODE });
  return rows.map((r) => ({ id: r.id, timezone: r.timezone, ...rulesOf(r.setting, r.module) }));
}

/** Changes the given fields, keeping the others. */
export async function savePolicy(db: Executor, storeId: number, change: Partial<BookingPolicy>): Promise<void> {
  const before = await loadPolicy(db, storeId);
  const next = { ...before, ...change };
  await putSetting(db, storeId, KEY, JSON.stringify(next));
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
