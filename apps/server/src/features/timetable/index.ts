import { defineFeature } from '../../lib/feature.ts';

/** Registers the timetable calls. */
export const timetableFeature = defineFeature((_r) => {});
