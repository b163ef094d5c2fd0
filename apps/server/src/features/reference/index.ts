import { defineFeature } from '../../lib/feature.ts';
import { registerArea } from './area/index.ts';
import { registerCard } from './card/index.ts';
import { registerCourse } from './course/index.ts';
import { registerMaterial } from './material/index.ts';
import { registerMember } from './member/index.ts';
import { registerModule } from './module/index.ts';
import { registerStoreSetting } from './store-setting/index.ts';
import { registerTeacher } from './teacher/index.ts';

/** Registers the reference calls. */
export const referenceFeature = defineFeature((r) => {
  registerArea(r);
  registerTeacher(r);
  registerCourse(r);
  registerMaterial(r);
  registerMember(r);
  registerCard(r);
  registerModule(r);
  registerStoreSetting(r);
});
