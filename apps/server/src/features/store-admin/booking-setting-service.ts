import { audit, changedFields } from '../../lib/audit.ts';
import {
  DEDUCT_AT_BOOKING,
  DEDUCT_AT_SIGN_IN,
  MODULE_DEDUCTION_MODE,
  MODULE_ONLINE_DEFAULT,
  StoreAdminMsg,
} from '@studio/contract';
import type { Db, Executor } from '../../db/index.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { invalidateStoreScope } from '../../lib/store-scope.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { isValidTimeZone, localDateTime } from '../../lib/time.ts';
import { getModuleStatus, putModuleStatus } from '../reference/public.ts';
import { changeStore, countBookingsFrom, countWaitingPending, storeValues } from './repository.ts';
import { inOwnTx } from '../../lib/write-queue.ts';

export interface BookingSettingInput {
  deductionMode: 0 | 1;
  onlineDefault: 0 | 1;
  timezone: string;
  storeName: string;
  confirmPending?: 0 | 1;
}

/** The store's deduction mode (module 6) and online default (module 1), in one statement. */
async function moduleStatuses(ex: Executor, storeId: number) {
  const { modules } = await storeValues(ex, storeId, {
    settings: [],
    modules: [MODULE_DEDUCTION_MODE, MODULE_ONLINE_DEFAULT],
  });
  return {
    deductionMode: modules.get(MODULE_DEDUCTION_MODE) ?? DEDUCT_AT_BOOKING,
    onlineDefault: modules.get(MODULE_ONLINE_DEFAULT) ?? 0,
  };
}

/** The store's booking settings and how many pending items wait for sign-in. */
export async function loadBookingSetting(db: Db, storeId: number) {
  const store = await findStoreScope(db, storeId);
  if (!store) throw notFound('门店');
  return {
    ...(await moduleStatuses(db, storeId)),
    timezone: store.timezone,
    storeName: store.name,
    pendingWaiting: await countWaitingPending(db, storeId, localDateTime(store.timezone)),
  };
}

/**
 * What switching the deduction mode leaves as it is, for the switch's confirm: live bookings and
 * pendings waiting for sign-in of classes from the store's today on (store-local day). A switch
 * changes none of them: bookings were charged when made (marked 到店 at the door), pendings are
 * signed in (charged then) or cancelled.
 */
export async function deductionModeImpact(db: Db, store: StoreScope) {
  const fromDate = localDateTime(store.timezone).slice(0, 10);
  return { fromDate, ...(await countBookingsFrom(db, store.id, `${fromDate} 00:00:00`)) };
}

/**
 * Whether a new session is an online one when the caller does not say (module 1, 新课程默认在线教室):
 * 1 on-demand online room, 0 none.
 */
export async function onlineDefault(db: Executor, storeId: number): Promise<0 | 1> {
  return (await getModuleStatus(db, storeId, MODULE_ONLINE_DEFAULT)) === 1 ? 1 : 0;
}

/** The canonical IANA name of a time zone (`asia/shanghai` -> `Asia/Shanghai`), or 400. */
export function canonicalTimeZone(tz: string): string {
  if (!isValidTimeZone(tz)) throw badRequest(StoreAdminMsg.timezone);
  return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
}

/**
 * Saves the deduction mode (module 6), the online default (module 1), the store name and time zone.
 *
 * Switching from sign-in deduction (1) to booking deduction (0) while pending items wait for sign-in
 * on sessions not yet over is refused with 409 (the message gives the count), unless the caller
 * confirms with `confirmPending: 1`. Then those pending items are left exactly as they are: nothing
 * is deducted for them now; each can still be signed in (which deducts then) or cancelled (which
 * refunds nothing, as nothing was taken). New bookings deduct at once from now on. The answer says
 * how many were kept. A pending item added while the switch commits is in the same position as a
 * kept one. Switching 0 -> 1 changes nothing already booked (those were deducted at booking).
 *
 * A new time zone does not move existing sessions: their times are wall-clock text of the store.
 */
export async function saveBookingSetting(db: Db, storeId: number, input: BookingSettingInput) {
  const timezone = canonicalTimeZone(input.timezone);
  const result = await inOwnTx(db, async (tx) => {
    const store = await findStoreScope(tx, storeId);
    if (!store) throw notFound('门店');
    const { deductionMode: before, onlineDefault: onlineBefore } = await moduleStatuses(tx, storeId);
    let pendingKept = 0;
    if (before === DEDUCT_AT_SIGN_IN && input.deductionMode === DEDUCT_AT_BOOKING) {
      pendingKept = await countWaitingPending(tx, storeId, localDateTime(store.timezone));
      if (pendingKept > 0 && input.confirmPending !== 1) {
        throw conflict(StoreAdminMsg.pendingBlock(pendingKept), { pendingWaiting: pendingKept });
      }
    }
    const words = (x: { mode: number; online: number; name: string; timezone: string }) => ({
      mode: x.mode === DEDUCT_AT_SIGN_IN ? '签到后扣费' : '预约即扣费',
      online: x.online ? '在线教室' : '线下',
      name: x.name,
      timezone: x.timezone,
    });
    audit(tx, {
      kind: 'settings',
      summary: '修改预约设置',
      target: '预约设置',
      ...changedFields(
        words({ mode: before, online: onlineBefore, name: store.name, timezone: store.timezone }),
        words({ mode: input.deductionMode, online: input.onlineDefault, name: input.storeName, timezone }),
        { mode: '扣费方式', online: '新课程默认', name: '门店名称', timezone: '时区' },
      ),
    });
    await putModuleStatus(tx, storeId, MODULE_DEDUCTION_MODE, input.deductionMode);
    await putModuleStatus(tx, storeId, MODULE_ONLINE_DEFAULT, input.onlineDefault);
    await changeStore(tx, storeId, { name: input.storeName, timezone });
    return { pendingKept, notice: pendingKept > 0 ? StoreAdminMsg.pendingKept(pendingKept) : null };
  });
  invalidateStoreScope(db, storeId);
  return result;
}
