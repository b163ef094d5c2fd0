// Types shared by the schedule page and the parts it loads on demand (so that no modal imports
// the page that lazy-loads it).
export type { BookingRow, HistoryRow, PendingItem, SessionInfo } from '@studio/contract';
export type { CalendarSession } from './hooks/calendar.ts';

/** The toolbar's modals. */
export type ToolModal =
  'add' | 'week' | 'copy' | 'batch' | 'dropIn' | 'batchDelete' | 'export' | 'picture' | 'lesson' | 'lessonSeries';

/** What the page hands every toolbar modal. */
export interface ToolModalProps {
  onClose: () => void;
  /** The dates the calendar shows (`YYYY-MM-DD`, inclusive), once it has shown some: the export starts from them. */
  shown?: { fromDate: string; toDate: string } | null;
  /** 约私教 from the teacher view: the teacher and day (`YYYY-MM-DD`) of the column clicked. */
  prefill?: { teacherId?: number; date?: string };
}

/** A meeting's info as the online panel reads it (the contract passes it through as a record). */
export interface MeetingInfo {
  meetingType?: number | null;
  meetingCode?: string | null;
  joinUrl?: string | null;
  duration?: number | null;
  type?: number | null;
}
