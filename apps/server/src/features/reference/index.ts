import { defineFeature } from '../../lib/feature.ts';

/** Registers the reference calls. */
export const referenceFeature = defineFeature((_r) => {});
