import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from '../../../test/batch-kit.ts';

const ARRANGE = `${API}/batch/arrange/course`;

describeEachDb('batch scheduling', (env) => {
  async function scene(total = 10) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene({ course: { duration: 45 } });
    const area = await env().factory.area();
    const a = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    const b = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    const body = {
      cid: course.id,
      areaId: area.id,
      students: 5,
      tid: teacher.id,
      startDate: FUTURE,
      arrangeTimes: 3,
      courseTimes: [
        { weekday: 3, arrangeTime: '10:00' },
        { weekday: 1, arrangeTime: '09:00' },
      ],
      mcIds: [a.card.id, b.card.id],
      isOnline: 1,
    };
    return { ef, teacher, product, course, area, a, b, body };
  }

  it('checks the payload with the spec messages', async () => {
    const s = await scene();
    const cases: [Record<string, unknown>, string][] = [
      [{ cid: 0 }, Msg.chooseCourse],
      [{ cid: undefined }, Msg.chooseCourse],
      [{ students: 0 }, Msg.studentsNotZero],
      [{ tid: 0 }, Msg.chooseTeacher],
      [{ startDate: '' }, Msg.chooseStartDate],
      [{ courseTimes: [] }, Msg.chooseWeekdays],
      [{ courseTimes: undefined }, Msg.chooseWeekdays],
      [{ arrangeTimes: 0 }, Msg.arrangeTimes],
      [{ arrangeTimes: 501 }, Msg.arrangeTimesMax],
      [{ courseTimes: [{ weekday: 1, arrangeTime: '09:00' }, { weekday: 3 }] }, Msg.weekdayTime('三')],
      [{ courseTimes: [{ weekday: 0, arrangeTime: '' }] }, Msg.weekdayTime('日')],
      [{ students: 1 }, Msg.studentsCap],
      [{ mcIds: [s.a.card.id, 0] }, Msg.completeStudent(2)],
      [{ mcIds: [null] }, Msg.completeStudent(1)],
    ];
    for (const [change, msg] of cases) {
      const a = await env().client.call(ARRANGE, { ...s.body, ...change });
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
  });

  it('makes arrangeTimes sessions on the ticked weekdays and books every fixed student', async () => {
    const s = await scene();
    const a = await env().client.call(ARRANGE, s.body);
    expect(a.code).toBe(0);
    expect(a.data.count).toBe(3);
    const rows = await env()
      .factory.db.selectFrom('timetable')
      .selectAll()
      .where('id', 'in', a.data.ids)
      .orderBy('startTime')
      .execute();
    expect(rows.map((r) => [r.startTime, r.endTime])).toEqual([
      [`${FUTURE} 09:00:00`, `${FUTURE} 09:45:00`],
      [`${addDays(FUTURE, 2)} 10:00:00`, `${addDays(FUTURE, 2)} 10:45:00`],
      [`${addDays(FUTURE, 7)} 09:00:00`, `${addDays(FUTURE, 7)} 09:45:00`],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({
        reservableCount: 5,
        realCount: 2,
        areaId: s.area.id,
        isOnline: 1,
        courseId: s.course.id,
      });
    }
    expect((await s.ef.cardRow(s.a.card.id)).usedCount).toBe(3);
    expect((await s.ef.cardRow(s.b.card.id)).usedCount).toBe(3);
    await expectInvariants(env().factory.db, env().storeId);
  });

  it('starts on startDate itself when it is a ticked weekday, and walks past unticked days', async () => {
    const s = await scene();
    const a = await env().client.ok(ARRANGE, {
      ...s.body,
      startDate: addDays(FUTURE, 20),
      courseTimes: [{ weekday: 0, arrangeTime: '20:00' }],
      arrangeTimes: 2,
      mcIds: [],
    });
    const rows = await env()
      .factory.db.selectFrom('timetable')
      .select('startTime')
      .where('id', 'in', a.ids)
      .orderBy('startTime')
      .execute();
    expect(rows.map((r) => r.startTime)).toEqual([
      `${addDays(FUTURE, 20)} 20:00:00`,
      `${addDays(FUTURE, 27)} 20:00:00`,
    ]);
  });

  it('adds pendings in deduction mode 1 and deducts nothing', async () => {
    const s = await scene();
    await s.ef.setMode(1);
    try {
      const before = await snapshot(env().factory.db, env().storeId);
      const a = await env().client.ok(ARRANGE, { ...s.body, startDate: addDays(FUTURE, 70) });
      const after = await snapshot(env().factory.db, env().storeId);
      expect(after.pendings - before.pendings).toBe(6);
      expect(after.reservations).toBe(before.reservations);
      expect(a.count).toBe(3);
      expect((await s.ef.cardRow(s.a.card.id)).usedCount).toBe(0);
      await expectInvariants(env().factory.db, env().storeId);
    } finally {
      await s.ef.setMode(0);
    }
  });

  it('is all or nothing: a card running out on the third session leaves nothing, naming date and member', async () => {
    const s = await scene(2);
    const body = { ...s.body, startDate: addDays(FUTURE, 140) };
    const before = await snapshot(env().factory.db, env().storeId);
    const a = await env().client.call(ARRANGE, body);
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.arrangeFailed(`${addDays(FUTURE, 147)} 09:00`, s.a.member.name, Msg.cardBalance));
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });

  it('refuses a teacher clash, listing every clashing date, and writes nothing', async () => {
    const s = await scene();
    await s.ef.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(FUTURE, 212)} 09:30:00`,
    });
    await s.ef.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(FUTURE, 217)} 08:30:00`,
    });
    const before = await snapshot(env().factory.db, env().storeId);
    const a = await env().client.call(ARRANGE, { ...s.body, startDate: addDays(FUTURE, 210), arrangeTimes: 6 });
    expect(a.status).toBe(409);
    const dates = [`${addDays(FUTURE, 212)} 10:00`, `${addDays(FUTURE, 217)} 09:00`];
    expect(a.msg).toBe(Msg.teacherConflict(dates.join('、')));
    expect(a.data).toEqual({ dates });
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });

  it('refuses two times of one weekday that overlap each other', async () => {
    const s = await scene();
    const a = await env().client.call(ARRANGE, {
      ...s.body,
      startDate: addDays(FUTURE, 280),
      courseTimes: [
        { weekday: 1, arrangeTime: '09:00' },
        { weekday: 1, arrangeTime: '09:30' },
      ],
      arrangeTimes: 2,
    });
    expect(a.status).toBe(409);
    expect(a.data.dates).toEqual([`${addDays(FUTURE, 280)} 09:00`, `${addDays(FUTURE, 280)} 09:30`]);
  });

  it('refuses the same member twice among the fixed students', async () => {
    const s = await scene();
    const again = await env().factory.memberCard(s.a.member.id, s.product.id);
    const a = await env().client.call(ARRANGE, { ...s.body, mcIds: [s.a.card.id, again.id] });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.sameMemberTwice(s.a.member.name));
  });

  it('answers 404 for ids of another store', async () => {
    const s = await scene();
    const o = env().other.factory;
    const oProduct = await o.cardProduct();
    const oMember = await o.member();
    const cases: [Record<string, unknown>, string][] = [
      [{ cid: (await o.course()).id }, '课程不存在'],
      [{ tid: (await o.teacher()).id }, '老师不存在'],
      [{ areaId: (await o.area()).id }, '场地不存在'],
      [{ mcIds: [(await o.memberCard(oMember.id, oProduct.id)).id] }, '会员卡不存在'],
      // Several wrong: the course first, then the teacher, the venue.
      [{ cid: (await o.course()).id, tid: (await o.teacher()).id }, '课程不存在'],
      [{ tid: (await o.teacher()).id, areaId: (await o.area()).id }, '老师不存在'],
      [{ tid: (await env().factory.teacher({ deleted: 1 })).id }, '老师不存在'],
    ];
    const before = await snapshot(env().factory.db, env().storeId);
    for (const [change, msg] of cases) {
      const a = await env().client.call(ARRANGE, { ...s.body, ...change });
      expect(a.status, msg).toBe(404);
      expect(a.msg).toBe(msg);
    }
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });
});
