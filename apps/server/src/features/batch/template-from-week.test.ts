// 从课表生成 (issue 33, item 14): a week of the timetable becomes the weekly template's rows, previewed
// first (a dry run writes nothing), replacing the current rows or added to them, audited; a week
// without classes is refused; another store's classes are never taken. The template made then
// schedules the same classes in another week through the template run. Both databases.
import {
  batchArrangeWeekCourse,
  deleteFixTimetable,
  insertFixTimetable,
  insertFixTimetableFromWeek,
  MAX_FIX_ROWS,
  Msg,
  queryFixTimetableList,
  queryTimetableByDate,
  TemplateMsg,
} from '@studio/contract';
import { beforeEach, expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { engineFactory, FUTURE } from '../../../test/batch-kit.ts';

const FROM_WEEK = insertFixTimetableFromWeek.path;
/** A Monday far ahead (FUTURE, 2099-06-01, is a Monday). */
const MONDAY = addDays(FUTURE, 7 * 30);

interface Row {
  weekday: number;
  time: string;
  courseName: string;
  teacherName: string;
  areaName: string | null;
  reservableCount: number;
}
const brief = (r: Row) => [r.weekday, r.time, r.courseName, r.teacherName, r.areaName, r.reservableCount];

describeEachDb('从课表生成: the weekly template from a week of the timetable', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown> = {}) => env().client.ok<T>(path, body);
  const db = () => env().database.db;

  beforeEach(async () => {
    for (const r of await ok<{ id: number }[]>(queryFixTimetableList.path)) {
      await ok(deleteFixTimetable.path, { id: r.id });
    }
  });

  /** A week from `monday` with three classes (Monday 09:00 in a room, Wednesday 18:30, Sunday 07:00), and a deleted one. */
  async function week(monday: string) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene();
    const room = await env().factory.area({ name: `单车房${teacher.id}` });
    const other = await env().factory.course({ cardIds: [product.id], count: 6 });
    const a = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      venueId: room.id,
      startTime: `${monday} 09:00:00`,
    });
    await ef.session({ courseId: other.id, teacherId: teacher.id, startTime: `${addDays(monday, 2)} 18:30:00` });
    await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${addDays(monday, 6)} 07:00:00` });
    const gone = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${addDays(monday, 3)} 10:00:00`,
    });
    await db().updateTable('timetable').set({ deleted: 1 }).where('id', '=', gone.id).execute();
    // Outside the week: the Monday after.
    await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${addDays(monday, 7)} 09:00:00` });
    const rows = [
      [1, '09:00', course.name, teacher.name, room.name, course.count],
      [3, '18:30', other.name, teacher.name, null, 6],
      [0, '07:00', course.name, teacher.name, null, course.count],
    ];
    return { ef, teacher, product, course, other, room, a, rows };
  }

  it('previews the rows (nothing written), then replaces the template with them; the template schedules the same week again', async () => {
    const w = await week(MONDAY);
    const student = await w.ef.memberWithCard(w.product.id, { card: { totalCount: 10 } });
    await ok(insertFixTimetable.path, {
      weekday: 5,
      time: '20:00',
      courseId: w.course.id,
      teacherId: w.teacher.id,
      areaId: null,
      reservableCount: 5,
      bookId: null,
      students: [{ mcId: student.card.id, studentCount: 1 }],
    });
    const before = await ok(queryFixTimetableList.path);

    const dry = await ok(FROM_WEEK, { fromDate: MONDAY, mode: 'replace', dryRun: true });
    expect(dry.rows.map(brief)).toEqual(w.rows);
    expect([dry.count, dry.existing, dry.existingStudents, dry.duplicates]).toEqual([3, 1, 1, 0]);
    expect(await ok(queryFixTimetableList.path)).toEqual(before);

    const done = await ok(FROM_WEEK, { fromDate: MONDAY, mode: 'replace' });
    expect(done).toEqual(dry);
    const rows = await ok<(Row & { students: unknown[]; bookId: number | null })[]>(queryFixTimetableList.path);
    // Monday first, then by time; the old row and its fixed student are gone.
    expect(rows.map(brief)).toEqual(w.rows);
    expect(rows.every((r) => r.students.length === 0)).toBe(true);
    expect(await db().selectFrom('fixStudent').select('id').where('storeId', '=', env().storeId).execute()).toEqual([]);

    // Audited: who, and what in words.
    const entry = await db()
      .selectFrom('auditLog')
      .selectAll()
      .where('storeId', '=', env().storeId)
      .where('call', '=', FROM_WEEK)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([entry.actorKind, entry.staffId, entry.summary]).toEqual(['staff', env().staffId, '从课表生成周课表']);
    expect(entry.target).toBe(`${MONDAY}起一周的课：生成3行，替换原有1行（含1位固定学员）`);

    // The template run makes the same classes in another week.
    const later = addDays(MONDAY, 7 * 10);
    const run = await ok(batchArrangeWeekCourse.path, { fromDate: later, arrangeWeeks: 1 });
    expect(run.count).toBe(3);
    const made = await ok<
      { list: { fromTime: string; courseName: string; teacherName: string; areaName: string | null }[] }[]
    >(queryTimetableByDate.path, { fromDate: later, toDate: addDays(later, 6), teacherId: w.teacher.id });
    const classes = made.flatMap((d) => d.list).map((c) => [c.fromTime.slice(0, 16), c.courseName, c.areaName ?? null]);
    expect(classes).toEqual([
      [`${later} 09:00`, w.course.name, w.room.name],
      [`${addDays(later, 2)} 18:30`, w.other.name, null],
      [`${addDays(later, 6)} 07:00`, w.course.name, null],
    ]);
  });

  it('adds to the current rows, leaving out the classes the template has already', async () => {
    const w = await week(addDays(MONDAY, 7 * 2));
    await ok(insertFixTimetable.path, {
      weekday: 1,
      time: '09:00',
      courseId: w.course.id,
      teacherId: w.teacher.id,
      areaId: w.room.id,
      reservableCount: 3,
      bookId: null,
      students: [],
    });
    const dry = await ok(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 2), mode: 'add', dryRun: true });
    expect([dry.count, dry.existing, dry.duplicates]).toEqual([2, 1, 1]);
    expect(dry.rows.map(brief)).toEqual(w.rows.slice(1));
    await ok(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 2), mode: 'add' });
    const rows = await ok<Row[]>(queryFixTimetableList.path);
    // The row there before keeps its own seats.
    expect(rows.map(brief)).toEqual([[1, '09:00', w.course.name, w.teacher.name, w.room.name, 3], ...w.rows.slice(1)]);
  });

  it('refuses a week without classes, a day that is not a Monday, and more rows than the template holds; writes nothing', async () => {
    await week(addDays(MONDAY, 7 * 4));
    const before = await ok(queryFixTimetableList.path);
    for (const dryRun of [true, false]) {
      const empty = await env().client.call(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 6), mode: 'replace', dryRun });
      expect([empty.status, empty.msg]).toEqual([400, TemplateMsg.weekEmpty]);
      const tuesday = await env().client.call(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 4 + 1), dryRun });
      expect([tuesday.status, tuesday.msg]).toEqual([400, TemplateMsg.chooseWeek]);
    }
    // A week of 51 classes: the template holds 50.
    const ef = engineFactory(env());
    const { teacher, course } = await ef.scene();
    const full = addDays(MONDAY, 7 * 8);
    for (let i = 0; i < MAX_FIX_ROWS + 1; i++) {
      const day = addDays(full, i % 7);
      const minute = String(Math.floor(i / 7)).padStart(2, '0');
      await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${day} 06:${minute}:00` });
    }
    const over = await env().client.call(FROM_WEEK, { fromDate: full, mode: 'replace' });
    expect([over.status, over.msg]).toEqual([400, Msg.fixRowsMax(MAX_FIX_ROWS)]);
    expect(await ok(queryFixTimetableList.path)).toEqual(before);
  });

  it("never takes another store's classes, nor touches its template", async () => {
    const monday = addDays(MONDAY, 7 * 12);
    const w = await week(monday);
    // The other store: one class in the same week, and a template row of its own.
    const theirs = engineFactory({ ...env(), factory: env().other.factory, storeId: env().other.storeId });
    const t = await theirs.scene();
    await theirs.session({
      courseId: t.course.id,
      teacherId: t.teacher.id,
      startTime: `${addDays(monday, 1)} 12:00:00`,
    });
    const other = env().other.client;
    await other.ok(insertFixTimetable.path, {
      weekday: 4,
      time: '08:00',
      courseId: t.course.id,
      teacherId: t.teacher.id,
      areaId: null,
      reservableCount: 5,
      bookId: null,
      students: [],
    });
    const theirRows = await other.ok(queryFixTimetableList.path);

    const mine = await ok(FROM_WEEK, { fromDate: monday, mode: 'replace' });
    expect(mine.rows.map(brief)).toEqual(w.rows);
    expect(await other.ok(queryFixTimetableList.path)).toEqual(theirRows);
    // Theirs from a week only this store has classes in: nothing to take.
    const none = await other.call(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 14), mode: 'add' });
    expect(none.status).toBe(400);
    await week(addDays(MONDAY, 7 * 14));
    const still = await other.call(FROM_WEEK, { fromDate: addDays(MONDAY, 7 * 14), mode: 'add' });
    expect([still.status, still.msg]).toEqual([400, TemplateMsg.weekEmpty]);
    expect(await other.ok(queryFixTimetableList.path)).toEqual(theirRows);
    expect((await ok(queryFixTimetableList.path)).map(brief)).toEqual(w.rows);
  });

  it('the desk may, a teacher is refused (403) with nothing written', async () => {
    const monday = addDays(MONDAY, 7 * 16);
    const w = await week(monday);
    const teacher = await staffClient(env(), 'teacher', w.teacher.id);
    const refused = await teacher.call(FROM_WEEK, { fromDate: monday, mode: 'replace' });
    expect([refused.status, refused.msg]).toEqual([403, Msg.forbiddenRole]);
    expect(await ok(queryFixTimetableList.path)).toEqual([]);
    const desk = await staffClient(env(), 'desk', null);
    expect((await desk.ok(FROM_WEEK, { fromDate: monday, mode: 'add' })).count).toBe(3);
  });
});
