import type { FixTimetableRow } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { groupBy } from '../../lib/group.ts';
import { mondayOffset } from './plan.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * The weekly template's repository: its rows (a weekday, a time, course, teacher, venue, seats,
 * material) and the fixed students of each row.
 */

/** What an edit of a template row sets. */
export type TemplateRowValues = Pick<
  NewRow<'fixTimetable'>,
  'weekday' | 'time' | 'courseId' | 'teacherId' | 'reservableCount'
> & { venueId: number | null; materialId: number | null };

/** The columns of a template row's values. */
const columnsOf = ({ venueId, materialId, ...rest }: TemplateRowValues) => ({
  ...rest,
  areaId: venueId,
  bookId: materialId,
});

/** A fixed student of a template row: the card booked and its seats. */
export interface FixedStudent {
  memberCardId: number;
  studentCount: number;
}

/** The weekly template rows of a store, Monday first then by time, each with its fixed students. */
export async function templateRows(ex: Executor, storeId: number): Promise<FixTimetableRow[]> {
  const rows = await ex
    .selectFrom('fixTimetable as f')
    .innerJoin('course as c', 'c.id', 'f.courseId')
    .innerJoin('teacher as t', 't.id', 'f.teacherId')
    .leftJoin('area as a', 'a.id', 'f.areaId')
    .select([
      'f.id',
      'f.weekday',
      'f.time',
      'f.courseId',
      'c.name as courseName',
      'f.teacherId',
      't.name as teacherName',
      'f.areaId',
      'a.name as areaName',
      'f.reservableCount',
      'f.bookId',
    ])
    .where('f.storeId', '=', storeId)
    .orderBy('f.id')
    .execute();
  const students = await ex
    .selectFrom('fixStudent as s')
    .innerJoin('memberCard as mc', 'mc.id', 's.memberCardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .select([
      's.id',
      's.fixId',
      's.memberCardId as mcId',
      'mc.memberId',
      'm.name as memberName',
      'p.cardName',
      's.studentCount',
    ])
    .where('s.storeId', '=', storeId)
    .orderBy('s.id')
    .execute();
  const byRow = groupBy(students, (s) => s.fixId);
  return rows
    .map((r) => ({
      ...r,
      areaName: r.areaName ?? null,
      students: (byRow.get(r.id) ?? []).map(({ fixId: _fixId, ...s }) => s),
    }))
    .sort((a, b) => mondayOffset(a.weekday) - mondayOffset(b.weekday) || a.time.localeCompare(b.time) || a.id - b.id);
}

/** How many template rows the store has. */
export async function countTemplateRows(ex: Executor, storeId: number): Promise<number> {
  const { n } = await ex
    .selectFrom('fixTimetable')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('storeId', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Writes a template row (without its students); answers its id. */
export async function addTemplateRow(
  tx: Tx,
  storeId: number,
  values: TemplateRowValues,
  createdAt: string,
): Promise<number> {
  const { id } = await tx
    .insertInto('fixTimetable')
    .values({ storeId, ...columnsOf(values), createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Sets a template row of the store; false when the store has no such row. */
export async function changeTemplateRow(
  tx: Tx,
  storeId: number,
  id: number,
  values: TemplateRowValues,
): Promise<boolean> {
  const res = await tx
    .updateTable('fixTimetable')
    .set(columnsOf(values))
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Writes many template rows (without students) in one statement. */
export async function addTemplateRows(
  tx: Tx,
  storeId: number,
  rows: readonly TemplateRowValues[],
  createdAt: string,
): Promise<void> {
  if (!rows.length) return;
  await tx
    .insertInto('fixTimetable')
    .values(rows.map((r) => ({ storeId, ...columnsOf(r), createdAt })))
    .execute();
}

/** Removes every template row of the store and their fixed students. */
export async function clearTemplate(tx: Tx, storeId: number): Promise<void> {
  await tx.deleteFrom('fixStudent').where('storeId', '=', storeId).execute();
  await tx.deleteFrom('fixTimetable').where('storeId', '=', storeId).execute();
}

/** Removes a template row of the store (not its students); false when the store has no such row. */
export async function removeTemplateRow(tx: Tx, storeId: number, id: number): Promise<boolean> {
  const res = await tx
    .deleteFrom('fixTimetable')
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Writes the fixed students of a template row. */
export async function addFixedStudents(
  tx: Tx,
  storeId: number,
  fixId: number,
  students: readonly FixedStudent[],
): Promise<void> {
  if (!students.length) return;
  await tx
    .insertInto('fixStudent')
    .values(students.map((s) => ({ storeId, fixId, memberCardId: s.memberCardId, studentCount: s.studentCount })))
    .execute();
}

/** Removes the fixed students of a template row of the store. */
export async function removeFixedStudents(tx: Tx, storeId: number, fixId: number): Promise<void> {
  await tx.deleteFrom('fixStudent').where('fixId', '=', fixId).where('storeId', '=', storeId).execute();
}
