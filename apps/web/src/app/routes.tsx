import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { MenuProps } from 'antd';

/** A screen of the authenticated area: its path, lazy component and (optional) side-menu entry. */
export interface ScreenRoute {
  path: string;
  Component: LazyExoticComponent<ComponentType>;
  menu?: { label: string; key: string };
}

const Placeholder = lazy(() => import('../features/placeholder/placeholder-page.tsx'));
const Schedule = lazy(() => import('../features/schedule/schedule-page.tsx'));

/** Every screen of the back office. Add a screen here: its route and (optionally) its menu entry. */
export const screens: ScreenRoute[] = [
  { path: '/course/calendar', Component: Schedule, menu: { label: '课程表', key: '/course/calendar' } },
  { path: '/course/calendar/detail', Component: Schedule },
  { path: '/card/list', Component: Placeholder, menu: { label: '会员卡', key: '/card/list' } },
  { path: '/course/list', Component: Placeholder, menu: { label: '课程', key: '/course/list' } },
  { path: '/course/edit/:id', Component: Placeholder },
  {
    path: '/course/fix_booking_timetable',
    Component: Placeholder,
    menu: { label: '周固定课表', key: '/course/fix_booking_timetable' },
  },
  {
    path: '/course_setting/course_setting',
    Component: Placeholder,
    menu: { label: '预约设置', key: '/course_setting/course_setting' },
  },
  { path: '/member/detail', Component: Placeholder },
];

export const menuItems: MenuProps['items'] = screens
  .filter((s) => s.menu)
  .map((s) => ({ key: s.menu!.key, label: s.menu!.label }));

/** The menu entry a path belongs to (a detail route highlights its parent). */
export function menuKeyFor(pathname: string): string {
  const keys = screens.filter((s) => s.menu).map((s) => s.menu!.key);
  return keys.find((k) => pathname === k || pathname.startsWith(`${k}/`)) ?? '';
}
