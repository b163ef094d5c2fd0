import { defineFeature } from '../../lib/feature.ts';

/** Registers the online calls. */
export const onlineFeature = defineFeature((_r) => {});
