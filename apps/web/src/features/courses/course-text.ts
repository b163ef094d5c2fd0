import type { Course } from '@studio/contract';
import { ageLimitText, genderLimitText } from '../../shared/format.ts';

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
