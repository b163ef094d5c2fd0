/** What other features use of the reference data: the look-ups of a store's members, its teachers, venues, courses, materials and modules. */
export { changeMember, findMember, memberIdByMobile, membersMatching, requireMember } from './member/repository.ts';
export {
  areaAndBelow,
  getModuleStatus,
  namesOf,
  putModuleStatus,
  requireArea,
  requireCourse,
  requireTeacher,
  requireTeachers,
  roomOf,
  teacherAreaMaterialCheck,
} from './repository.ts';
export { ownTeacherFilter } from './teacher/access.ts';
export type { CourseWithCards, TeacherAreaMaterial } from './repository.ts';
/** The card products a course takes (卡种 ↔ 课程), written with the card product. */
export { clearCourseCards, insertCourseCards, liveCourseIds } from './course/repository.ts';
/** A session's course joined, its name selected as courseName (every read naming a session's class). */
export { withCourseName, withCourseNameIfAny } from './course/repository.ts';
