import { batchCalls } from '@studio/contract';
import { AppError } from '../../lib/errors.ts';
import { defineFeature } from '../../lib/feature.ts';

/** Registers the batch calls. */
export const batchFeature = defineFeature((r) => {
  for (const call of batchCalls) {
    r.handle(call, async () => {
      throw new AppError(503, '功能开发中');
    });
  }
});
