// 在线收款's reads and writes: the store's WeChat Pay / Alipay accounts and top-up amounts.
import { queryPayConnection, queryPaySetting, updatePaySetting, type ReqOf } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Under the store settings' key: saving any store setting refetches it (`changes: 'storeSetting'`). */
const paySettingKey = keys.paySetting;

/** The store's payment setting: plain fields, and each secret only as set or not. */
export function usePaySetting() {
  return useQuery({ queryKey: paySettingKey, queryFn: () => call(queryPaySetting, {}) });
}

export type PaySettingFields = ReqOf<typeof updatePaySetting>;

export function useSavePaySetting() {
  return useWrite((s: PaySettingFields) => call(updatePaySetting, s), {
    success: '在线收款设置已保存',
    changes: 'storeSetting',
  });
}

/** 测试连接: the provider asked about a made-up order; the answer in words (never a toast of its own). */
export function useTestPayConnection(onError: (e: Error) => void) {
  return useWrite((provider: 'wechat' | 'alipay') => call(queryPayConnection, { provider }, { silent: true }), {
    onError,
  });
}
