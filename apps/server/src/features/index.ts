import { authFeature } from './auth/routes.ts';
import type { Feature } from '../lib/feature.ts';
import type { Events } from '../lib/events.ts';
import type { OutboxHandler } from '../outbox/index.ts';
import { auditFeature } from './audit/routes.ts';
import { batchFeature } from './batch/routes.ts';
import { calendarFeedFeature } from './calendar-feed/routes.ts';
import { cardsFeature } from './cards/routes.ts';
import { cardTransferFeature } from './cards/transfer/routes.ts';
import { cardShareFeature } from './cards/share/routes.ts';
import { cardLifeFeature } from './cards/life/routes.ts';
import { importExportFeature } from './import-export/routes.ts';
import { lessonsFeature } from './lessons/routes.ts';
import { lessonBookingFeature } from './lessons/booking-routes.ts';
import { memberLessonsFeature } from './lessons/member-routes.ts';
import { contractsFeature } from './contracts/routes.ts';
import { leadsFeature } from './leads/routes.ts';
import { marketingFeature } from './marketing/routes.ts';
import { marketingHandlers } from './marketing/public.ts';
import { memberChannelFeature } from './member-channel/routes.ts';
import { messagingFeature } from './messaging/routes.ts';
import { messagingHandlers } from './messaging/public.ts';
import { noShowFeature } from './no-show/routes.ts';
import { paymentFeature } from './payment/routes.ts';
import { onlineFeature } from './online/routes.ts';
import { policyFeature } from './policy/routes.ts';
import { privacyFeature } from './privacy/routes.ts';
import { meetingHandlers } from './online/public.ts';
import { referenceFeature } from './reference/routes.ts';
import { reminderHandlers } from './reminders/public.ts';
import { remindersFeature } from './reminders/routes.ts';
import { reportsFeature } from './reports/routes.ts';
import { staffFeature } from './staff/routes.ts';
import { storeAdminFeature } from './store-admin/routes.ts';
import { teacherPayFeature } from './teacher-pay/routes.ts';
import { timetableFeature } from './timetable/routes.ts';
import { todayFeature } from './today/routes.ts';
import { waitlistFeature } from './waitlist/routes.ts';

/** Every feature of the server; together they handle every call of the contract. */
export const features: Feature[] = [
  authFeature,
  referenceFeature,
  cardsFeature,
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
  privacyFeature,
  staffFeature,
  auditFeature,
  calendarFeedFeature,
  cardLifeFeature,
  paymentFeature,
  cardTransferFeature,
  cardShareFeature,
  teacherPayFeature,
  importExportFeature,
  remindersFeature,
  lessonsFeature,
  lessonBookingFeature,
  memberLessonsFeature,
  leadsFeature,
  contractsFeature,
  marketingFeature,
];

/**
 * Every outbox topic the app queues, with its handler (main.ts and the tests' workers use them);
 * what a handler announces goes to the app's listeners, `events`.
 */
export function outboxHandlers(events: Events): Record<string, OutboxHandler> {
  return { ...messagingHandlers, ...meetingHandlers(events), ...reminderHandlers, ...marketingHandlers };
}
