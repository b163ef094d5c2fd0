import type { CallDef } from '../define.ts';
import { authCalls } from './auth.ts';
import { batchCalls } from './batch.ts';
import { calendarCalls } from './calendar.ts';
import { cardTransferCalls } from './card-transfer.ts';
import { cardShareCalls } from './card-share.ts';
import { lessonBookingCalls } from './lesson-booking.ts';
import { lessonMemberCalls } from './lesson-member.ts';
import { lessonSeriesCalls } from './lesson-series.ts';
import { cardLifeCalls } from './card-life.ts';
import { importExportCalls } from './import-export.ts';
import { lessonCalls } from './lessons.ts';
import { leadCalls } from './leads.ts';
import { marketingCalls } from './marketing.ts';
import { referralRewardCalls } from './referral-reward.ts';
import { memberChannelCalls } from './member-channel.ts';
import { onlineCalls } from './online.ts';
import { paymentCalls } from './payment.ts';
import { referenceCalls } from './reference/index.ts';
import { reminderCalls } from './reminders.ts';
import { sellerLinkCalls } from './seller-link.ts';
import { policyCalls } from './policy.ts';
import { prepaidLimitCalls } from './prepaid-limits.ts';
import { contractCalls } from './contracts.ts';
import { healthCalls } from './health.ts';
import { privacyCalls } from './privacy.ts';
import { reportCalls } from './reports.ts';
import { staffCalls } from './staff.ts';
import { storeAdminCalls } from './store-admin.ts';
import { teacherPayCalls } from './teacher-pay.ts';
import { timetableCalls } from './timetable.ts';
import { trialSignupCalls } from './trial-signup.ts';
import { todayCalls } from './today.ts';
import { waitlistCalls } from './waitlist.ts';

export * from './auth.ts';
export * from './batch.ts';
export * from './calendar.ts';
export * from './card-transfer.ts';
export * from './card-share.ts';
export * from './lesson-booking.ts';
export * from './lesson-member.ts';
export * from './lesson-series.ts';
export * from './card-life.ts';
export * from './import-export.ts';
export * from './lessons.ts';
export * from './leads.ts';
export * from './marketing.ts';
export * from './referral-reward.ts';
export * from './member-channel.ts';
export * from './online.ts';
export * from './payment.ts';
export * from './reference/index.ts';
export * from './reminders.ts';
export * from './seller-link.ts';
export * from './policy.ts';
export * from './prepaid-limits.ts';
export * from './contracts.ts';
export * from './health.ts';
export * from './privacy.ts';
export * from './reports.ts';
export * from './staff.ts';
export * from './store-admin.ts';
export * from './teacher-pay.ts';
export * from './timetable.ts';
export * from './trial-signup.ts';
export * from './today.ts';
export * from './waitlist.ts';

/** Every call of the product, in one list: the server's route table is built from it. */
export const allCalls: readonly CallDef[] = [
  ...authCalls,
  ...memberChannelCalls,
  ...marketingCalls,
  ...referenceCalls,
  ...lessonCalls,
  ...timetableCalls,
  ...batchCalls,
  ...onlineCalls,
  ...storeAdminCalls,
  ...reportCalls,
  ...todayCalls,
  ...policyCalls,
  ...waitlistCalls,
  ...staffCalls,
  ...calendarCalls,
  ...cardLifeCalls,
  ...paymentCalls,
  ...cardTransferCalls,
  ...cardShareCalls,
  ...lessonBookingCalls,
  ...lessonMemberCalls,
  ...lessonSeriesCalls,
  ...teacherPayCalls,
  ...importExportCalls,
  ...reminderCalls,
  ...sellerLinkCalls,
  ...prepaidLimitCalls,
  ...leadCalls,
  ...referralRewardCalls,
  ...privacyCalls,
  ...healthCalls,
  ...trialSignupCalls,
  ...contractCalls,
];
