import { authFeature } from '../auth/routes.ts';
import type { Feature } from '../lib/feature.ts';
import type { OutboxHandler } from '../outbox/index.ts';
import { auditFeature } from './audit/index.ts';
import { batchFeature } from './batch/index.ts';
import { memberChannelFeature, smsHandlers } from './member-channel/index.ts';
import { messagingFeature } from './messaging/index.ts';
import { messagingHandlers } from './messaging/public.ts';
import { noShowFeature } from './no-show/index.ts';
import { onlineFeature } from './online/index.ts';
import { policyFeature } from './policy/index.ts';
import { meetingHandlers } from './online/public.ts';
import { referenceFeature } from './reference/index.ts';
import { reportsFeature } from './reports/index.ts';
import { staffFeature } from './staff/index.ts';
import { storeAdminFeature } from './store-admin/index.ts';
import { timetableFeature } from './timetable/index.ts';
import { todayFeature } from './today/index.ts';
import { waitlistFeature } from './waitlist/index.ts';

/** Every feature of the server; together they handle every call of the contract. */
export const features: Feature[] = [
  authFeature,
  referenceFeature,
  timetableFeature,
  batchFeature,
  onlineFeature,
  messagingFeature,
  storeAdminFeature,
  reportsFeature,
  todayFeature,
  policyFeature,
  waitlistFeature,
  noShowFeature,
  memberChannelFeature,
  staffFeature,
  auditFeature,
];

/** Every outbox topic the app queues, with its handler (main.ts and the tests' workers use them). */
export function outboxHandlers(): Record<string, OutboxHandler> {
  return { ...messagingHandlers, ...meetingHandlers, ...smsHandlers };
}
