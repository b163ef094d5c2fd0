import type { Executor } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';

/**
 * The store's reference data as the other features read it: one look-up each for a course with
 * its cards, a teacher, a venue and the venues below it, a material, and the store's modules.
 */

/** A live course of the store with the card products allowed to book it, or 404 课程不存在. */
export async function requireCourse(ex: Executor, storeId: number, id: number) {
  const course = await ex
    .selectFrom('course')
    .selectAll()
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!course) throw notFound('课程');
  const cards = await ex
    .selectFrom('courseCard')
    .select('cardId')
    .where('courseId', '=', id)
    .where('storeId', '=', storeId)
    .execute();
  return { ...course, cardIds: cards.map((c) => c.cardId) };
}
export type CourseWithCards = Awaited<ReturnType<typeof requireCourse>>;

/** A live teacher of the store, or 404 老师不存在. */
export async function requireTeacher(ex: Executor, storeId: number, id: number) {
  const t = await ex
    .selectFrom('teacher')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!t) throw notFound('老师');
  return t;
}

/** Checks that teachers (deleted ones included: their sessions remain) belong to the store (404 老师不存在). */
export async function requireTeachers(ex: Executor, storeId: number, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  const found = await ex
    .selectFrom('teacher')
    .select('id')
    .where('id', 'in', unique)
    .where('storeId', '=', storeId)
    .execute();
  if (found.length !== unique.length) throw notFound('老师');
}

/** Checks an optional venue belongs to the store (404 场地不存在). */
export async function requireArea(ex: Executor, storeId: number, id: number | null): Promise<void> {
  if (id === null) return;
  const a = await ex
    .selectFrom('area')
    .select('id')
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!a) throw notFound('场地');
}

/** A teaching material of the store with its level (book 1, chapter 2, lesson 3), or 404 教材不存在. */
export async function requireMaterialNode(ex: Executor, storeId: number, id: number) {
  const m = await ex
    .selectFrom('material')
    .select(['id', 'level'])
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!m) throw notFound('教材');
  return m;
}

/** What a session names besides its course: a teacher, and optionally a venue and a material. */
export interface TeacherAreaMaterial {
  teacherId: number;
  venueId: number | null;
  materialId: number | null;
}

/**
 * The set form of requireTeacher, requireArea and requireMaterialNode for many rows: the rows' distinct
 * teachers (live), venues and materials of the store in one look-up per kind (none for an empty
 * list). Answers the check of one row, which throws what the three would, in that order (404
 * 老师不存在, 场地不存在, 教材不存在).
 */
export async function teacherAreaMaterialCheck(
  ex: Executor,
  storeId: number,
  rows: readonly TeacherAreaMaterial[],
): Promise<(row: TeacherAreaMaterial) => void> {
  const ids = (pick: (r: TeacherAreaMaterial) => number | null) => [
    ...new Set(rows.map(pick).filter((id): id is number => id !== null)),
  ];
  const found = (list: { id: number }[]) => new Set(list.map((r) => r.id));
  const teacherIds = ids((r) => r.teacherId);
  const venueIds = ids((r) => r.venueId);
  const materialIds = ids((r) => r.materialId);
  const teachers = found(
    teacherIds.length
      ? await ex
          .selectFrom('teacher')
          .select('id')
          .where('id', 'in', teacherIds)
          .where('storeId', '=', storeId)
          .where('deleted', '=', 0)
          .execute()
      : [],
  );
  const ofStore = async (table: 'area' | 'material', list: number[]) =>
    found(
      list.length
        ? await ex.selectFrom(table).select('id').where('id', 'in', list).where('storeId', '=', storeId).execute()
        : [],
    );
  const areas = await ofStore('area', venueIds);
  const materials = await ofStore('material', materialIds);
  return (row) => {
    if (!teachers.has(row.teacherId)) throw notFound('老师');
    if (row.venueId !== null && !areas.has(row.venueId)) throw notFound('场地');
    if (row.materialId !== null && !materials.has(row.materialId)) throw notFound('教材');
  };
}

/** The store's venues ({id, parentId, name}), by sort then id. */
export function storeAreas(ex: Executor, storeId: number) {
  return ex
    .selectFrom('area')
    .select(['id', 'parentId', 'name'])
    .where('storeId', '=', storeId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/**
 * A venue and every venue below it (404 场地不存在 when it is not the store's);
 * null when no venue filter is given.
 */
export async function areaAndBelow(ex: Executor, storeId: number, venueId: number | null): Promise<number[] | null> {
  if (venueId === null) return null;
  const all = await storeAreas(ex, storeId);
  if (!all.some((a) => a.id === venueId)) throw notFound('场地');
  const ids = new Set([venueId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const a of all) {
      if (a.parentId !== null && ids.has(a.parentId) && !ids.has(a.id)) {
        ids.add(a.id);
        grew = true;
      }
    }
  }
  return [...ids];
}

/** The status of one store module, or undefined when the store has no row for it. */
export async function getModuleStatus(ex: Executor, storeId: number, moduleId: number): Promise<number | undefined> {
  const row = await ex
    .selectFrom('storeModule')
    .select('status')
    .where('storeId', '=', storeId)
    .where('moduleId', '=', moduleId)
    .executeTakeFirst();
  return row?.status;
}

/** Sets a store module's status. */
export async function putModuleStatus(ex: Executor, storeId: number, moduleId: number, status: number) {
  await ex
    .insertInto('storeModule')
    .values({ storeId, moduleId, status })
    .onConflict((oc) => oc.columns(['storeId', 'moduleId']).doUpdateSet({ status }))
    .execute();
}

/**
 * The store's area as a room (its name), or null when it is not one: a venue with rooms under it is
 * a whole branch, not a place one class fills, so sessions placed on it clash with nothing.
 */
export async function roomOf(ex: Executor, storeId: number, venueId: number): Promise<{ name: string } | null> {
  const a = await ex
    .selectFrom('area as a')
    .select((eb) => [
      'a.name',
      eb.exists(eb.selectFrom('area as c').select('c.id').whereRef('c.parentId', '=', 'a.id')).as('hasRooms'),
    ])
    .where('a.id', '=', venueId)
    .where('a.storeId', '=', storeId)
    .executeTakeFirst();
  return a && !a.hasRooms ? { name: a.name } : null;
}

/** The names of some teachers, venues or materials by id (deleted ones too). */
export function namesOf(ex: Executor, table: 'teacher' | 'area' | 'material' | 'member', ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([] as { id: number; name: string }[]);
  return ex
    .selectFrom(table)
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}
