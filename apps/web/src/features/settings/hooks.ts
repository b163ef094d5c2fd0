// The settings screens' reads and writes.
import {
  addLogo,
  loadStoreFuncs,
  queryBookingSetting,
  queryDeductionModeImpact,
  queryWechatSetting,
  saveStoreFuncs,
  saveWechatSetting,
  updateBookingSetting,
  querySmsSetting,
  queryOnlineSetting,
  updateOnlineSetting,
  updateMemberPage,
  updateSmsSetting,
  type ReqOf,
} from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite, type WriteOptions } from '../../shared/use-write.ts';

export function useBookingSetting() {
  return useQuery({ queryKey: keys.bookingSetting, queryFn: () => call(queryBookingSetting, {}) });
}

export type BookingSettingFields = ReqOf<typeof updateBookingSetting>;

/**
 * Saves the booking setting; failures go to `onError`. `success` is the toast (none: the caller
 * says what was saved, as 预约设置 does for a mode switch).
 */
export function useSaveBookingSetting(
  onError: WriteOptions<[BookingSettingFields]>['onError'],
  success: string | null = '操作成功',
) {
  return useWrite((s: BookingSettingFields) => call(updateBookingSetting, s, { silent: true }), {
    success: success ?? undefined,
    changes: 'bookingSetting',
    onError,
  });
}

export type DeductionImpact = Awaited<ReturnType<typeof call<typeof queryDeductionModeImpact>>>;

/**
 * What a deduction-mode switch leaves as it is: bookings and pendings of classes from today on
 * (the server counts them). `enabled` while the page shows another mode than the saved one; `fresh`
 * asks again, for the switch's confirm.
 */
export function useDeductionImpact(enabled: boolean) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: keys.deductionImpact,
    queryFn: () => call(queryDeductionModeImpact, {}),
    enabled,
  });
  const fresh = () =>
    qc.fetchQuery({ queryKey: keys.deductionImpact, queryFn: () => call(queryDeductionModeImpact, {}), staleTime: 0 });
  return { data: enabled ? q.data : undefined, fresh };
}

export function useUploadLogo() {
  return useWrite((image: string) => call(addLogo, { image }), { success: 'Logo 上传成功', changes: 'storeSetting' });
}

/** The store's messaging setting (the WeCom webhook and any other keys). */
export function useMessagingSetting() {
  return useQuery({ queryKey: keys.messagingSetting, queryFn: () => call(queryWechatSetting, {}) });
}

export function useSaveMessagingSetting() {
  return useWrite((setting: Record<string, unknown>) => call(saveWechatSetting, setting), {
    success: '操作成功',
    changes: 'messagingSetting',
  });
}

export type StoreFunction = Record<string, unknown>;

export function useStoreFunctions() {
  return useQuery({ queryKey: keys.storeFunctions, queryFn: () => call(loadStoreFuncs, {}) });
}

export function useSaveStoreFunctions() {
  return useWrite((funcs: StoreFunction[]) => call(saveStoreFuncs, { funcs }), {
    success: '操作成功',
    changes: 'storeFunctions',
  });
}

/** Saves the address members reach the system at (the members' page QR code follows it). */
export function useSaveMemberPage() {
  return useWrite((publicBaseUrl: string) => call(updateMemberPage, { publicBaseUrl }), {
    success: '操作成功',
    changes: 'storeSetting',
  });
}

/** The store's SMS provider for members' login codes (the secret is never answered). */
export function useSmsSetting() {
  return useQuery({ queryKey: keys.smsSetting, queryFn: () => call(querySmsSetting, {}) });
}

export type SmsSettingFields = ReqOf<typeof updateSmsSetting>;

export function useSaveSmsSetting() {
  return useWrite((s: SmsSettingFields) => call(updateSmsSetting, s), { success: '操作成功', changes: 'storeSetting' });
}

/** The online classroom's meeting service (Jitsi address, default tool type, provider per type). */
export function useOnlineSetting() {
  return useQuery({ queryKey: keys.onlineSetting, queryFn: () => call(queryOnlineSetting, {}) });
}

export type OnlineSettingFields = ReqOf<typeof updateOnlineSetting>;

export function useSaveOnlineSetting() {
  return useWrite((s: OnlineSettingFields) => call(updateOnlineSetting, s), {
    success: '操作成功',
    changes: 'storeSetting',
  });
}
