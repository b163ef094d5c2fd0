import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from '../../../test/batch-kit.ts';

const TEACHERS = `${API}/query/has/arrange/course/teachers`;
const COUNT = `${API}/query/has/arrange/course/count`;
const ADD = `${API}/batch/add/member/reservation`;

describeEachDb('drop-in fixed students', (env) => {
  /** A course taught by A (3 sessions from day 7, one on day 1) and B (one on day 8), C teaches another course. */
  async function scene(capacity = 5) {
    const ef = engineFactory(env());
    const { teacher: a, product, course } = await ef.scene();
    const b = await env().factory.teacher();
    const other = await env().factory.course({ cardIds: [product.id] });
    const c = await env().factory.teacher();
    const at = (day: number, time = '10:00') => `${addDays(FUTURE, day)} ${time}:00`;
    const mk = (teacherId: number, day: number, courseId = course.id) =>
      ef.session({ courseId, teacherId, startTime: at(day), reservableCount: capacity });
    const early = await mk(a.id, 1);
    const a1 = await mk(a.id, 7);
    const a2 = await mk(a.id, 14);
    const a3 = await mk(a.id, 21);
    const b1 = await mk(b.id, 8);
    await mk(c.id, 9, other.id);
    const m = await ef.memberWithCard(product.id, { card: { totalCount: 10 } });
    const startDate = addDays(FUTURE, 5);
    return { ef, a, b, c, product, course, early, a1, a2, a3, b1, m, startDate };
  }

  it('lists the teachers with sessions of the course from startDate on', async () => {
    const s = await scene();
    const list = await env().client.ok(TEACHERS, { cid: s.course.id, startDate: s.startDate });
    expect(list).toEqual([
      { id: s.a.id, name: s.a.name },
      { id: s.b.id, name: s.b.name },
    ]);
    expect(await env().client.ok(TEACHERS, { cid: s.course.id, startDate: addDays(FUTURE, 15) })).toEqual([
      { id: s.a.id, name: s.a.name },
    ]);
  });

  it('counts the sessions of those teachers from startDate on', async () => {
    const s = await scene();
    expect(await env().client.ok(COUNT, { cid: s.course.id, startDate: s.startDate, tids: [s.a.id] })).toBe(3);
    expect(await env().client.ok(COUNT, { cid: s.course.id, startDate: s.startDate, tids: [s.a.id, s.b.id] })).toBe(4);
    expect(await env().client.ok(COUNT, { cid: s.course.id, startDate: FUTURE, tids: [s.a.id] })).toBe(4);
  });

  it('checks the payloads with the spec messages', async () => {
    const s = await scene();
    const body = { mcId: s.m.card.id, cid: s.course.id, tids: [s.a.id], startDate: s.startDate, times: 2 };
    const cases: [string, Record<string, unknown>, string][] = [
      [ADD, { times: 0 }, Msg.timesNotZero],
      [ADD, { times: 501 }, Msg.timesMax],
      [ADD, { tids: [] }, Msg.chooseTeachers],
      [ADD, { tids: undefined }, Msg.chooseTeachers],
      [ADD, { cid: 0 }, Msg.chooseCourse],
      [ADD, { startDate: '' }, Msg.chooseStartDate],
      [ADD, { mcId: 0 }, Msg.fillAll],
      [ADD, { mcId: undefined }, Msg.fillAll],
      [COUNT, { tids: [] }, Msg.chooseTeachers],
      [COUNT, { cid: 0 }, Msg.chooseCourse],
      [TEACHERS, { startDate: undefined }, Msg.chooseStartDate],
      [TEACHERS, { cid: undefined }, Msg.chooseCourse],
    ];
    for (const [path, change, msg] of cases) {
      const a = await env().client.call(path, { ...body, ...change });
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
  });

  it('books the card into the next sessions of the chosen teachers, skipping ones already booked', async () => {
    const s = await scene();
    await env().client.ok(`${API}/add/member/reservation`, { mcId: s.m.card.id, tid: s.a1.id, studentCount: 1 });
    const a = await env().client.call(ADD, {
      mcId: s.m.card.id,
      cid: s.course.id,
      tids: [s.a.id, s.b.id],
      startDate: s.startDate,
      times: 2,
    });
    expect(a.code).toBe(0);
    expect(a.data).toEqual({ count: 2 });
    const booked = await env()
      .factory.db.selectFrom('reservation')
      .select('timetableId')
      .where('memberCardId', '=', s.m.card.id)
      .orderBy('timetableId')
      .execute();
    expect(booked.map((r) => r.timetableId).sort()).toEqual([s.a1.id, s.b1.id, s.a2.id].sort());
    expect((await s.ef.cardRow(s.m.card.id)).usedCount).toBe(3);
    await expectInvariants(env().factory.db, env().storeId);
  });

  it('refuses when fewer sessions than asked remain, writing nothing', async () => {
    const s = await scene();
    const before = await snapshot(env().factory.db, env().storeId);
    const a = await env().client.call(ADD, {
      mcId: s.m.card.id,
      cid: s.course.id,
      tids: [s.a.id],
      startDate: s.startDate,
      times: 4,
    });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.fewerSessions(3));
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });

  it('is all or nothing: a full session half way leaves nothing and names date and member', async () => {
    const s = await scene(1);
    const filler = await s.ef.memberWithCard(s.product.id);
    await env().client.ok(`${API}/add/member/reservation`, { mcId: filler.card.id, tid: s.a2.id, studentCount: 1 });
    const before = await snapshot(env().factory.db, env().storeId);
    const a = await env().client.call(ADD, {
      mcId: s.m.card.id,
      cid: s.course.id,
      tids: [s.a.id],
      startDate: s.startDate,
      times: 3,
    });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.arrangeFailed(`${addDays(FUTURE, 14)} 10:00`, s.m.member.name, Msg.sessionFull));
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });

  it('adds pendings in deduction mode 1', async () => {
    const s = await scene();
    await s.ef.setMode(1);
    try {
      const a = await env().client.ok(ADD, {
        mcId: s.m.card.id,
        cid: s.course.id,
        tids: [s.a.id],
        startDate: s.startDate,
        times: 3,
      });
      expect(a).toEqual({ count: 3 });
      const pendings = await env()
        .factory.db.selectFrom('pending')
        .select('timetableId')
        .where('memberId', '=', s.m.member.id)
        .execute();
      expect(pendings).toHaveLength(3);
      expect((await s.ef.cardRow(s.m.card.id)).usedCount).toBe(0);
      await expectInvariants(env().factory.db, env().storeId);
    } finally {
      await s.ef.setMode(0);
    }
  });

  it('answers 404 for ids of another store', async () => {
    const s = await scene();
    const o = env().other.factory;
    const oProduct = await o.cardProduct();
    const oCard = await o.memberCard((await o.member()).id, oProduct.id);
    const oCourse = await o.course();
    const oTeacher = await o.teacher();
    const body = { mcId: s.m.card.id, cid: s.course.id, tids: [s.a.id], startDate: s.startDate, times: 1 };
    const cases: [string, Record<string, unknown>, string][] = [
      [ADD, { mcId: oCard.id }, '会员卡不存在'],
      [ADD, { cid: oCourse.id }, '课程不存在'],
      [ADD, { tids: [s.a.id, oTeacher.id] }, '老师不存在'],
      [COUNT, { tids: [oTeacher.id] }, '老师不存在'],
      [COUNT, { cid: oCourse.id }, '课程不存在'],
      [TEACHERS, { cid: oCourse.id }, '课程不存在'],
    ];
    for (const [path, change, msg] of cases) {
      const a = await env().client.call(path, { ...body, ...change });
      expect(a.status, msg).toBe(404);
      expect(a.msg).toBe(msg);
    }
  });
});
