import { queryToday } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { today } from './service.ts';

/** Registers the desk's 今日 call (read-only). */
export const todayFeature = defineFeature((r) => {
  r.handle(queryToday, (input, ctx) => today(ctx, input.date));
});
