import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from '../shared/router.tsx';

/** A screen of the authenticated area: its path, lazy component and (optional) side-menu entry. */
export interface ScreenRoute {
  path: string;
  Component: LazyExoticComponent<ComponentType>;
  menu?: { label: string; key: string };
  /** The menu entry a screen without its own highlights (a detail or edit screen's list). */
  activeMenu?: string;
}

const CardList = lazy(() => import('../features/cards/card-page.tsx'));
const MemberList = lazy(() => import('../features/members/member-list-page.tsx'));
const MemberDetail = lazy(() => import('../features/members/member-detail-page.tsx'));
const CourseList = lazy(() => import('../features/courses/course-list-page.tsx'));
const CourseEdit = lazy(() => import('../features/courses/course-edit-page.tsx'));
const WeeklyTemplate = lazy(() => import('../features/weekly-template/weekly-template-page.tsx'));
const TeacherList = lazy(() => import('../features/teachers/teacher-page.tsx'));
const VenueList = lazy(() => import('../features/venues/venue-page.tsx'));
const MaterialList = lazy(() => import('../features/materials/material-page.tsx'));
const BookingSetting = lazy(() => import('../features/settings/booking-setting-page.tsx'));
const StoreSettings = lazy(() => import('../features/settings/store-settings-page.tsx'));
const Today = lazy(() => import('../features/today/today-page.tsx'));
const Reports = lazy(() => import('../features/reports/reports-page.tsx'));
const CardAlerts = lazy(() => import('../features/reports/card-alerts-page.tsx'));
const Schedule = lazy(() => import('../features/schedule/schedule-page.tsx'));

/** Every screen of the back office. Add a screen here: its route and (optionally) its menu entry. */
export const screens: ScreenRoute[] = [
  { path: '/today', Component: Today, menu: { label: '今日', key: '/today' } },
  { path: '/course/calendar', Component: Schedule, menu: { label: '课程表', key: '/course/calendar' } },
  { path: '/course/calendar/detail', Component: Schedule },
  { path: '/card/list', Component: CardList, menu: { label: '会员卡', key: '/card/list' } },
  { path: '/member/list', Component: MemberList, menu: { label: '会员', key: '/member/list' } },
  { path: '/member/detail', Component: MemberDetail, activeMenu: '/member/list' },
  { path: '/course/list', Component: CourseList, menu: { label: '课程', key: '/course/list' } },
  { path: '/course/edit/:id', Component: CourseEdit, activeMenu: '/course/list' },
  {
    path: '/course/fix_booking_timetable',
    Component: WeeklyTemplate,
    menu: { label: '周固定课表', key: '/course/fix_booking_timetable' },
  },
  { path: '/teacher/list', Component: TeacherList, menu: { label: '老师', key: '/teacher/list' } },
  { path: '/venue/list', Component: VenueList, menu: { label: '场地', key: '/venue/list' } },
  { path: '/material/list', Component: MaterialList, menu: { label: '教材', key: '/material/list' } },
  {
    path: '/course_setting/course_setting',
    Component: BookingSetting,
    menu: { label: '预约设置', key: '/course_setting/course_setting' },
  },
  { path: '/settings/store', Component: StoreSettings, menu: { label: '门店设置', key: '/settings/store' } },
  { path: '/report/overview', Component: Reports, menu: { label: '数据报表', key: '/report/overview' } },
  { path: '/card/alert', Component: CardAlerts, menu: { label: '会员提醒', key: '/card/alert' } },
];

export const menuEntries: { key: string; label: string }[] = screens
  .filter((s) => s.menu)
  .map((s) => ({ key: s.menu!.key, label: s.menu!.label }));

/** The menu entry a path belongs to (a detail route highlights its parent). */
export function menuKeyFor(pathname: string): string {
  const keys = screens.filter((s) => s.menu).map((s) => s.menu!.key);
  const own = keys.find((k) => pathname === k || pathname.startsWith(`${k}/`));
  return own ?? screens.find((s) => s.activeMenu && matchPath(s.path, pathname))?.activeMenu ?? '';
}
