// Reference data calls, one file per feature of the server's features/reference: areas (venues),
// teachers, courses, materials, members, cards, modules and the store setting.
import { areaCalls } from './area.ts';
import { cardCalls } from './card.ts';
import { courseCalls } from './course.ts';
import { materialCalls } from './material.ts';
import { memberCalls } from './member.ts';
import { moduleCalls } from './module.ts';
import { storeSettingCalls } from './store-setting.ts';
import { teacherCalls } from './teacher.ts';

export * from './area.ts';
export * from './card.ts';
export * from './course.ts';
export * from './material.ts';
export * from './member.ts';
export * from './module.ts';
export { RefMsg } from './shared.ts';
export * from './store-setting.ts';
export * from './teacher.ts';

export const referenceCalls = [
  ...memberCalls,
  ...cardCalls,
  ...teacherCalls,
  ...areaCalls,
  ...materialCalls,
  ...courseCalls,
  ...moduleCalls,
  ...storeSettingCalls,
] as const;
