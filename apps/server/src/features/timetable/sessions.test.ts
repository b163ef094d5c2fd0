import {
  addGroupPending,
  addMemberReservation,
  batchArrangeCourse,
  cancelTimetable,
  insertTimetable,
  moduleStatus,
  Msg,
  queryTimetableByDate,
  queryTimetableInfo,
  updateModuleStatus,
  updateTimetable,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('sessions: add, edit, delete', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const insert = (body: Record<string, unknown>) => env().client.call(insertTimetable.path, body);
  const update = (body: Record<string, unknown>) => env().client.call(updateTimetable.path, body);
  const info = (id: number) => env().client.ok(queryTimetableInfo.path, { id });
  afterEach(async () => {
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  async function sessionsOn(date: string, teacherId?: number) {
    const days = await env().client.ok(queryTimetableByDate.path, { fromDate: date, toDate: date, teacherId });
    return days.flatMap((d: { list: { id: number }[] }) => d.list);
  }

  it('starts a session as online when the payload does not say and 新课程默认在线教室 (module 1) is on', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const setModule = (status: number) => env().client.ok(updateModuleStatus.path, { moduleId: 1, status });
    try {
      await setModule(1);
      expect((await env().client.ok(moduleStatus.path, { moduleId: 1 })).status).toBe(1);
      const base = { courseId: course.id, teacherId: teacher.id, areaId: null, bookId: null };
      expect((await insert({ ...base, date: '2099-03-09', time: '09:00' })).code).toBe(0);
      expect((await insert({ ...base, date: '2099-03-09', time: '11:00', isOnline: 0 })).code).toBe(0);
      const run = await env().client.call(batchArrangeCourse.path, {
        cid: course.id,
        tid: teacher.id,
        areaId: null,
        students: 5,
        startDate: '2099-03-10',
        courseTimes: [{ weekday: 2, arrangeTime: '19:00' }],
        arrangeTimes: 1,
      });
      expect(run.code, run.msg).toBe(0);
      await setModule(0);
      expect((await insert({ ...base, date: '2099-03-09', time: '14:00' })).code).toBe(0);
      const day = async (d: string) =>
        ((await sessionsOn(d, teacher.id)) as { fromTime: string; isOnline: number }[]).map((x) => [
          x.fromTime.slice(11, 16),
          x.isOnline,
        ]);
      expect(await day('2099-03-09')).toEqual([
        ['09:00', 1],
        ['11:00', 0],
        ['14:00', 0],
      ]);
      expect(await day('2099-03-10')).toEqual([['19:00', 1]]);
    } finally {
      await setModule(0);
    }
  });

  it('adds a session with the course defaults: end, capacity, colour, limits, allowed cards', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene({
      course: { count: 12, duration: 45, color: '#ff0000', genderLimit: 1, ageLimit: 1, syear: 3, eyear: 6 },
    });
    const area = await env().factory.area();
    const a = await insert({
      courseId: course.id,
      teacherId: teacher.id,
      date: '2099-03-02',
      time: '09:30',
      areaId: area.id,
      bookId: 0,
      isOnline: 0,
    });
    expect(a.code).toBe(0);
    const [row] = await sessionsOn('2099-03-02', teacher.id);
    const s = await info(row.id);
    expect(s).toMatchObject({
      courseId: course.id,
      courseName: course.name,
      startTime: '2099-03-02 09:30:00',
      endTime: '2099-03-02 10:15:00',
      duration: 45,
      reservableCount: 12,
      realCount: 0,
      color: '#ff0000',
      genderLimit: 1,
      ageLimit: 1,
      syear: 3,
      eyear: 6,
      teacherId: teacher.id,
      teacherName: teacher.name,
      areaId: area.id,
      areaName: area.name,
      bookId: null,
      book: null,
      isOnline: 0,
      cards: [{ id: product.id, name: product.cardName }],
      deductionMode: 0,
    });
  });

  it('takes the capacity given, and validates with the spec messages', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const base = { courseId: course.id, teacherId: teacher.id, date: '2099-03-03', time: '08:00' };
    expect((await insert({ ...base, reservableCount: 3 })).code).toBe(0);
    const [row] = await sessionsOn('2099-03-03', teacher.id);
    expect(row.reservableCount).toBe(3);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, teacherId: 0 }, Msg.chooseTeacher],
      [{ ...base, teacherId: undefined }, Msg.chooseTeacher],
      [{ ...base, date: undefined }, Msg.chooseDate],
      [{ ...base, date: '' }, Msg.chooseDate],
      [{ ...base, time: undefined }, Msg.chooseTime],
      [{ ...base, reservableCount: -1 }, Msg.countNotNegative],
      [{ ...base, reservableCount: 'x' }, Msg.fillAll],
      [{ ...base, reservableCount: 1.5 }, Msg.fillAll],
      [{ ...base, courseId: undefined }, Msg.fillAll],
      [{ ...base, courseId: 0 }, Msg.fillAll],
    ];
    for (const [body, msg] of cases) {
      const a = await insert(body);
      expect([a.status, a.msg]).toEqual([400, msg]);
    }
  });

  it('refuses ids of another store with 404', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const o = env().other.factory;
    const base = { courseId: course.id, teacherId: teacher.id, date: '2099-03-04', time: '08:00' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, courseId: (await o.course()).id }, '课程不存在'],
      [{ ...base, teacherId: (await o.teacher()).id }, '老师不存在'],
      [{ ...base, areaId: (await o.area()).id }, '场地不存在'],
      [{ ...base, bookId: (await o.material()).id }, '教材不存在'],
    ];
    for (const [body, msg] of cases) {
      const a = await insert(body);
      expect([a.status, a.msg]).toEqual([404, msg]);
    }
    expect(await sessionsOn('2099-03-04')).toEqual([]);
  });

  it('refuses a teacher clash with a clear 409, and allows back-to-back sessions', async () => {
    const e = ef();
    const { teacher, course } = await e.scene({ course: { duration: 60 } });
    const base = { courseId: course.id, teacherId: teacher.id, date: '2099-03-05' };
    expect((await insert({ ...base, time: '10:00' })).code).toBe(0);
    const clash = await insert({ ...base, time: '10:30' });
    expect([clash.status, clash.msg]).toEqual([409, Msg.teacherConflict('2099-03-05 10:00-11:00')]);
    expect((await insert({ ...base, time: '11:00' })).code).toBe(0);
    expect((await insert({ ...base, time: '09:00' })).code).toBe(0);
    const other = await env().factory.teacher();
    expect((await insert({ ...base, teacherId: other.id, time: '10:30' })).code).toBe(0);
  });

  it('edits teacher, time (keeping the duration), capacity, area and material', async () => {
    const e = ef();
    const { teacher, course } = await e.scene({ course: { duration: 90 } });
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2099-04-01 10:00:00' });
    const t2 = await env().factory.teacher();
    const area = await env().factory.area();
    const book = await env().factory.material();
    const chapter = await env().factory.material({ parentId: book.id, level: 2, name: '第一章' });
    await env().factory.material({ parentId: chapter.id, level: 3, name: '第一课' });
    const a = await update({
      id: s.id,
      teacherId: t2.id,
      date: '2099-04-02',
      time: '18:30',
      count: 4,
      areaId: area.id,
      bookId: book.id,
    });
    expect(a.code).toBe(0);
    expect(await info(s.id)).toMatchObject({
      teacherId: t2.id,
      startTime: '2099-04-02 18:30:00',
      endTime: '2099-04-02 20:00:00',
      reservableCount: 4,
      areaId: area.id,
      bookId: book.id,
      book: { id: book.id, name: book.name, children: [{ name: '第一章', children: [{ name: '第一课' }] }] },
    });
    // Moving a session over its own old time is not a clash with itself.
    expect((await update({ id: s.id, teacherId: t2.id, date: '2099-04-02', time: '19:00', count: 4 })).code).toBe(0);
  });

  it('refuses a capacity below the booked seats, a clash, bad input and other stores', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2099-04-05 10:00:00' });
    await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2099-04-05 12:00:00' });
    const { card } = await e.memberWithCard(product.id);
    await env().client.ok(addMemberReservation.path, { mcId: card.id, tid: s.id, studentCount: 3 });
    const base = { id: s.id, teacherId: teacher.id, date: '2099-04-05', time: '10:00' };
    const low = await update({ ...base, count: 2 });
    expect([low.status, low.msg]).toEqual([409, Msg.capacityBelowBooked]);
    expect((await update({ ...base, count: 3 })).code).toBe(0);
    const clash = await update({ ...base, time: '11:30', count: 3 });
    expect([clash.status, clash.msg]).toEqual([409, Msg.teacherConflict('2099-04-05 12:00-13:00')]);
    expect((await update({ ...base, count: -1 })).msg).toBe(Msg.countNotNegative);
    expect((await update({ ...base, count: 3, teacherId: 0 })).msg).toBe(Msg.chooseTeacher);
    expect((await update({ ...base, count: 3, time: '' })).msg).toBe(Msg.chooseTime);
    expect((await update({ ...base, count: 3, date: '' })).msg).toBe(Msg.chooseDate);
    const foreign = await env().other.client.call(updateTimetable.path, { ...base, count: 3 });
    expect(foreign.status).toBe(404);
    expect((await info(s.id)).startTime).toBe('2099-04-05 10:00:00');
  });

  it('deletes a session: cancels and refunds every booking and pending, in one go', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: 2 } });
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} 15:00:00` });
    const a = await e.memberWithCard(product.id);
    const b = await e.memberWithCard(product.id);
    await env().client.ok(addMemberReservation.path, { mcId: a.card.id, tid: s.id, studentCount: 2 });
    await env().client.ok(addMemberReservation.path, { mcId: b.card.id, tid: s.id });
    await e.setMode(1);
    const c = await e.memberWithCard(product.id);
    try {
      await env().client.ok(addGroupPending.path, { mid: c.member.id, tid: s.id });
    } finally {
      await e.setMode(0);
    }
    expect((await e.sessionRow(s.id)).realCount).toBe(4);
    const other = await env().other.client.call(cancelTimetable.path, { id: s.id });
    expect([other.status, other.msg]).toEqual([404, '课程不存在']);
    expect((await env().client.call(cancelTimetable.path, { id: s.id })).code).toBe(0);
    expect((await e.cardRow(a.card.id)).usedCount).toBe(0);
    expect((await e.cardRow(b.card.id)).usedCount).toBe(0);
    const row = await e.sessionRow(s.id);
    expect([row.deleted, row.realCount]).toEqual([1, 0]);
    const gone = await env().client.call(queryTimetableInfo.path, { id: s.id });
    expect([gone.status, gone.msg]).toEqual([404, '课程不存在']);
    expect((await env().client.call(cancelTimetable.path, { id: s.id })).status).toBe(404);
  });
});
