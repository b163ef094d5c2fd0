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
  type BulkPreview,
  queryHasArrangeCourseCount,
  queryHasArrangeCourseTeachers,
  sendTimetablePicture,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { call } from '../../../api/client.ts';
import { keys } from '../../../shared/query-keys.ts';
import { useWrite, type WriteOptions } from '../../../shared/use-write.ts';
import { BulkCancelled, confirmBulk } from '../lib/bulk-preview.tsx';
import { forTeacher } from '../../../api/wire.ts';

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

interface PreviewTexts {
  title: string;
  okText: string;
  /** The main line: how many sessions (or bookings) the change makes or removes. */
  count: (n: number) => string;
  /** Said instead of asking when the change would do nothing. */
  nothing?: string;
  /** What the preview's list of sessions holds: 新增的课程, 删除的课程, 预约的课程. */
  listTitle: string;
}

/**
 * A bulk change that first shows what it will do: the same call as a dry run (nothing written),
 * the preview in a confirm, then the change itself. Declined: nothing happens (no error shown).
 */
function usePreviewedWrite<A extends unknown[]>(
  send: (dryRun: boolean, ...args: A) => Promise<{ count: number; preview?: BulkPreview }>,
  texts: PreviewTexts,
  opts: WriteOptions<A>,
) {
  const { modal } = App.useApp();
  return useWrite(async (...args: A) => {
    const dry = await send(true, ...args);
    const go = await confirmBulk(modal, {
      ...texts,
      countText: texts.count(dry.count),
      count: dry.count,
      preview: dry.preview!,
    });
    if (!go) throw new BulkCancelled();
    return send(false, ...args);
  }, opts);
}

const sessionChange = (success: string) => ({ success, changes: 'session' as const });

export function useBatchArrange() {
  return usePreviewedWrite(
    (dryRun, b: BatchArrangeFields) =>
      call(batchArrangeCourse, {
        cid: b.courseId,
        areaId: b.venueId,
        students: b.capacity,
        ...forTeacher(b.teacherId),
        startDate: b.startDate,
        arrangeTimes: b.sessions,
        courseTimes: b.weekTimes.map((w) => ({ weekday: w.weekday, arrangeTime: w.time })),
        mcIds: b.cardIds,
        isOnline: b.online ? 1 : 0,
        dryRun,
      }),
    { title: '确认批量排课', okText: '排课', count: (n) => `将新增 ${n} 节课`, listTitle: '新增的课程' },
    sessionChange(Msg.batchArranged),
  );
}

export function useBatchDelete() {
  return usePreviewedWrite(
    (dryRun, fromDate: string, toDate: string, venueId: number | null) =>
      call(batchCancelTimetable, { fromDate, toDate, areaId: venueId, dryRun }),
    {
      title: '确认批量删除',
      okText: '删除',
      count: (n) => `将删除 ${n} 节课`,
      nothing: '所选日期和场地内没有课程，无需删除。',
      listTitle: '删除的课程',
    },
    sessionChange(Msg.batchDeleted),
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
  return usePreviewedWrite(
    (dryRun, c: CopyFields) =>
      call(copyTimetable, {
        formerFromDate: c.from[0],
        formerToDate: c.from[1],
        afterFromDate: c.to[0],
        afterToDate: c.to[1],
        isCopyPending: c.withPendings ? 1 : 0,
        areaId: c.venueId,
        dryRun,
      }),
    {
      title: '确认复制课程',
      okText: '复制',
      count: (n) => `将新增 ${n} 节课`,
      nothing: '原日期范围内没有可复制的课程。',
      listTitle: '复制出的课程',
    },
    sessionChange(Msg.copied),
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
  return usePreviewedWrite(
    (dryRun, d: DropInFields) =>
      call(batchAddMemberReservation, {
        mcId: d.cardId,
        cid: d.courseId,
        tids: d.teacherIds,
        startDate: d.startDate,
        times: d.times,
        dryRun,
      }),
    {
      title: '确认安插学员',
      okText: '安插',
      count: (n) => `将为该会员预约接下来的 ${n} 节课`,
      listTitle: '预约的课程',
    },
    sessionChange(Msg.dropInAdded),
  );
}

/** Runs the weekly template; its failure toast stays 10 seconds (spec section 8). */
export function useWeekArrange() {
  const { message } = App.useApp();
  return usePreviewedWrite(
    (dryRun, fromDate: string, weeks: number) =>
      call(batchArrangeWeekCourse, { fromDate, arrangeWeeks: weeks, dryRun }, { silent: true }),
    { title: '确认按周课表排课', okText: '排课', count: (n) => `将新增 ${n} 节课`, listTitle: '新增的课程' },
    {
      success: Msg.weekArranged,
      changes: 'session',
      onError: (e) => {
        if (!(e instanceof BulkCancelled)) void message.error({ content: e.message, duration: 10 });
      },
    },
  );
}

/** The booking rows of a date range, for the spreadsheet. */
export const bookingsBetween = (fromDate: string, toDate: string) => call(batchExportReservation, { fromDate, toDate });

/** The booking rows of one session, for the spreadsheet. */
export const bookingsOfSession = (sessionId: number) => call(exportTimetableReservation, { id: sessionId });

/** Posts the timetable picture to the store's WeCom group robot. */
export const sendPicture = (image: string) => call(sendTimetablePicture, { image });
