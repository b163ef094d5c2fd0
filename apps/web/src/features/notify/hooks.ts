// 消息提醒 and 消息记录: the reminders' setting, 发送测试, the send log.
import {
  queryNotifyLog,
  queryNotifySetting,
  sendNotifyTest,
  updateNotifySetting,
  type NotifyKind,
  type NotifyStatus,
  type ReqOf,
} from '@studio/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Under the store settings' key: a settings write refetches it. */
const settingKey = [...keys.storeSetting.all, 'notify'];

export function useNotifySetting() {
  return useQuery({ queryKey: settingKey, queryFn: () => call(queryNotifySetting, {}) });
}

export function useSaveNotifySetting() {
  return useWrite((s: ReqOf<typeof updateNotifySetting>) => call(updateNotifySetting, s), {
    success: '操作成功',
    changes: 'storeSetting',
  });
}

export function useSendNotifyTest() {
  return useWrite((s: ReqOf<typeof sendNotifyTest>) => call(sendNotifyTest, s));
}

export interface LogQuery {
  fromDate: string;
  toDate: string;
  kind?: NotifyKind;
  status?: NotifyStatus;
  memberId?: number;
  page: number;
}

export function useNotifyLog(q: LogQuery) {
  return useQuery({
    queryKey: ['notify-log', q],
    queryFn: () => call(queryNotifyLog, q),
    placeholderData: keepPreviousData,
  });
}
