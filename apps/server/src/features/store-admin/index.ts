import { defineFeature } from '../../lib/feature.ts';

/** Registers the store-admin calls. */
export const storeAdminFeature = defineFeature((_r) => {});
