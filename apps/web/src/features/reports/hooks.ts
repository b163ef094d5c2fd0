// The reports screen's and the card alerts screen's reads (all read-only).
import {
  cardAlertList,
  inactiveMemberList,
  queryAlertDigest,
  updateAlertDigest,
  type AlertDigest,
  reportByCourse,
  reportByDay,
  reportBySlot,
  reportByTeacher,
  reportOverview,
  reportLessonOutstanding,
  reportLessonPacks,
  reportLessons,
  reportLessonUtilisation,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { useWrite } from '../../shared/use-write.ts';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';

export interface Range {
  fromDate: string;
  toDate: string;
}

/** Every report of a range, fetched side by side. */
export function useReports(r: Range) {
  const opts = { placeholderData: <T>(p: T | undefined) => p };
  return {
    overview: useQuery({ queryKey: keys.reports.of('overview', r), queryFn: () => call(reportOverview, r), ...opts }),
    byDay: useQuery({ queryKey: keys.reports.of('by-day', r), queryFn: () => call(reportByDay, r), ...opts }),
    byCourse: useQuery({ queryKey: keys.reports.of('by-course', r), queryFn: () => call(reportByCourse, r), ...opts }),
    byTeacher: useQuery({
      queryKey: keys.reports.of('by-teacher', r),
      queryFn: () => call(reportByTeacher, r),
      ...opts,
    }),
    bySlot: useQuery({ queryKey: keys.reports.of('by-slot', r), queryFn: () => call(reportBySlot, r), ...opts }),
  };
}

/**
 * 私教报表: the lesson reports of a range side by side, and the lessons still owed on packs at the
 * end of `owedDate` (absent: now).
 */
export function useLessonReports(r: Range, owedDate?: string) {
  const opts = { placeholderData: <T>(p: T | undefined) => p };
  return {
    byType: useQuery({ queryKey: keys.reports.of('lessons', r), queryFn: () => call(reportLessons, r), ...opts }),
    utilisation: useQuery({
      queryKey: keys.reports.of('lesson-utilisation', r),
      queryFn: () => call(reportLessonUtilisation, r),
      ...opts,
    }),
    packs: useQuery({
      queryKey: keys.reports.of('lesson-packs', r),
      queryFn: () => call(reportLessonPacks, r),
      ...opts,
    }),
    outstanding: useQuery({
      queryKey: keys.reports.of('lesson-outstanding', owedDate ? { date: owedDate } : {}),
      queryFn: () => call(reportLessonOutstanding, owedDate ? { date: owedDate } : {}),
      ...opts,
    }),
  };
}

export type AlertFilter = ReqOf<typeof cardAlertList>;

export function useCardAlerts(f: AlertFilter) {
  return useQuery({
    queryKey: keys.reports.of('card-alerts', f),
    queryFn: () => call(cardAlertList, f),
    placeholderData: (p) => p,
  });
}

/** Members not seen for `days` days (or never). */
export function useInactiveMembers(days: number) {
  return useQuery({
    queryKey: keys.reports.of('inactive-members', { days }),
    queryFn: () => call(inactiveMemberList, { days }),
    placeholderData: (p) => p,
  });
}

/** The daily digest's setting (sent to the store's WeCom robot). */
export function useAlertDigest() {
  return useQuery({ queryKey: keys.reports.of('digest', {}), queryFn: () => call(queryAlertDigest, {}) });
}

export function useSaveAlertDigest() {
  return useWrite((d: AlertDigest) => call(updateAlertDigest, d), { success: '保存成功', changes: 'alertDigest' });
}
