import { storeSetting } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { storeSettingOf } from './service.ts';

/** The store setting the timetable picture needs. */
export function registerStoreSetting(r: Registry): void {
  r.handle(storeSetting, (_input, ctx) => storeSettingOf(ctx));
}
