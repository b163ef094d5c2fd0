/** The report reads the lessons' reports (私教报表) use, from the one reports repository. */
export {
  issuedByProduct,
  lessonPackProducts,
  lessonsByTypeAndTeacher,
  paymentRowsIn,
  signedInBySession,
  teacherSessions,
  usedByCard,
  type Range,
} from './repository.ts';
