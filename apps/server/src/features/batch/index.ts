import { defineFeature } from '../../lib/feature.ts';

/** Registers the batch calls. */
export const batchFeature = defineFeature((_r) => {});
