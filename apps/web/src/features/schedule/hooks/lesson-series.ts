// 固定时段 (issue 43 item 5): a lesson every week at the same time, previewed date by date, then booked at once.
import {
  bookLessonSeries,
  LESSON_SERIES_MAX_WEEKS,
  LessonBookingMsg,
  LessonSeriesMsg,
  lessonTypeList,
  Msg,
  type LessonSeriesDate,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { keys } from '../../../shared/query-keys.ts';
import { useWrite } from '../../../shared/use-write.ts';

/** The store's lesson types (私教/小班) that can be booked now, with who gives each. */
export function useLessonTypes() {
  return useQuery({
    queryKey: keys.lessonTypes,
    queryFn: () => call(lessonTypeList, {}),
    select: (list) => list.filter((t) => t.enabled === 1),
  });
}

/** One member of the lesson with the card that pays (1对2: two cards, or one card shared by both). */
export interface SeriesMember {
  memberId?: number;
  cardId?: number;
}

export interface SeriesFields {
  courseId?: number;
  teacherId?: number;
  /** A room of the type's; none: the first of its rooms free each week. */
  venueId?: number | null;
  members: SeriesMember[];
  startDate?: string;
  time?: string;
  weeks?: number | null;
}

/** The series' request, checked with the contract's words before any call; `problem` is the first thing to fix. */
export function seriesRequest(
  f: SeriesFields,
): { problem: string; req?: undefined } | { problem?: undefined; req: SeriesReq } {
  const ids = f.members.map((m) => m.memberId);
  const problem = !f.courseId
    ? Msg.chooseCourse
    : !f.teacherId
      ? Msg.chooseTeacher
      : !f.members.length || f.members.some((m) => !m.memberId)
        ? Msg.chooseMember
        : f.members.some((m) => !m.cardId)
          ? LessonSeriesMsg.chooseCard
          : new Set(ids).size !== ids.length
            ? LessonBookingMsg.sameMember
            : !f.startDate
              ? Msg.chooseDate
              : !f.time
                ? Msg.chooseTime
                : !f.weeks || f.weeks < 1 || f.weeks > LESSON_SERIES_MAX_WEEKS
                  ? LessonSeriesMsg.weeks
                  : null;
  if (problem) return { problem };
  return {
    req: {
      courseId: f.courseId!,
      teacherId: f.teacherId!,
      venueId: f.venueId ?? null,
      startDate: f.startDate!,
      time: f.time!,
      weeks: f.weeks!,
      members: f.members.map((m) => ({ mid: m.memberId!, mcId: m.cardId! })),
    },
  };
}

/** What the series call takes (its dates and dryRun added per use). */
export interface SeriesReq {
  courseId: number;
  teacherId: number;
  venueId: number | null;
  startDate: string;
  time: string;
  weeks: number;
  members: { mid: number; mcId: number }[];
}

/** The preview: every date of the series with why it cannot be booked (nothing is written). */
export function useSeriesPreview() {
  return useWrite((req: SeriesReq) => call(bookLessonSeries, { ...req, dryRun: true }));
}

/** Books the preview's bookable dates, all or nothing (undone from 操作日志). */
export function useBookSeries() {
  return useWrite(
    (req: SeriesReq, dates: LessonSeriesDate[]) =>
      call(bookLessonSeries, { ...req, dates: dates.filter((d) => d.reason === null).map((d) => d.date) }),
    { changes: 'session' },
  );
}
