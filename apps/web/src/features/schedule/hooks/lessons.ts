// 私教/小班 at the desk (issue 43): the lesson types, a teacher's free start times, and booking,
// confirming, moving and cancelling a lesson.
import {
  addLessonMember,
  bookLesson,
  cancelLesson,
  confirmLesson,
  lessonFreeSlots,
  lessonTypeList,
  moveLesson,
  teacherDayHours,
} from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { afterWrite } from '../../../shared/invalidations.ts';
import { keys } from '../../../shared/query-keys.ts';
import { useWrite } from '../../../shared/use-write.ts';

/** The store's lesson types that may be booked (enabled). */
export function useLessonTypes(enabled = true) {
  return useQuery({
    enabled,
    queryKey: keys.calendar.lessonTypes,
    queryFn: async () => (await call(lessonTypeList, {})).filter((t) => t.enabled === 1),
    staleTime: 60_000,
  });
}

/** The start times the finder offers a teacher on a day for a lesson type and its number of members. */
export function useFreeSlots(q: { courseId?: number; teacherId?: number; date?: string; members: number }) {
  const ready = !!q.courseId && !!q.teacherId && !!q.date;
  return useQuery({
    queryKey: keys.calendar.freeSlots(q.courseId ?? 0, q.teacherId ?? 0, q.date ?? '', q.members),
    queryFn: async () => {
      const days = await call(lessonFreeSlots, {
        courseId: q.courseId!,
        teacherIds: [q.teacherId!],
        from: q.date!,
        to: q.date!,
        members: q.members,
      });
      return days.flatMap((d) => d.teachers.filter((t) => t.teacherId === q.teacherId).flatMap((t) => t.slots));
    },
    enabled: ready,
    staleTime: 0,
  });
}

/** 按老师看一天: each teacher's working hours of the day and the part free (a teacher account: their own). */
export function useTeacherDayHours(date: string) {
  return useQuery({
    queryKey: keys.calendar.teacherHours(date),
    queryFn: () => call(teacherDayHours, { date }),
  });
}

export type LessonBooking = Parameters<typeof call<typeof bookLesson>>[1];

export function useBookLesson() {
  return useWrite((b: LessonBooking) => call(bookLesson, b), { changes: 'session' });
}

/** 添加学员: the desk adds a member with one of their cards to a booked lesson that still has room. */
export function useAddLessonMember(sessionId: number) {
  return useWrite((m: { mid: number; mcId: number }) => call(addLessonMember, { id: sessionId, ...m }), {
    success: '已添加学员',
    changes: 'session',
  });
}

export function useConfirmLesson() {
  return useWrite((id: number) => call(confirmLesson, { id }), { success: '已确认', changes: 'session' });
}

export function useMoveLesson() {
  return useWrite((v: { id: number; date: string; time: string }) => call(moveLesson, v), {
    success: '已调整上课时间，会员会收到通知',
    changes: 'session',
  });
}

/**
 * Cancels one member's booking of a lesson (by booking id; `pending`: a held seat of 签到后扣费, by its
 * id). Its last member's cancel releases the lesson: its own reads are dropped before the refetch
 * (its drawer closes; no 课程不存在 from them).
 */
export function useCancelLesson(sessionId: number) {
  const qc = useQueryClient();
  return useWrite(async (b: { id: number; kind: 'reservation' | 'pending' }) => {
    const r = await call(cancelLesson, b);
    if (r.released) qc.removeQueries({ queryKey: keys.sessions.info(sessionId).slice(0, 2) });
    afterWrite(qc, 'session');
    return r;
  });
}
