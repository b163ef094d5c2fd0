import { DEFAULT_POLICY, MODULE_DEDUCTION_MODE, zBookingPolicy, type BookingPolicy } from '@studio/contract';
import { mapRead, sendRead, type Read } from '../../db/fixed.ts';
import type { Executor } from '../../db/index.ts';
import { getSetting, storeValuesRead } from '../store-admin/public.ts';
import { deductionModeOf } from './rules.ts';

/**
 * The booking policy's repository. The policy itself is a store setting, read and written through
 * `store-admin/public.ts` (`getSetting`, `putSetting`, `storeValues` for one store): here it is
 * read as a policy (alone, or as a read to send with a booking's others), and the list of stores
 * the policy jobs walk over, each with the values its rules come from.
 */

/** The store setting that holds the booking policy (JSON). */
export const BOOKING_POLICY = 'bookingPolicy';

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
  return policyOf(await getSetting(db, storeId, BOOKING_POLICY));
}

/** `loadPolicy` as a read to send with others. */
export function policyRead(db: Executor, storeId: number): Read<BookingPolicy> {
  return mapRead(storeValuesRead(db, storeId, { settings: [BOOKING_POLICY], modules: [] }), (v) =>
    policyOf(v.settings.get(BOOKING_POLICY)),
  );
}

/** What a booking is held to: the store's deduction mode and its booking policy. */
export interface BookingRules {
  deductionMode: 0 | 1;
  policy: BookingPolicy;
}

/** The rules from the stored values: the policy's setting text and the deduction-mode module's status. */
export const rulesOf = (policy: string | null | undefined, deductionMode: number | null | undefined): BookingRules => ({
  deductionMode: deductionModeOf(deductionMode ?? undefined),
  policy: policyOf(policy ?? undefined),
});

/** What a booking is held to: the store's deduction mode and its booking policy, in one read. */
export function bookingRules(db: Executor, storeId: number): Promise<BookingRules> {
  return sendRead(db, bookingRulesRead(db, storeId));
}

/** `bookingRules` as a read to send with others (a booking's first reads). */
export function bookingRulesRead(db: Executor, storeId: number): Read<BookingRules> {
  return mapRead(storeValuesRead(db, storeId, { settings: [BOOKING_POLICY], modules: [MODULE_DEDUCTION_MODE] }), (v) =>
    rulesOf(v.settings.get(BOOKING_POLICY), v.modules.get(MODULE_DEDUCTION_MODE)),
  );
}

/**
 * Every store ({id, timezone}), by id, with the text of its setting `keys.setting` and the status
 * of its module `keys.module` (null where it has none), in one statement.
 */
export function allStoresWith(ex: Executor, keys: { setting: string; module: number }) {
  return ex
    .selectFrom('store as s')
    .leftJoin('storeSetting as ss', (j) => j.onRef('ss.storeId', '=', 's.id').on('ss.key', '=', keys.setting))
    .leftJoin('storeModule as sm', (j) => j.onRef('sm.storeId', '=', 's.id').on('sm.moduleId', '=', keys.module))
    .select(['s.id', 's.timezone', 'ss.value as setting', 'sm.status as module'])
    .orderBy('s.id')
    .execute();
}
