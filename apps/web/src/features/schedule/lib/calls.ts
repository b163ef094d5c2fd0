// The timetable calls the schedule screen makes, under the names the screen uses.
export {
  addGroupPending as addPending,
  addMemberReservation as addReservation,
  cancelPendingCall as cancelPending,
  cancelReservationCall as cancelReservation,
  cancelTimetable,
  exportTimetableReservation as exportSessionReservation,
  insertTimetable,
  queryPendingList as pendingList,
  queryReservationList as reservationList,
  queryTimetableByDate,
  queryTimetableHistory as historyList,
  queryTimetableInfo,
  signInPendingCall as signInPending,
  updateTimetable as updateTimetableCount,
  type BookingRow,
  type CalendarItem as CalendarSession,
  type HistoryRow,
  type PendingItem,
  type SessionInfo,
} from '@studio/contract';

/** A meeting's info as the online panel reads it (the contract passes it through as a record). */
export interface MeetingInfo {
  meetingType?: number | null;
  meetingCode?: string | null;
  joinUrl?: string | null;
  duration?: number | null;
  type?: number | null;
}

/** One export row (spec section 3: the nine columns). */
export interface ExportRowView {
  courseTime: string;
  teacher: string;
  member: string;
  card: string;
  usedCount: number;
  mobile: string;
  courseName: string;
  studentCount: number;
  remark: string | null;
}
