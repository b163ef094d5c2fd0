// The toolbar's batch runs (batch, drop-in, copy, batch delete, weekly template), exports and picture.
import {
  batchAddMemberReservation,
  batchArrangeCourse,
  batchArrangeWeekCourse,
  batchCancelTimetable,
  batchExportReservation,
  copyTimetable,
  exportTimetableReservation,
  Msg,
  queryHasArrangeCourseCount,
  queryHasArrangeCourseTeachers,
  sendTimetablePicture,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { call } from '../../../api/client.ts';
import { keys } from '../../../shared/query-keys.ts';
import { useWrite } from '../../../shared/use-write.ts';
import { useSessionWrite } from './session.ts';

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

export interface BatchArrangeFields {
  courseId: number;
  teacherId: number;
  venueId: number | null;
  capacity: number;
  startDate: string;
  /** How many sessions to create. */
  sessions: number;
  /** JavaScript weekday (0 = Sunday) and start time `HH:mm`. */
  weekTimes: { weekday: number; time: string }[];
  /** The fixed students' cards, booked into every session. */
  cardIds: number[];
  online: boolean;
}

export function useBatchArrange() {
  return useSessionWrite(
    (b: BatchArrangeFields) =>
      call(batchArrangeCourse, {
        cid: b.courseId,
        areaId: b.venueId,
        students: b.capacity,
        tid: b.teacherId,
        startDate: b.startDate,
        arrangeTimes: b.sessions,
        courseTimes: b.weekTimes.map((w) => ({ weekday: w.weekday, arrangeTime: w.time })),
        mcIds: b.cardIds,
        isOnline: b.online ? 1 : 0,
      }),
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

export interface CopyFields {
  from: [string, string];
  to: [string, string];
  /** Copy the pending bookings too. */
  withPendings: boolean;
  venueId: number | null;
}

export function useCopySchedule() {
  return useSessionWrite(
    (c: CopyFields) =>
      call(copyTimetable, {
        formerFromDate: c.from[0],
        formerToDate: c.from[1],
        afterFromDate: c.to[0],
        afterToDate: c.to[1],
        isCopyPending: c.withPendings ? 1 : 0,
        areaId: c.venueId,
      }),
    Msg.copied,
  );
}

export interface DropInFields {
  cardId: number;
  courseId: number;
  teacherIds: number[];
  startDate: string;
  /** How many of the next sessions to book. */
  times: number;
}

export function useDropIn() {
  return useSessionWrite(
    (d: DropInFields) =>
      call(batchAddMemberReservation, {
        mcId: d.cardId,
        cid: d.courseId,
        tids: d.teacherIds,
        startDate: d.startDate,
        times: d.times,
      }),
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
