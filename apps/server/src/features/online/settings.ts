import { zOnlineSetting, type OnlineSetting } from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import type { Executor } from '../../db/index.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';

const ONLINE_KEY = 'online';

/**
 * The store's meeting settings (store_setting 'online'), with defaults: no Jitsi base URL, every
 * dynamic type served by Jitsi, default type 4. Provider names are taken as stored (a provider
 * registered in code, e.g. by a test, may be named); an unreadable value counts as unset.
 */
export async function loadOnlineSetting(db: Executor, storeId: number): Promise<OnlineSetting> {
  const text = await getSetting(db, storeId, ONLINE_KEY);
  const defaults = zOnlineSetting.parse({});
  if (text === undefined) return defaults;
  try {
    const raw = JSON.parse(text) as Partial<OnlineSetting>;
    return {
      jitsiBaseUrl: typeof raw.jitsiBaseUrl === 'string' ? raw.jitsiBaseUrl : null,
      providers: raw.providers && typeof raw.providers === 'object' ? raw.providers : {},
      defaultType: raw.defaultType ?? defaults.defaultType,
    };
  } catch {
    return defaults;
  }
}

/** Stores the meeting settings (already validated by the contract). */
export async function saveOnlineSetting(db: Executor, storeId: number, setting: OnlineSetting): Promise<void> {
  await putSetting(db, storeId, ONLINE_KEY, JSON.stringify(setting));
  audit(db, { kind: 'settings', target: '在线教室设置' });
}
