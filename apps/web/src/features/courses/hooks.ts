// The course screens' reads and writes.
import {
  insertStoreCourse,
  storeCourseById,
  storeCourseList,
  updateStoreCourse,
  updateStoreCourseStatus,
  Msg,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** One page of the store's courses, searched by name. */
export function useCoursePage(page: number, pageSize: number, search: string) {
  return useQuery({
    queryKey: keys.courses.page(page, pageSize, search),
    queryFn: () => call(storeCourseList, { page, pageSize, param: search || null }),
    placeholderData: (p) => p,
  });
}

/** One course with its cards and limits; id 0 asks nothing. */
export function useCourse(id: number) {
  return useQuery({
    queryKey: keys.courses.one(id),
    queryFn: () => call(storeCourseById, { id }),
    enabled: id > 0,
  });
}

export type CourseFields = ReqOf<typeof insertStoreCourse>;

/** Saves a new course (id null) or changes one. */
export function useSaveCourse(id: number | null) {
  return useWrite((c: CourseFields) => (id ? call(updateStoreCourse, { id, ...c }) : call(insertStoreCourse, c)), {
    success: Msg.courseSaved,
    changes: 'course',
  });
}

export function useSetCourseEnabled() {
  return useWrite((id: number, enabled: 0 | 1) => call(updateStoreCourseStatus, { id, enabled }), {
    success: '操作成功',
    changes: 'course',
  });
}
