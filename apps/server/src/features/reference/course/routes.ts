import {
  courseSimpleList,
  insertStoreCourse,
  storeCourseById,
  storeCourseList,
  updateStoreCourse,
  updateStoreCourseStatus,
} from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { courseById, createCourse, editCourse, listCourses, setCourseEnabled, simpleCourses } from './service.ts';

/** Courses: the picker list and the store-course management calls. */
export function registerCourse(r: Registry): void {
  r.handle(courseSimpleList, (_input, ctx) => simpleCourses(ctx));
  r.handle(insertStoreCourse, (input, ctx) => createCourse(ctx, input));
  r.handle(updateStoreCourse, (input, ctx) => editCourse(ctx, input));
  r.handle(updateStoreCourseStatus, (input, ctx) => setCourseEnabled(ctx, input.id, input.enabled), { tx: true });
  r.handle(storeCourseList, (input, ctx) => listCourses(ctx, input));
  r.handle(storeCourseById, (input, ctx) => courseById(ctx, input.id));
}
