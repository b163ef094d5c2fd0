import { plannedRead, readTogether, type ReadValue } from '../../db/fixed.ts';
import type { Executor } from '../../db/index.ts';

/**
 * What the free-slot finder (`slots.ts`) reads, all of it over the asked range at once: the lesson
 * type, who gives it, their weekly hours and exceptions, the type's rooms and machines, and every
 * live session that claims one of those teachers, rooms or machines. On PostgreSQL one round trip
 * (`readTogether`), on SQLite one read after the other; nothing is read per teacher or per day.
 */

/** Which type, which teachers (undefined or empty: everyone who gives it), and the store-local span [from, to). */
export interface SlotFactsAsked {
  storeId: number;
  courseId: number;
  teacherIds?: readonly number[];
  /** `YYYY-MM-DD HH:mm:ss`, store-local. */
  from: string;
  to: string;
}

/** The lesson type (a live course whose kind is not 'group'). */
function lessonTypeRead(ex: Executor, a: SlotFactsAsked) {
  return plannedRead(
    ex
      .selectFrom('course')
      .select(['id', 'name', 'kind', 'duration', 'maxMembers', 'minNoticeMinutes', 'slotStep', 'enabled'])
      .where('id', '=', a.courseId)
      .where('storeId', '=', a.storeId)
      .where('deleted', '=', 0)
      .where('kind', '<>', 'group'),
  );
}

/** The type's teachers (not deleted), the asked ones only when `teacherIds` is given, in id order. */
function lessonTeachersQuery(ex: Executor, a: SlotFactsAsked) {
  let q = ex
    .selectFrom('lessonTeacher as lt')
    .innerJoin('teacher as te', 'te.id', 'lt.teacherId')
    .where('lt.courseId', '=', a.courseId)
    .where('lt.storeId', '=', a.storeId)
    .where('te.deleted', '=', 0);
  if (a.teacherIds?.length) q = q.where('lt.teacherId', 'in', a.teacherIds);
  return q;
}

/** The ids of the teachers asked about, as a subquery. */
function teacherIdsOf(ex: Executor, a: SlotFactsAsked) {
  return lessonTeachersQuery(ex, a).select('lt.teacherId');
}

export function slotFactsRead(ex: Executor, a: SlotFactsAsked) {
  const fromDate = a.from.slice(0, 10);
  const toDate = a.to.slice(0, 10);
  const rooms = ex.selectFrom('lessonRoom').select('areaId').where('courseId', '=', a.courseId);
  const machines = ex.selectFrom('lessonEquipment').select('equipmentId').where('courseId', '=', a.courseId);
  return {
    type: lessonTypeRead(ex, a),
    teachers: plannedRead(
      lessonTeachersQuery(ex, a).select(['lt.teacherId', 'te.name', 'lt.level']).orderBy('lt.teacherId'),
    ),
    hours: plannedRead(
      ex
        .selectFrom('teacherHours')
        .select(['teacherId', 'weekday', 'startTime', 'endTime'])
        .where('storeId', '=', a.storeId)
        .where('teacherId', 'in', teacherIdsOf(ex, a)),
    ),
    exceptions: plannedRead(
      ex
        .selectFrom('teacherHoursException')
        .select(['teacherId', 'date', 'kind', 'startTime', 'endTime'])
        .where('storeId', '=', a.storeId)
        .where('teacherId', 'in', teacherIdsOf(ex, a))
        .where('date', '>=', fromDate)
        .where('date', '<=', toDate),
    ),
    rooms: plannedRead(
      ex
        .selectFrom('lessonRoom as lr')
        .innerJoin('area as ar', 'ar.id', 'lr.areaId')
        .select(['lr.areaId'])
        .where('lr.courseId', '=', a.courseId)
        .where('lr.storeId', '=', a.storeId)
        .orderBy('ar.sort')
        .orderBy('lr.areaId'),
    ),
    equipment: plannedRead(
      ex
        .selectFrom('lessonEquipment as le')
        .innerJoin('equipment as e', 'e.id', 'le.equipmentId')
        .select(['le.equipmentId', 'le.perMember', 'e.count'])
        .where('le.courseId', '=', a.courseId)
        .where('le.storeId', '=', a.storeId)
        .where('e.deleted', '=', 0)
        .orderBy('le.equipmentId'),
    ),
    /** Live sessions of the asked teachers or in the type's rooms overlapping the span. */
    sessions: plannedRead(
      ex
        .selectFrom('timetable as t')
        .select(['t.teacherId', 't.areaId', 't.startTime', 't.endTime'])
        .where('t.storeId', '=', a.storeId)
        .where('t.deleted', '=', 0)
        .where('t.startTime', '<', a.to)
        .where('t.endTime', '>', a.from)
        .where((eb) => eb.or([eb('t.teacherId', 'in', teacherIdsOf(ex, a)), eb('t.areaId', 'in', rooms)])),
    ),
    /** What live lesson sessions overlapping the span hold of the type's machines: members × per member. */
    machineUse: plannedRead(
      ex
        .selectFrom('timetable as t')
        .innerJoin('lessonEquipment as le', 'le.courseId', 't.courseId')
        .select((eb) => [
          'le.equipmentId',
          't.startTime',
          't.endTime',
          eb('t.realCount', '*', eb.ref('le.perMember')).as('used'),
        ])
        .where('t.storeId', '=', a.storeId)
        .where('t.deleted', '=', 0)
        .where('t.startTime', '<', a.to)
        .where('t.endTime', '>', a.from)
        .where('le.equipmentId', 'in', machines),
    ),
  };
}

/** Everything the finder computes from, read together. */
export function loadSlotFacts(ex: Executor, a: SlotFactsAsked) {
  return readTogether(ex, slotFactsRead(ex, a));
}

export type SlotFacts = Awaited<ReturnType<typeof loadSlotFacts>>;
export type LessonTypeRow = ReadValue<ReturnType<typeof lessonTypeRead>>[number];
