import {
  cardAlertList,
  cardProductList,
  importMembers,
  insertArea,
  insertLessonType,
  insertMaterial,
  insertTeacher,
  memberInfo,
  memberList,
  queryAuditLog,
  queryErasureRequestList,
  queryPayOrderList,
  queryContractTemplate,
  queryPaySetting,
  queryFixTimetableList,
  queryLeadFunnel,
  queryReferralRewardList,
  sendMarketing,
  queryLeadList,
  queryNotifyLog,
  queryNotifySetting,
  queryStaffList,
  queryTeacherPayStatement,
  querySmsSetting,
  queryTimetableByDate,
  queryToday,
  reportOverview,
  reportLessons,
  storeCourseById,
  storeCourseList,
  teacherHoursInfo,
  updateBookingSetting,
  type StaffRole,
} from '@studio/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from '../shared/router.tsx';

/** A screen of the authenticated area: its path, lazy component and (optional) side-menu entry. */
export interface ScreenRoute {
  path: string;
  Component: LazyExoticComponent<ComponentType>;
  /**
   * Who may open it: the roles of the call the screen cannot do without (the contract's `roles`), so
   * a screen and the server agree. Others get a refusal in its place and no menu entry.
   */
  roles: readonly StaffRole[];
  menu?: { label: string; key: string };
  /** The screen's name (its first-level heading, for screen readers), when not its menu label. */
  title?: string;
  /** The menu entry a screen without its own highlights (a detail or edit screen's list). */
  activeMenu?: string;
}

const CardList = lazy(() => import('../features/cards/card-page.tsx'));
const MemberList = lazy(() => import('../features/members/member-list-page.tsx'));
const MemberDetail = lazy(() => import('../features/members/member-detail-page.tsx'));
const MemberImport = lazy(() => import('../features/import/import-page.tsx'));
const MemberErasure = lazy(() => import('../features/members/member-erasure-page.tsx'));
const CourseList = lazy(() => import('../features/courses/course-list-page.tsx'));
const CourseEdit = lazy(() => import('../features/courses/course-edit-page.tsx'));
const WeeklyTemplate = lazy(() => import('../features/weekly-template/weekly-template-page.tsx'));
const TeacherList = lazy(() => import('../features/teachers/teacher-page.tsx'));
const VenueList = lazy(() => import('../features/venues/venue-page.tsx'));
const MaterialList = lazy(() => import('../features/materials/material-page.tsx'));
const BookingSetting = lazy(() => import('../features/settings/booking-setting-page.tsx'));
const StoreSettings = lazy(() => import('../features/settings/store-settings-page.tsx'));
const PaySettings = lazy(() => import('../features/payment/pay-settings-page.tsx'));
const ContractTemplate = lazy(() => import('../features/settings/contract-template-page.tsx'));
const NotifySettings = lazy(() => import('../features/notify/notify-settings-page.tsx'));
const NotifyLog = lazy(() => import('../features/notify/notify-log-page.tsx'));
const PayOrders = lazy(() => import('../features/payment/pay-orders-page.tsx'));
const Today = lazy(() => import('../features/today/today-page.tsx'));
const Reports = lazy(() => import('../features/reports/reports-page.tsx'));
const LessonReports = lazy(() => import('../features/reports/lesson-reports-page.tsx'));
const CardAlerts = lazy(() => import('../features/reports/card-alerts-page.tsx'));
const Schedule = lazy(() => import('../features/schedule/schedule-page.tsx'));
const StaffList = lazy(() => import('../features/staff/staff-page.tsx'));
const TeacherPay = lazy(() => import('../features/teacher-pay/teacher-pay-page.tsx'));
const Leads = lazy(() => import('../features/leads/leads-page.tsx'));
const LeadFunnel = lazy(() => import('../features/leads/funnel-page.tsx'));
const LeadReferral = lazy(() => import('../features/leads/referral-page.tsx'));
const LeadMarketing = lazy(() => import('../features/leads/marketing-page.tsx'));
const AuditLog = lazy(() => import('../features/audit/audit-log-page.tsx'));
const Lessons = lazy(() => import('../features/lessons/lesson-page.tsx'));
const TeacherHours = lazy(() => import('../features/lessons/teacher-hours-page.tsx'));

/** Every screen of the back office. Add a screen here: its route, who may open it and (optionally) its menu entry. */
export const screens: ScreenRoute[] = [
  { path: '/today', Component: Today, roles: queryToday.roles!, menu: { label: '今日', key: '/today' } },
  {
    path: '/course/calendar',
    Component: Schedule,
    roles: queryTimetableByDate.roles!,
    menu: { label: '课程表', key: '/course/calendar' },
  },
  { path: '/course/calendar/detail', Component: Schedule, roles: queryTimetableByDate.roles!, title: '课程表' },
  {
    path: '/card/list',
    Component: CardList,
    roles: cardProductList.roles!,
    menu: { label: '会员卡', key: '/card/list' },
  },
  {
    path: '/member/list',
    Component: MemberList,
    roles: memberList.roles!,
    menu: { label: '会员', key: '/member/list' },
  },
  // 会员 → 导入 (店长): moving a studio in, and 导出全部数据 (moving out).
  {
    path: '/member/import',
    Component: MemberImport,
    roles: importMembers.roles!,
    menu: { label: '会员导入', key: '/member/import' },
  },
  // 会员 → 删除申请 (店长): members' requests to delete their account (个人信息).
  {
    path: '/member/erasure',
    Component: MemberErasure,
    roles: queryErasureRequestList.roles!,
    menu: { label: '删除申请', key: '/member/erasure' },
  },
  {
    path: '/member/detail',
    Component: MemberDetail,
    roles: memberInfo.roles!,
    activeMenu: '/member/list',
    title: '会员详情',
  },
  // 潜客 (issue 44): leads, 我的待跟进, 公海, 潜客设置; 转化漏斗 for the manager.
  { path: '/lead/list', Component: Leads, roles: queryLeadList.roles!, menu: { label: '潜客', key: '/lead/list' } },
  {
    path: '/lead/funnel',
    Component: LeadFunnel,
    roles: queryLeadFunnel.roles!,
    menu: { label: '转化漏斗', key: '/lead/funnel' },
  },
  {
    path: '/lead/referral',
    Component: LeadReferral,
    roles: queryReferralRewardList.roles!,
    menu: { label: '转介绍奖励', key: '/lead/referral' },
  },
  {
    path: '/lead/marketing',
    Component: LeadMarketing,
    roles: sendMarketing.roles!,
    menu: { label: '营销短信', key: '/lead/marketing' },
  },
  {
    path: '/course/list',
    Component: CourseList,
    roles: storeCourseList.roles!,
    menu: { label: '课程', key: '/course/list' },
  },
  {
    path: '/course/edit/:id',
    Component: CourseEdit,
    roles: storeCourseById.roles!,
    activeMenu: '/course/list',
    title: '编辑课程',
  },
  // 课程 → 私教/小班 (issue 43, 店长): lesson types, the machines they need, the booking setting.
  {
    path: '/lesson/list',
    Component: Lessons,
    roles: insertLessonType.roles!,
    menu: { label: '私教/小班', key: '/lesson/list' },
  },
  {
    path: '/course/fix_booking_timetable',
    Component: WeeklyTemplate,
    roles: queryFixTimetableList.roles!,
    menu: { label: '周固定课表', key: '/course/fix_booking_timetable' },
  },
  // The reference screens are for keeping the lists: who may change them (teachers only read them).
  {
    path: '/teacher/list',
    Component: TeacherList,
    roles: insertTeacher.roles!,
    menu: { label: '老师', key: '/teacher/list' },
  },
  // 老师 → 工作时间 (issue 43): a manager or the desk sets any teacher's, a teacher account its own.
  {
    path: '/teacher/hours',
    Component: TeacherHours,
    roles: teacherHoursInfo.roles!,
    menu: { label: '工作时间', key: '/teacher/hours' },
  },
  { path: '/venue/list', Component: VenueList, roles: insertArea.roles!, menu: { label: '场地', key: '/venue/list' } },
  {
    path: '/material/list',
    Component: MaterialList,
    roles: insertMaterial.roles!,
    menu: { label: '教材', key: '/material/list' },
  },
  {
    path: '/course_setting/course_setting',
    Component: BookingSetting,
    roles: updateBookingSetting.roles!,
    menu: { label: '预约设置', key: '/course_setting/course_setting' },
  },
  {
    path: '/settings/store',
    Component: StoreSettings,
    roles: querySmsSetting.roles!,
    menu: { label: '门店设置', key: '/settings/store' },
  },
  // 门店设置 → 消息提醒 (店长) and 消息记录 (店长、前台): reminders to members by WeChat and SMS.
  {
    path: '/settings/notify',
    Component: NotifySettings,
    roles: queryNotifySetting.roles!,
    menu: { label: '消息提醒', key: '/settings/notify' },
  },
  {
    path: '/notify/log',
    Component: NotifyLog,
    roles: queryNotifyLog.roles!,
    menu: { label: '消息记录', key: '/notify/log' },
  },
  {
    path: '/settings/pay',
    Component: PaySettings,
    roles: queryPaySetting.roles!,
    menu: { label: '在线收款', key: '/settings/pay' },
  },
  // 合同模板 (店长, issue 45): the contract each card sale produces, versioned.
  {
    path: '/settings/contract',
    Component: ContractTemplate,
    roles: queryContractTemplate.roles!,
    menu: { label: '合同模板', key: '/settings/contract' },
  },
  {
    path: '/pay/orders',
    Component: PayOrders,
    roles: queryPayOrderList.roles!,
    menu: { label: '线上订单', key: '/pay/orders' },
  },
  {
    path: '/report/overview',
    Component: Reports,
    roles: reportOverview.roles!,
    menu: { label: '数据报表', key: '/report/overview' },
  },
  // 私教报表 (issue 43): lessons by type and teacher, 排课率, lesson packs, 预收款.
  {
    path: '/report/lessons',
    Component: LessonReports,
    roles: reportLessons.roles!,
    menu: { label: '私教报表', key: '/report/lessons' },
  },
  {
    path: '/card/alert',
    Component: CardAlerts,
    roles: cardAlertList.roles!,
    menu: { label: '会员提醒', key: '/card/alert' },
  },
  {
    path: '/staff/list',
    Component: StaffList,
    roles: queryStaffList.roles!,
    menu: { label: '员工', key: '/staff/list' },
  },
  // 员工 → 课时费 (and 销售提成 for a manager); a teacher account opens its own statement here.
  {
    path: '/staff/pay',
    Component: TeacherPay,
    roles: queryTeacherPayStatement.roles!,
    menu: { label: '课时费', key: '/staff/pay' },
  },
  {
    path: '/audit/log',
    Component: AuditLog,
    roles: queryAuditLog.roles!,
    menu: { label: '操作日志', key: '/audit/log' },
  },
];

/** The side menu of a role: the screens it may open. */
export function menuEntriesFor(role: StaffRole): { key: string; label: string }[] {
  return screens
    .filter((s) => s.menu && s.roles.includes(role))
    .map((s) => ({ key: s.menu!.key, label: s.menu!.label }));
}

/** The menu entry a path belongs to (a detail route highlights its parent). */
export function menuKeyFor(pathname: string): string {
  const keys = screens.filter((s) => s.menu).map((s) => s.menu!.key);
  const own = keys.find((k) => pathname === k || pathname.startsWith(`${k}/`));
  return own ?? screens.find((s) => s.activeMenu && matchPath(s.path, pathname))?.activeMenu ?? '';
}

/** The name of the screen at a path (its `<h1>`). */
export function screenTitle(pathname: string): string {
  const screen = screens.find((s) => matchPath(s.path, pathname));
  return screen?.title ?? screen?.menu?.label ?? '';
}
