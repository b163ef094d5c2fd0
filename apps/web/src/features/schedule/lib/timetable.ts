import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { queryTimetableByDate, type CalendarSession } from './calls.ts';

export type { CalendarSession };

export interface RangeFilter {
  fromDate: string;
  toDate: string;
  areaId?: number | null;
  teacherId?: number | null;
}

export const TIMETABLE_KEY = 'timetable';

/** The sessions of the visible range, cached per range and filters. */
export function useTimetableRange(f: RangeFilter | null) {
  return useQuery({
    queryKey: [TIMETABLE_KEY, f?.fromDate, f?.toDate, f?.areaId ?? null, f?.teacherId ?? null],
    queryFn: async (): Promise<CalendarSession[]> => {
      const days = await call(queryTimetableByDate, {
        fromDate: f!.fromDate,
        toDate: f!.toDate,
        areaId: f!.areaId ?? null,
        teacherId: f!.teacherId ?? null,
      });
      return days.flatMap((d) => d.list);
    },
    enabled: f !== null,
    placeholderData: (prev) => prev,
    staleTime: 30_000,
  });
}

/** After any write: refetch the calendar and every open session detail. */
export function useRefreshSchedule() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: [TIMETABLE_KEY] });
    void qc.invalidateQueries({ queryKey: ['session'] });
    void qc.invalidateQueries({ queryKey: ['member'] });
  };
}
