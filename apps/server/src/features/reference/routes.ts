import { defineFeature } from '../../lib/feature.ts';
import { registerArea } from './area/routes.ts';
import { registerCourse } from './course/routes.ts';
import { registerMaterial } from './material/routes.ts';
import { registerMember } from './member/routes.ts';
import { registerModule } from './module/routes.ts';
import { registerTeacher } from './teacher/routes.ts';

/** Registers the reference calls. */
export const referenceFeature = defineFeature((r) => {
  registerArea(r);
  registerTeacher(r);
  registerCourse(r);
  registerMaterial(r);
  registerMember(r);
  registerModule(r);
});
