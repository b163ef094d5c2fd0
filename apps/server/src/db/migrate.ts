import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import type { Dialect } from './index.ts';
import { init } from './migrations/20261121_0001_init.ts';
import { timetableEngine } from './migrations/20261121_0200_timetable_engine.ts';
import { onlineOutbox } from './migrations/20261121_0500_online_outbox.ts';
import { versionOncePerTx } from './migrations/20261122_0201_version_once_per_tx.ts';
import { sessionRowVersions } from './migrations/20261123_0202_session_row_versions.ts';
import { loginCounter } from './migrations/20261123_0600_login_counter.ts';
import { cardPayment } from './migrations/20261124_1100_card_payment.ts';
import { cardSales } from './migrations/20261124_1150_card_sales.ts';
import { waitlist } from './migrations/20261124_1300_waitlist.ts';
import { noShow } from './migrations/20261124_1400_no_show.ts';
import { memberChannel } from './migrations/20261125_0900_member_channel.ts';
import { lateCancelWaiver } from './migrations/20261125_1500_late_cancel_waiver.ts';
import { staffRolesAudit } from './migrations/20261125_1800_staff_roles_audit.ts';
import { appSecret } from './migrations/20261127_0100_app_secret.ts';
import { cardOpenBookings } from './migrations/20261127_0200_card_open_bookings.ts';
import { courseForChildren } from './migrations/20261128_1200_course_for_children.ts';
import { onlinePayment } from './migrations/20261129_0100_online_payment.ts';
import { calendarFeed } from './migrations/20261129_0200_calendar_feed.ts';
import { deskPayOrder } from './migrations/20261129_0300_desk_pay_order.ts';
import { payRefund } from './migrations/20261129_0400_pay_refund.ts';
import { cardLife } from './migrations/20261129_0850_card_life.ts';
import { teacherPay } from './migrations/20261129_0860_teacher_pay.ts';
import { payReconcile } from './migrations/20261129_0800_pay_reconcile.ts';
import { reminders } from './migrations/20261129_0900_reminders.ts';
import { sellerLink } from './migrations/20261129_1000_seller_link.ts';
import { cardShare } from './migrations/20261129_1200_card_share.ts';
import { jobProgress } from './migrations/20261129_1300_job_progress.ts';
import { notifyRetry } from './migrations/20261129_1400_notify_retry.ts';
import { payOrderException } from './migrations/20261206_2010_pay_order_exception.ts';
import { refundQueries } from './migrations/20261206_2020_refund_queries.ts';
import { saleSeller } from './migrations/20261206_2050_sale_seller.ts';
import { wechatOauthState } from './migrations/20261206_2070_wechat_oauth_state.ts';
import { lateSaleStartsToday } from './migrations/20261206_2080_late_sale_starts_today.ts';
import { privateLessons } from './migrations/20261207_0100_private_lessons.ts';
import { leads } from './migrations/20261207_1500_leads.ts';
import { memberPrivacy } from './migrations/20261209_0100_member_privacy.ts';
import { leadFunnel } from './migrations/20261209_500_lead_funnel.ts';
import { leadReferrer } from './migrations/20261209_600_lead_referrer.ts';
import { lessonPayRules } from './migrations/20261210_100_lesson_pay_rules.ts';
import { health } from './migrations/20261210_400_health.ts';
import { trials } from './migrations/20261210_500_trials.ts';
import { referralReward } from './migrations/20261210_600_referral_reward.ts';
import { contracts } from './migrations/20261211_100_contracts.ts';
import { contractSigning } from './migrations/20261212_100_contract_signing.ts';
import { marketingConsent } from './migrations/20261211_800_marketing_consent.ts';
import { leadConsentImport } from './migrations/20261212_500_lead_consent_import.ts';
import { marketingSend } from './migrations/20261212_500_marketing_send.ts';
import { paidTrials } from './migrations/20261213_700_paid_trials.ts';

/** Timestamped migrations, in order. Never edit one that has landed: add a new one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '20261121_0001_init': init(dialect),
    '20261121_0200_timetable_engine': timetableEngine(dialect),
    '20261121_0500_online_outbox': onlineOutbox(dialect),
    '20261122_0201_version_once_per_tx': versionOncePerTx(dialect),
    '20261123_0202_session_row_versions': sessionRowVersions(dialect),
    '20261123_0600_login_counter': loginCounter(dialect),
    '20261124_1100_card_payment': cardPayment(dialect),
    '20261124_1150_card_sales': cardSales(dialect),
    '20261124_1300_waitlist': waitlist(dialect),
    '20261124_1400_no_show': noShow(dialect),
    '20261125_0900_member_channel': memberChannel(dialect),
    '20261125_1500_late_cancel_waiver': lateCancelWaiver(),
    '20261125_1800_staff_roles_audit': staffRolesAudit(dialect),
    '20261127_0100_app_secret': appSecret(),
    '20261127_0200_card_open_bookings': cardOpenBookings(),
    '20261128_1200_course_for_children': courseForChildren(),
    '20261129_0100_online_payment': onlinePayment(dialect),
    '20261129_0200_calendar_feed': calendarFeed(dialect),
    '20261129_0300_desk_pay_order': deskPayOrder(dialect),
    '20261129_0400_pay_refund': payRefund(dialect),
    '20261129_0850_card_life': cardLife(dialect),
    '20261129_0860_teacher_pay': teacherPay(dialect),
    '20261129_0800_pay_reconcile': payReconcile(dialect),
    '20261129_0900_reminders': reminders(dialect),
    '20261129_1000_seller_link': sellerLink(dialect),
    '20261129_1200_card_share': cardShare(dialect),
    '20261129_1300_job_progress': jobProgress(),
    '20261129_1400_notify_retry': notifyRetry(),
    '20261206_2010_pay_order_exception': payOrderException(dialect),
    '20261206_2020_refund_queries': refundQueries(),
    '20261206_2050_sale_seller': saleSeller(dialect),
    '20261206_2070_wechat_oauth_state': wechatOauthState(dialect),
    '20261206_2080_late_sale_starts_today': lateSaleStartsToday(),
    '20261207_0100_private_lessons': privateLessons(dialect),
    '20261207_1500_leads': leads(dialect),
    '20261209_0100_member_privacy': memberPrivacy(dialect),
    '20261209_500_lead_funnel': leadFunnel(),
    '20261209_600_lead_referrer': leadReferrer(),
    '20261210_100_lesson_pay_rules': lessonPayRules(),
    '20261210_400_health': health(dialect),
    '20261210_500_trials': trials(dialect),
    '20261210_600_referral_reward': referralReward(dialect),
    '20261211_100_contracts': contracts(dialect),
    '20261211_800_marketing_consent': marketingConsent(dialect),
    '20261212_100_contract_signing': contractSigning(dialect),
    '20261212_500_lead_consent_import': leadConsentImport(dialect),
    '20261212_500_marketing_send': marketingSend(dialect),
    '20261213_700_paid_trials': paidTrials(dialect),
  };
}

/**
 * The migrator of this code's migrations. On PostgreSQL its tables are the connection's own schema's
 * (the first of its search_path): the dialect's introspector looks nowhere else (pg-introspector.ts).
 */
const migratorOf = (db: Kysely<Database>, dialect: Dialect): Migrator =>
  new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });

/** Brings the schema up to date; throws on failure. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const { error, results } = await migratorOf(db, dialect).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败: ${failed?.migrationName ?? ''} ${String(error)}`);
  }
}

/** Names of the migrations this code knows that the database has not run yet (readiness, ops/health.ts). */
export async function pendingMigrations(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const all = await migratorOf(db, dialect).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
