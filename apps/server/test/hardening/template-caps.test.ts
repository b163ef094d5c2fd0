// The weekly template's caps (rows per store, fixed students per row) bound the longest write
// transaction: refused with their messages at save, also when saves race, and again at run time
// for rows stored before the caps existed.
import { MAX_FIX_ROWS, MAX_FIX_STUDENTS, Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { snapshot } from '../batch-kit.ts';
import { EngineFactory } from '../factory-engine.ts';
import { describeEachDb, newStore, type TestEnv } from '../harness.ts';

const API = '/store/api';

async function templateStore(env: TestEnv) {
  const s = await newStore(env.app, env.database);
  const ef = new EngineFactory(s.factory);
  const { teacher, product, course } = await ef.scene();
  const cards: number[] = [];
  for (let i = 0; i <= MAX_FIX_STUDENTS; i++) {
    cards.push((await ef.memberWithCard(product.id, { card: { totalCount: 1000 } })).card.id);
  }
  const row = (students: number, weekday = 1) => ({
    weekday,
    time: '09:00',
    courseId: course.id,
    teacherId: teacher.id,
    areaId: null,
    reservableCount: 100,
    bookId: null,
    students: cards.slice(0, students).map((mcId) => ({ mcId, studentCount: 1 })),
  });
  /** Stores `n` rows straight in the database (as rows saved before the caps would be). */
  const storeRows = async (n: number) => {
    await s.factory.db
      .insertInto('fixTimetable')
      .values(
        Array.from({ length: n }, (_, i) => ({
          storeId: s.storeId,
          weekday: i % 7,
          time: `${String(6 + (i % 14)).padStart(2, '0')}:00`,
          courseId: course.id,
          teacherId: teacher.id,
          areaId: null,
          bookId: null,
          reservableCount: 10,
          createdAt: '2026-01-01 00:00:00',
        })),
      )
      .execute();
  };
  return { ...s, row, storeRows };
}

describeEachDb('weekly template caps', (env) => {
  it(`a row with more than ${MAX_FIX_STUDENTS} fixed students is refused, on insert and on update`, async () => {
    const s = await templateStore(env());
    const over = await s.client.call(`${API}/insert/fix/timetable`, s.row(MAX_FIX_STUDENTS + 1));
    expect([over.status, over.msg]).toEqual([400, Msg.fixStudentsMax(MAX_FIX_STUDENTS)]);
    const { id } = await s.client.ok(`${API}/insert/fix/timetable`, s.row(MAX_FIX_STUDENTS));
    const upd = await s.client.call(`${API}/update/fix/timetable`, { id, ...s.row(MAX_FIX_STUDENTS + 1) });
    expect([upd.status, upd.msg]).toEqual([400, Msg.fixStudentsMax(MAX_FIX_STUDENTS)]);
  });

  it(`a row beyond ${MAX_FIX_ROWS} is refused, also when ten saves of the last free place race`, async () => {
    const s = await templateStore(env());
    await s.storeRows(MAX_FIX_ROWS - 1);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.client.call(`${API}/insert/fix/timetable`, s.row(1, i % 7))),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.msg === Msg.fixRowsMax(MAX_FIX_ROWS))).toHaveLength(9);
    const rows = await s.client.ok<unknown[]>(`${API}/query/fix/timetable/list`, {});
    expect(rows).toHaveLength(MAX_FIX_ROWS);
  });

  it('a run over a template stored beyond the caps is refused and writes nothing', async () => {
    const s = await templateStore(env());
    await s.storeRows(MAX_FIX_ROWS + 1);
    const before = await snapshot(s.factory.db, s.storeId);
    const a = await s.client.call(`${API}/batch/arrange/week/course`, { fromDate: '2099-06-01', arrangeWeeks: 1 });
    expect([a.status, a.msg]).toEqual([400, Msg.fixRowsMax(MAX_FIX_ROWS)]);
    expect(await snapshot(s.factory.db, s.storeId)).toEqual(before);
  });
});
