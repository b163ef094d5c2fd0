import type { FixTimetableRow } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { groupBy } from './group.ts';
import { mondayOffset } from './plan.ts';

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
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
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
