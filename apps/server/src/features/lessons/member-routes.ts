import { memberCardsForLesson, memberLessonSlots, memberLessonTypes, memberOpenLessons } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import * as svc from './member-lessons.ts';

/** 私教/小班 on the members' phone: the lesson types, a day's free times and 小班 to join, the member's cards for a lesson. */
export const memberLessonsFeature = defineFeature((r) => {
  r.handle(memberLessonTypes, (_input, ctx) => svc.memberLessonTypes(ctx));
  r.handle(memberLessonSlots, (input, ctx) => svc.memberLessonSlots(ctx, input));
  r.handle(memberOpenLessons, (input, ctx) => svc.memberOpenLessons(ctx, input));
  r.handle(memberCardsForLesson, (input, ctx) => svc.memberCardsForLesson(ctx, input));
});
