import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow, RowUpdate } from '../../db/schema.ts';

/**
 * The lessons' repository: lesson types (courses whose kind is not 'group') with who gives them at
 * which level, their prices, rooms and machines; the store's machines; the teachers' weekly hours
 * and dated exceptions. The free-slot finder's read is `slots-repository.ts`.
 */

const typeCols = [
  'id',
  'name',
  'kind',
  'maxMembers',
  'duration',
  'minNoticeMinutes',
  'cancelCutoffMinutes',
  'slotStep',
  'color',
  'description',
  'enabled',
] as const;

/** The store's lesson types that are not deleted, by id (all when `id` is undefined). */
export function lessonTypes(ex: Executor, storeId: number, id?: number) {
  let q = ex
    .selectFrom('course')
    .select([...typeCols])
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where('kind', '<>', 'group');
  if (id !== undefined) q = q.where('id', '=', id);
  return q.orderBy('id').execute();
}

/** What the types of `courseIds` are given by, cost, use: teachers (with names), prices, rooms, machines. */
export async function typeParts(ex: Executor, storeId: number, courseIds: readonly number[]) {
  if (!courseIds.length) return { teachers: [], prices: [], areas: [], equipment: [] };
  const [teachers, prices, areas, equipment] = await Promise.all([
    ex
      .selectFrom('lessonTeacher as lt')
      .innerJoin('teacher as te', 'te.id', 'lt.teacherId')
      .select(['lt.courseId', 'lt.teacherId', 'te.name', 'lt.level'])
      .where('lt.storeId', '=', storeId)
      .where('lt.courseId', 'in', courseIds)
      .where('te.deleted', '=', 0)
      .orderBy('lt.teacherId')
      .execute(),
    ex
      .selectFrom('lessonPrice')
      .select(['courseId', 'level', 'price'])
      .where('storeId', '=', storeId)
      .where('courseId', 'in', courseIds)
      .orderBy('level')
      .execute(),
    ex
      .selectFrom('lessonRoom as lr')
      .innerJoin('area as a', 'a.id', 'lr.areaId')
      .select(['lr.courseId', 'a.id', 'a.name'])
      .where('lr.storeId', '=', storeId)
      .where('lr.courseId', 'in', courseIds)
      .orderBy('a.sort')
      .orderBy('a.id')
      .execute(),
    ex
      .selectFrom('lessonEquipment as le')
      .innerJoin('equipment as e', 'e.id', 'le.equipmentId')
      .select(['le.courseId', 'le.equipmentId', 'e.name', 'le.perMember'])
      .where('le.storeId', '=', storeId)
      .where('le.courseId', 'in', courseIds)
      .where('e.deleted', '=', 0)
      .orderBy('le.equipmentId')
      .execute(),
  ]);
  return { teachers, prices, areas, equipment };
}

/** Which of `ids` are rows of the store's `table` (teachers and machines: not deleted). */
export async function ownIds(
  ex: Executor,
  storeId: number,
  table: 'teacher' | 'area' | 'equipment',
  ids: readonly number[],
) {
  if (!ids.length) return new Set<number>();
  let q = ex
    .selectFrom(table)
    .select('id')
    .where('storeId', '=', storeId)
    .where('id', 'in', [...new Set(ids)]);
  if (table !== 'area') q = q.where('deleted', '=', 0);
  return new Set((await q.execute()).map((r) => r.id));
}

/** A lesson type's parts, replaced: who gives it, prices, rooms, machines. */
export async function replaceTypeParts(
  tx: Tx,
  storeId: number,
  courseId: number,
  p: {
    teachers: { teacherId: number; level: 'junior' | 'senior' | 'master' | null }[];
    prices: { level: string; price: number }[];
    areaIds: number[];
    equipment: { equipmentId: number; perMember: number }[];
  },
) {
  for (const table of ['lessonTeacher', 'lessonPrice', 'lessonRoom', 'lessonEquipment'] as const) {
    await tx.deleteFrom(table).where('storeId', '=', storeId).where('courseId', '=', courseId).execute();
  }
  if (p.teachers.length) {
    await tx
      .insertInto('lessonTeacher')
      .values(p.teachers.map((t) => ({ storeId, courseId, ...t })))
      .execute();
  }
  if (p.prices.length) {
    await tx
      .insertInto('lessonPrice')
      .values(p.prices.map((x) => ({ storeId, courseId, ...x })))
      .execute();
  }
  if (p.areaIds.length) {
    await tx
      .insertInto('lessonRoom')
      .values(p.areaIds.map((areaId) => ({ storeId, courseId, areaId })))
      .execute();
  }
  if (p.equipment.length) {
    await tx
      .insertInto('lessonEquipment')
      .values(p.equipment.map((e) => ({ storeId, courseId, ...e })))
      .execute();
  }
}

export function insertTypeRow(tx: Tx, row: NewRow<'course'>) {
  return tx.insertInto('course').values(row).returning('id').executeTakeFirstOrThrow();
}

export async function changeTypeRow(ex: Executor, storeId: number, id: number, fields: RowUpdate<'course'>) {
  await ex.updateTable('course').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** The store's machines that are not deleted, with their room's name, by id (one when `id` is given). */
export function equipmentOf(ex: Executor, storeId: number, id?: number) {
  let q = ex
    .selectFrom('equipment as e')
    .leftJoin('area as a', 'a.id', 'e.areaId')
    .select(['e.id', 'e.name', 'e.count', 'e.areaId', 'a.name as areaName'])
    .where('e.storeId', '=', storeId)
    .where('e.deleted', '=', 0);
  if (id !== undefined) q = q.where('e.id', '=', id);
  return q.orderBy('e.id').execute();
}

export function insertEquipmentRow(ex: Executor, row: NewRow<'equipment'>) {
  return ex.insertInto('equipment').values(row).returning('id').executeTakeFirstOrThrow();
}

export async function changeEquipment(ex: Executor, storeId: number, id: number, fields: RowUpdate<'equipment'>) {
  await ex.updateTable('equipment').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
}

/** Lesson types no longer use a machine (it is deleted). */
export async function dropEquipmentUse(ex: Executor, storeId: number, equipmentId: number) {
  await ex
    .deleteFrom('lessonEquipment')
    .where('storeId', '=', storeId)
    .where('equipmentId', '=', equipmentId)
    .execute();
}

const hourCols = ['weekday', 'startTime', 'endTime'] as const;
/** The store's weekly hours (a teacher's, or with `teacherId` selected: every teacher's), by weekday and start. */
const weeklyOf = (ex: Executor, storeId: number) =>
  ex.selectFrom('teacherHours').where('storeId', '=', storeId).orderBy('weekday').orderBy('startTime');

/** A teacher's weekly hours, by weekday and start. */
export function weeklyHours(ex: Executor, storeId: number, teacherId: number) {
  return weeklyOf(ex, storeId).select(hourCols).where('teacherId', '=', teacherId).execute();
}

/** A teacher's weekly hours, replaced. */
export async function replaceWeeklyHours(
  tx: Tx,
  storeId: number,
  teacherId: number,
  weekly: readonly { weekday: number; startTime: string; endTime: string }[],
) {
  await tx.deleteFrom('teacherHours').where('storeId', '=', storeId).where('teacherId', '=', teacherId).execute();
  if (weekly.length) {
    await tx
      .insertInto('teacherHours')
      .values(weekly.map((w) => ({ storeId, teacherId, ...w })))
      .execute();
  }
}

/** The store's exceptions by date (within [from, to] when given). */
function exceptionsOf(ex: Executor, storeId: number, from?: string, to?: string) {
  let q = ex.selectFrom('teacherHoursException').where('storeId', '=', storeId);
  if (from) q = q.where('date', '>=', from);
  if (to) q = q.where('date', '<=', to);
  return q.orderBy('date').orderBy('id');
}
const exceptionCols = ['id', 'date', 'kind', 'startTime', 'endTime', 'reason'] as const;

/** A teacher's exceptions, by date (within [from, to] when given). */
export function hoursExceptions(ex: Executor, storeId: number, teacherId: number, from?: string, to?: string) {
  return exceptionsOf(ex, storeId, from, to).select(exceptionCols).where('teacherId', '=', teacherId).execute();
}

/**
 * Every teacher's weekly hours and exceptions of [from, to], with the teacher's id: what the
 * reports' utilisation (booked hours / working hours, features/reports) measures the hours from,
 * through `workingSpans`.
 */
export async function storeHours(ex: Executor, storeId: number, from: string, to: string) {
  const [weekly, exceptions] = await Promise.all([
    weeklyOf(ex, storeId)
      .select(['teacherId', ...hourCols])
      .execute(),
    exceptionsOf(ex, storeId, from, to)
      .select(['teacherId', ...exceptionCols])
      .execute(),
  ]);
  return { weekly, exceptions };
}

export function insertHoursException(ex: Executor, row: NewRow<'teacherHoursException'>) {
  return ex.insertInto('teacherHoursException').values(row).returning('id').executeTakeFirstOrThrow();
}

/** An exception of the store (its teacher and date), or undefined. */
export function findHoursException(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('teacherHoursException')
    .select(['id', 'teacherId', 'date', 'kind'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteHoursException(ex: Executor, storeId: number, id: number) {
  await ex.deleteFrom('teacherHoursException').where('storeId', '=', storeId).where('id', '=', id).execute();
}
