/**
 * The calls' own names for ids, met once where the app meets the wire. The spec names a class `tid`
 * (its timetable row) and, in the batch calls, a teacher `tid` too; inside the app they are
 * `sessionId` and `teacherId`. Nothing else in the app spells `tid` (eslint.config.js says so).
 */
export const onSession = <T extends number | null>(sessionId: T) => ({ tid: sessionId });
export const forTeacher = (teacherId: number) => ({ tid: teacherId });
/** The class of a row the calls answer with its `tid`. */
export const sessionIdOf = (row: { tid: number }) => row.tid;
