// The calendar's reads (in the first load: keep it small).
import { queryTimetableByDate, type CalendarItem } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { keys } from '../../../shared/query-keys.ts';

/** A session as the calendar shows it. */
export type CalendarSession = CalendarItem;

export interface RangeFilter {
  fromDate: string;
  toDate: string;
  venueId?: number | null;
  teacherId?: number | null;
}

export async function sessionsBetween(f: RangeFilter): Promise<CalendarSession[]> {
  const days = await call(queryTimetableByDate, {
    fromDate: f.fromDate,
    toDate: f.toDate,
    areaId: f.venueId ?? null,
    teacherId: f.teacherId ?? null,
  });
  return days.flatMap((d) => d.list);
}

/** The sessions of the visible range, cached per range and filters. */
export function useCalendarSessions(f: RangeFilter | null) {
  return useQuery({
    queryKey: keys.calendar.range(f?.fromDate ?? '', f?.toDate ?? '', f?.venueId ?? null, f?.teacherId ?? null),
    queryFn: () => sessionsBetween(f!),
    enabled: f !== null,
    placeholderData: (prev) => prev,
    staleTime: 30_000,
  });
}

/** Every session of one week (Monday to Sunday), unfiltered. */
export function useWeekSessions(monday: string, sunday: string) {
  return useQuery({
    queryKey: keys.calendar.week(monday),
    queryFn: () => sessionsBetween({ fromDate: monday, toDate: sunday }),
  });
}
