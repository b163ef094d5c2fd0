import type { Course } from '@studio/contract';
import { ageLimitText, genderLimitText } from '../schedule/lib/format.ts';

export const GENDER_LIMITS = [
  { value: 2, label: '不限' },
  { value: 1, label: '仅限男' },
  { value: 0, label: '仅限女' },
];

export const AGE_LIMITS = [
  { value: 0, label: '不限' },
  { value: 1, label: '年龄范围' },
  { value: 2, label: '出生日期范围' },
];

export const courseGenderText = (c: Course) => genderLimitText(c.genderLimit);
export const courseAgeText = (c: Course) => ageLimitText(c);

export const COURSE_LIST_KEY = 'store-courses';
/** Every cache a course write changes: the course screens and the schedule's course picker. */
export const COURSE_KEYS = [[COURSE_LIST_KEY], ['courses'], ['store-course'], ['card-products']];
