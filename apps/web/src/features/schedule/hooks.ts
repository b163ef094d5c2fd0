// The schedule screen's reads and writes. Names speak the domain (session, booking, venue,
// material); the payloads keep the spec's wire names (timetable, tid, mcId, areaId, bookId).
import {
  addGroupPending,
  addMemberReservation,
  batchAddMemberReservation,
  batchArrangeCourse,
  batchArrangeWeekCourse,
  batchCancelTimetable,
  batchExportReservation,
  cancelPendingCall,
  cancelReservationCall,
  cancelTimetable,
  cancelTimetableOnline,
  copyTimetable,
  createTimetableMeeting,
  exportTimetableReservation,
  insertTimetable,
  Msg,
  queryHasArrangeCourseCount,
  queryHasArrangeCourseTeachers,
  queryPendingList,
  queryReservationList,
  queryTimetableByDate,
  queryTimetableHistory,
  queryTimetableInfo,
  queryTimetableOnline,
  sendTimetablePicture,
  signInPendingCall,
  updateTimetable,
  type CalendarItem,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { call } from '../../api/client.ts';
import { useStore } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite, type WriteOptions } from '../../shared/use-write.ts';

/** A session as the calendar shows it. */
export type CalendarSession = CalendarItem;

export interface RangeFilter {
  fromDate: string;
  toDate: string;
  venueId?: number | null;
  teacherId?: number | null;
}

async function sessionsBetween(f: RangeFilter): Promise<CalendarSession[]> {
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

export function useSessionInfo(id: number) {
  return useQuery({ queryKey: keys.sessions.info(id), queryFn: () => call(queryTimetableInfo, { id }) });
}

/** One page of a session's bookings (in sign-in mode: the signed-in ones). */
export function useSessionBookings(sessionId: number, page: number) {
  return useQuery({
    queryKey: keys.sessions.bookings(sessionId, page),
    queryFn: () => call(queryReservationList, { tid: sessionId, page }),
    placeholderData: (p) => p,
  });
}

export function useSessionHistory(sessionId: number, page: number) {
  return useQuery({
    queryKey: keys.sessions.history(sessionId, page),
    queryFn: () => call(queryTimetableHistory, { tid: sessionId, page }),
    placeholderData: (p) => p,
  });
}

export function useSessionPendings(sessionId: number) {
  return useQuery({
    queryKey: keys.sessions.pendings(sessionId),
    queryFn: () => call(queryPendingList, { tid: sessionId }),
  });
}

/** The session's online room (and its last failure), asked every `pollMs` until it is there. */
export function useOnlineRoom(sessionId: number, enabled: boolean, pollMs: number) {
  return useQuery({
    queryKey: keys.sessions.online(sessionId),
    queryFn: () => call(queryTimetableOnline, { id: sessionId }, { silent: true }),
    enabled,
    refetchInterval: (q) => (q.state.data?.meetingInfo ? false : pollMs),
  });
}

/** Teachers who teach the course on or after the date (drop-in students). */
export function useDropInTeachers(courseId: number | undefined, date: string | undefined) {
  return useQuery({
    queryKey: keys.calendar.dropInTeachers(courseId, date),
    queryFn: () => call(queryHasArrangeCourseTeachers, { cid: courseId!, startDate: date! }),
    enabled: !!courseId && !!date,
  });
}

/** How many sessions of the course those teachers still have from the date. */
export function useDropInCount(courseId: number | undefined, date: string | undefined, teacherIds: number[]) {
  return useQuery({
    queryKey: keys.calendar.dropInCount(courseId, date, teacherIds),
    queryFn: () => call(queryHasArrangeCourseCount, { cid: courseId!, startDate: date!, tids: teacherIds }),
    enabled: !!courseId && !!date && teacherIds.length > 0,
  });
}

/** A session's fields as the add and edit forms hold them. */
export interface SessionFields {
  teacherId: number;
  date: string;
  time: string;
  capacity: number;
  venueId: number | null;
  materialId: number | null;
}

/** A write of the schedule: it changes the calendar, the open session and members' balances. */
function useSessionWrite<A extends unknown[], R>(fn: (...args: A) => Promise<R>, success?: string) {
  const opts: WriteOptions<A> = { success, changes: 'session' };
  return useWrite(fn, opts);
}

export function useAddSession() {
  const store = useStore();
  return useSessionWrite(
    (s: SessionFields & { courseId: number; online: boolean }) =>
      call(insertTimetable, {
        courseId: s.courseId,
        teacherId: s.teacherId,
        reservableCount: s.capacity,
        date: s.date,
        time: s.time,
        storeId: store.id,
        isOnline: s.online ? 1 : 0,
        areaId: s.venueId,
        bookId: s.materialId,
      }),
    Msg.courseSaved,
  );
}

export function useUpdateSession(id: number) {
  return useSessionWrite(
    (s: SessionFields) =>
      call(updateTimetable, {
        id,
        teacherId: s.teacherId,
        date: s.date,
        time: s.time,
        count: s.capacity,
        areaId: s.venueId,
        bookId: s.materialId,
      }),
    Msg.sessionUpdated,
  );
}

export function useDeleteSession(id: number) {
  return useSessionWrite(() => call(cancelTimetable, { id }), Msg.deleted);
}

export interface BookingFields {
  memberId: number;
  cardId: number;
  studentCount: number;
  remark: string;
}

/**
 * Mode 0 books with a card (deducted now); mode 1 books a pending seat (1 person, no card);
 * signing in a pending booking deducts its card.
 */
export function useBookMember(sessionId: number, signInMode: boolean, pendingId: number | undefined) {
  return useSessionWrite(
    (b: BookingFields) => {
      if (pendingId) return call(signInPendingCall, { pendingId, mcId: b.cardId, remark: b.remark });
      if (signInMode)
        return call(addGroupPending, { mid: b.memberId, tid: sessionId, studentCount: 1, remark: b.remark });
      return call(addMemberReservation, {
        mcId: b.cardId,
        tid: sessionId,
        studentCount: b.studentCount,
        remark: b.remark,
      });
    },
    pendingId ? '签到成功' : Msg.booked,
  );
}

export function useCancelBooking(bookingId: number) {
  return useSessionWrite(() => call(cancelReservationCall, { id: bookingId }), Msg.bookingCancelled);
}

export function useCancelPending() {
  return useSessionWrite((pendingId: number) => call(cancelPendingCall, { pendingId }), Msg.bookingCancelled);
}

export function useCreateOnlineRoom(sessionId: number, onDemand: boolean) {
  return useSessionWrite(
    () => call(createTimetableMeeting, { id: sessionId, type: onDemand ? 1 : 2 }),
    Msg.onlineCreated,
  );
}

export function useCancelOnlineRoom(sessionId: number) {
  return useSessionWrite(() => call(cancelTimetableOnline, { id: sessionId }), Msg.onlineCancelled);
}

export function useBatchArrange() {
  return useSessionWrite(
    (payload: ReqOf<typeof batchArrangeCourse>) => call(batchArrangeCourse, payload),
    Msg.batchArranged,
  );
}

export function useBatchDelete() {
  return useSessionWrite(
    (fromDate: string, toDate: string, venueId: number | null) =>
      call(batchCancelTimetable, { fromDate, toDate, areaId: venueId }),
    Msg.batchDeleted,
  );
}

export function useCopySchedule() {
  return useSessionWrite((payload: ReqOf<typeof copyTimetable>) => call(copyTimetable, payload), Msg.copied);
}

export function useDropIn() {
  return useSessionWrite(
    (payload: ReqOf<typeof batchAddMemberReservation>) => call(batchAddMemberReservation, payload),
    Msg.dropInAdded,
  );
}

/** Runs the weekly template; its failure toast stays 10 seconds (spec section 8). */
export function useWeekArrange() {
  const { message } = App.useApp();
  return useWrite(
    (fromDate: string, weeks: number) =>
      call(batchArrangeWeekCourse, { fromDate, arrangeWeeks: weeks }, { silent: true }),
    {
      success: Msg.weekArranged,
      changes: 'session',
      onError: (e) => void message.error({ content: e.message, duration: 10 }),
    },
  );
}

/** The booking rows of a date range, for the spreadsheet. */
export const bookingsBetween = (fromDate: string, toDate: string) => call(batchExportReservation, { fromDate, toDate });

/** The booking rows of one session, for the spreadsheet. */
export const bookingsOfSession = (sessionId: number) => call(exportTimetableReservation, { id: sessionId });

/** Posts the timetable picture to the store's WeCom group robot. */
export const sendPicture = (image: string) => call(sendTimetablePicture, { image });
