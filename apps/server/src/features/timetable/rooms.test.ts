import { batchArrangeCourse, copyTimetable, insertTimetable, Msg, updateTimetable } from '@studio/contract';
import { expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { snapshot } from '../../../test/batch-kit.ts';

describeEachDb('rooms hold one class at a time (a venue with rooms is a branch, not a room)', (env) => {
  const insert = (body: Record<string, unknown>) => env().client.call(insertTimetable.path, body);

  async function scene() {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ course: { duration: 60 } });
    const branch = await env().factory.area({ name: `分馆${Date.now() % 100000}` });
    const room = await env().factory.area({ name: `瑜伽室${Date.now() % 100000}`, parentId: branch.id });
    const teacher2 = await env().factory.teacher();
    return { e, ...s, branch, room, teacher2 };
  }

  it('refuses a second class in a room at the same time, by another teacher, on add and on edit', async () => {
    const { course, teacher, teacher2, room } = await scene();
    const base = { courseId: course.id, date: '2099-05-06', areaId: room.id };
    expect((await insert({ ...base, teacherId: teacher.id, time: '10:00' })).code).toBe(0);
    const clash = await insert({ ...base, teacherId: teacher2.id, time: '10:30' });
    expect([clash.status, clash.msg]).toEqual([409, Msg.roomConflict(room.name, '2099-05-06 10:00-11:00')]);
    expect((clash.data as { conflicts: unknown[] }).conflicts).toHaveLength(1);
    // back to back is fine; so is the same time in no room
    expect((await insert({ ...base, teacherId: teacher2.id, time: '11:00' })).code).toBe(0);
    const teacher3 = await env().factory.teacher();
    expect((await insert({ ...base, areaId: null, teacherId: teacher3.id, time: '10:30' })).code).toBe(0);
    // moving the 11:00 class onto 10:30 in the room is refused too
    const rows = await env()
      .database.db.selectFrom('timetable')
      .select(['id', 'startTime'])
      .where('areaId', '=', room.id)
      .orderBy('startTime')
      .execute();
    const moved = await env().client.call(updateTimetable.path, {
      id: rows[1].id,
      teacherId: teacher2.id,
      date: '2099-05-06',
      time: '10:30',
      count: 10,
      areaId: room.id,
      bookId: null,
    });
    expect([moved.status, moved.msg]).toEqual([409, Msg.roomConflict(room.name, '2099-05-06 10:00-11:00')]);
  });

  it('a branch (a venue with rooms under it) takes classes at the same time', async () => {
    const { course, teacher, teacher2, branch } = await scene();
    const base = { courseId: course.id, date: '2099-05-07', areaId: branch.id, time: '10:00' };
    expect((await insert({ ...base, teacherId: teacher.id })).code).toBe(0);
    expect((await insert({ ...base, teacherId: teacher2.id })).code).toBe(0);
  });

  it('batch scheduling refuses a room taken at those times and names the dates', async () => {
    const { course, teacher, teacher2, room } = await scene();
    expect(
      (await insert({ courseId: course.id, teacherId: teacher.id, date: '2099-05-13', time: '19:00', areaId: room.id }))
        .code,
    ).toBe(0);
    const run = await env().client.call(batchArrangeCourse.path, {
      cid: course.id,
      tid: teacher2.id,
      areaId: room.id,
      students: 10,
      startDate: '2099-05-04',
      courseTimes: [{ weekday: 3, arrangeTime: '19:00' }],
      arrangeTimes: 3,
    });
    expect([run.status, run.msg]).toEqual([409, Msg.roomConflict(room.name, '2099-05-13 19:00')]);
    expect((run.data as { dates: string[] }).dates).toEqual(['2099-05-13 19:00']);
  });

  it("copy refuses a room taken at the copies' times, like every other writer, and writes nothing", async () => {
    const { course, teacher, teacher2, room } = await scene();
    // A 单车房 class on the 20th; another teacher's class in the room a week later, half an hour on.
    const add = (teacherId: number, date: string, time: string) =>
      insert({ courseId: course.id, teacherId, date, time, areaId: room.id });
    expect((await add(teacher.id, '2099-05-20', '19:00')).code).toBe(0);
    expect((await add(teacher2.id, '2099-05-27', '19:30')).code).toBe(0);
    const before = await snapshot(env().factory.db, env().storeId);
    const body = {
      formerFromDate: '2099-05-20',
      formerToDate: '2099-05-20',
      afterFromDate: '2099-05-27',
      afterToDate: '2099-05-27',
      isCopyPending: 0,
      areaId: null,
    };
    const copy = await env().client.call(copyTimetable.path, body);
    expect([copy.status, copy.msg]).toEqual([409, Msg.roomConflict(room.name, '2099-05-27 19:00')]);
    expect((copy.data as { dates: string[] }).dates).toEqual(['2099-05-27 19:00']);
    // the preview says the same, and neither wrote anything
    const preview = await env().client.call(copyTimetable.path, { ...body, dryRun: true });
    expect(preview.data.preview).toMatchObject({
      refusal: Msg.roomConflict(room.name, '2099-05-27 19:00'),
      clashes: ['2099-05-27 19:00'],
    });
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
    // a free week takes the copy, in its room
    expect(
      (await env().client.call(copyTimetable.path, { ...body, afterFromDate: '2099-06-03', afterToDate: '2099-06-03' }))
        .data,
    ).toEqual({ count: 1 });
  });
});
