import { DEFAULT_POLICY, zBookingPolicy, type BookingPolicy } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';

const KEY = 'bookingPolicy';

/** The store's policy: the stored fields over the defaults (a store that never saved one gets the defaults). */
export async function loadPolicy(db: Executor, storeId: number): Promise<BookingPolicy> {
  const value = await getSetting(db, storeId, KEY);
  if (value === undefined) return DEFAULT_POLICY;
  try {
    const r = zBookingPolicy.partial().safeParse(JSON.parse(value));
    return r.success ? { ...DEFAULT_POLICY, ...r.data } : DEFAULT_POLICY;
  } catch {
    return DEFAULT_POLICY;
  }
}

/** Changes the given fields, keeping the others. */
export async function savePolicy(db: Executor, storeId: number, change: Partial<BookingPolicy>): Promise<void> {
  const next = { ...(await loadPolicy(db, storeId)), ...change };
  await putSetting(db, storeId, KEY, JSON.stringify(next));
}

/** Every store with its time zone and policy: what the policy jobs (no-shows, waits) walk over. */
export async function storePolicies(db: Executor) {
  const stores = await db.selectFrom('store').select(['id', 'timezone']).orderBy('id').execute();
  return Promise.all(stores.map(async (s) => ({ ...s, policy: await loadPolicy(db, s.id) })));
}
