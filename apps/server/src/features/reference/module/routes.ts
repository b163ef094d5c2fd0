import { moduleStatus, updateModuleStatus } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { moduleStatusOf, setModuleStatus } from './service.ts';

/** Store modules (1 online default, 6 deduction mode); the payload storeId is resolved by the app. */
export function registerModule(r: Registry): void {
  r.handle(moduleStatus, (input, ctx) => moduleStatusOf(ctx, input.moduleId));
  r.handle(updateModuleStatus, (input, ctx) => setModuleStatus(ctx, input.moduleId, input.status), { tx: true });
}
