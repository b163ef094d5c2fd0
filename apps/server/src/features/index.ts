import { authFeature } from '../auth/routes.ts';
import type { Feature } from '../lib/feature.ts';
import { batchFeature } from './batch/index.ts';
import { onlineFeature } from './online/index.ts';
import { referenceFeature } from './reference/index.ts';
import { storeAdminFeature } from './store-admin/index.ts';
import { timetableFeature } from './timetable/index.ts';

/** Every feature of the server; together they handle every call of the contract. */
export const features: Feature[] = [
  authFeature,
  referenceFeature,
  timetableFeature,
  batchFeature,
  onlineFeature,
  storeAdminFeature,
];
