import type { Executor } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import { event, type Events } from '../../lib/events.ts';
import { messagingSettingSaved } from './events.ts';
import { getSetting, putSetting } from './repository.ts';

const WECHAT_KEY = 'wechat';
const FUNCS_KEY = 'funcs';

/** The function list a store starts with, until it saves its own. */
export const DEFAULT_STORE_FUNCS = [
  { key: 'group-booking', name: '团课预约', enabled: 1 },
  { key: 'online-classroom', name: '在线教室', enabled: 1 },
  { key: 'timetable-picture', name: '周课表图片', enabled: 1 },
  { key: 'reservation-export', name: '预约导出', enabled: 1 },
  { key: 'notification', name: '消息通知', enabled: 0 },
];

/** Stores the messaging setting as given (already validated by the contract). */
export async function saveWechatSetting(
  db: Executor,
  events: Events,
  storeId: number,
  setting: Record<string, unknown>,
) {
  await putSetting(db, storeId, WECHAT_KEY, JSON.stringify(setting));
  audit(db, { kind: 'settings', target: '企业微信设置' });
  await events.emit(db, event(messagingSettingSaved, { storeId }));
}

/** The stored messaging setting, exactly as saved, or null. */
export async function loadWechatSetting(db: Executor, storeId: number): Promise<Record<string, unknown> | null> {
  const text = await getSetting(db, storeId, WECHAT_KEY);
  return text === undefined ? null : (JSON.parse(text) as Record<string, unknown>);
}

/** Stores the function list as given. */
export async function saveStoreFuncs(db: Executor, storeId: number, funcs: Record<string, unknown>[]) {
  await putSetting(db, storeId, FUNCS_KEY, JSON.stringify(funcs));
  audit(db, { kind: 'settings', target: '门店功能' });
}

/** The saved function list, or the default one. */
export async function loadStoreFuncs(db: Executor, storeId: number): Promise<Record<string, unknown>[]> {
  const text = await getSetting(db, storeId, FUNCS_KEY);
  return text === undefined
    ? DEFAULT_STORE_FUNCS.map((f) => ({ ...f }))
    : (JSON.parse(text) as Record<string, unknown>[]);
}
