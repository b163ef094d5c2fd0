/** What other features use of the reference data: the look-ups of a store's member and their cards, its teachers, venues, courses, materials and modules. */
export { cardBigType, findMember, memberCards, memberIdByMobile, requireMember, storeCards } from './member/queries.ts';
export type { BookingCard } from './member/queries.ts';
export {
  areaAndBelow,
  getModuleStatus,
  namesOf,
  putModuleStatus,
  requireArea,
  requireCourse,
  requireMaterial,
  requireTeacher,
  requireTeachers,
  roomOf,
} from './repository.ts';
export type { CourseWithCards } from './repository.ts';
