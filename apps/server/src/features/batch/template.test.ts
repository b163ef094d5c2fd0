import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory } from '../../../test/batch-kit.ts';

const INSERT = `${API}/insert/fix/timetable`;
const UPDATE = `${API}/update/fix/timetable`;
const DELETE = `${API}/delete/fix/timetable`;
const LIST = `${API}/query/fix/timetable/list`;

describeEachDb('weekly template rows', (env) => {
  async function scene() {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene();
    const area = await env().factory.area();
    const book = await env().factory.material();
    const a = await ef.memberWithCard(product.id, { card: { totalCount: 5 } });
    const b = await ef.memberWithCard(product.id, { card: { totalCount: 5 } });
    const base = {
      weekday: 3,
      time: '18:30',
      courseId: course.id,
      teacherId: teacher.id,
      areaId: area.id,
      reservableCount: 4,
      bookId: book.id,
      students: [
        { mcId: a.card.id, studentCount: 1 },
        { mcId: b.card.id, studentCount: 2 },
      ],
    };
    return { ef, teacher, product, course, area, book, a, b, base };
  }

  it('adds, lists, updates and deletes a row with its fixed students', async () => {
    const { client } = env();
    const s = await scene();
    const { id } = await client.ok(INSERT, s.base);
    let list = await client.ok(LIST);
    let row = list.find((r: { id: number }) => r.id === id);
    expect(row).toEqual({
      id,
      weekday: 3,
      time: '18:30',
      courseId: s.course.id,
      courseName: s.course.name,
      teacherId: s.teacher.id,
      teacherName: s.teacher.name,
      areaId: s.area.id,
      areaName: s.area.name,
      reservableCount: 4,
      bookId: s.book.id,
      students: [
        {
          id: expect.any(Number),
          mcId: s.a.card.id,
          memberId: s.a.member.id,
          memberName: s.a.member.name,
          cardName: s.product.cardName,
          studentCount: 1,
        },
        {
          id: expect.any(Number),
          mcId: s.b.card.id,
          memberId: s.b.member.id,
          memberName: s.b.member.name,
          cardName: s.product.cardName,
          studentCount: 2,
        },
      ],
    });
    expect(
      await client.ok(UPDATE, { ...s.base, id, weekday: 0, time: '07:05', areaId: 0, bookId: null, students: [] }),
    ).toBe(null);
    list = await client.ok(LIST);
    row = list.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ weekday: 0, time: '07:05', areaId: null, areaName: null, bookId: null, students: [] });
    expect(await client.ok(DELETE, { id })).toBe(null);
    expect((await client.ok(LIST)).some((r: { id: number }) => r.id === id)).toBe(false);
    expect((await client.call(DELETE, { id })).status).toBe(404);
  });

  it('lists Monday first, Sunday last, then by time', async () => {
    const s = await scene();
    const ids: number[] = [];
    for (const [weekday, time] of [
      [0, '08:00'],
      [1, '09:00'],
      [1, '08:00'],
      [6, '08:00'],
    ] as const) {
      ids.push((await env().client.ok(INSERT, { ...s.base, weekday, time, students: [] })).id);
    }
    const list: { id: number }[] = await env().client.ok(LIST);
    const mine = list.filter((r) => ids.includes(r.id)).map((r) => r.id);
    expect(mine).toEqual([ids[2], ids[1], ids[3], ids[0]]);
    expect((await env().other.client.ok(LIST)).some((r: { id: number }) => ids.includes(r.id))).toBe(false);
  });

  it('checks each field with a Chinese message', async () => {
    const s = await scene();
    const cases: [Record<string, unknown>, string][] = [
      [{ courseId: 0 }, Msg.chooseCourse],
      [{ teacherId: undefined }, Msg.chooseTeacher],
      [{ time: '' }, Msg.chooseTime],
      [{ weekday: 7 }, Msg.chooseWeekday],
      [{ reservableCount: -1 }, Msg.countNotNegative],
      [{ students: [{ mcId: 0, studentCount: 1 }] }, Msg.completeStudent(1)],
      [{ students: [{ mcId: s.a.card.id, studentCount: 1 }, { studentCount: 1 }] }, Msg.completeStudent(2)],
      [{ students: [{ mcId: s.a.card.id, studentCount: 0 }] }, Msg.studentCountMin1],
      [{ reservableCount: 2 }, Msg.studentsCap],
    ];
    for (const [change, msg] of cases) {
      const a = await env().client.call(INSERT, { ...s.base, ...change });
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
  });

  it('names the student and the reason when a card cannot book the course now', async () => {
    const s = await scene();
    const { client, factory } = env();
    await factory.db.updateTable('memberCard').set({ frozen: 1 }).where('id', '=', s.b.card.id).execute();
    let a = await client.call(INSERT, s.base);
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.fixStudentUnusable(2, s.b.member.name, Msg.cardFrozen));

    const otherProduct = await factory.cardProduct();
    const c = await s.ef.memberWithCard(otherProduct.id);
    a = await client.call(INSERT, { ...s.base, students: [{ mcId: c.card.id, studentCount: 1 }] });
    expect(a.msg).toBe(Msg.fixStudentUnusable(1, c.member.name, Msg.cardNotAllowed));

    await factory.db.updateTable('memberCard').set({ usedCount: 5 }).where('id', '=', s.a.card.id).execute();
    a = await client.call(INSERT, { ...s.base, students: [{ mcId: s.a.card.id, studentCount: 1 }] });
    expect(a.msg).toBe(Msg.fixStudentUnusable(1, s.a.member.name, Msg.cardBalance));
  });

  it('refuses the same member twice in one row', async () => {
    const s = await scene();
    const second = await env().factory.memberCard(s.a.member.id, s.product.id);
    const a = await env().client.call(INSERT, {
      ...s.base,
      students: [
        { mcId: s.a.card.id, studentCount: 1 },
        { mcId: second.id, studentCount: 1 },
      ],
    });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.sameMemberTwice(s.a.member.name));
  });

  it('answers 404 for ids of another store and never touches its rows', async () => {
    const s = await scene();
    const o = env().other.factory;
    const oTeacher = await o.teacher();
    const oProduct = await o.cardProduct();
    const oCourse = await o.course({ cardIds: [oProduct.id] });
    const oMember = await o.member();
    const oCard = await o.memberCard(oMember.id, oProduct.id);
    const oArea = await o.area();
    const oBook = await o.material();
    const cases: [Record<string, unknown>, string][] = [
      [{ courseId: oCourse.id }, '课程不存在'],
      [{ teacherId: oTeacher.id }, '老师不存在'],
      [{ areaId: oArea.id }, '场地不存在'],
      [{ bookId: oBook.id }, '教材不存在'],
      [{ students: [{ mcId: oCard.id, studentCount: 1 }] }, '会员卡不存在'],
      // Several wrong: the course first, then the teacher, the venue, the material.
      [{ courseId: oCourse.id, teacherId: oTeacher.id }, '课程不存在'],
      [{ teacherId: oTeacher.id, areaId: oArea.id }, '老师不存在'],
      [{ areaId: oArea.id, bookId: oBook.id }, '场地不存在'],
      [{ teacherId: (await env().factory.teacher({ deleted: 1 })).id }, '老师不存在'],
    ];
    for (const [change, msg] of cases) {
      const a = await env().client.call(INSERT, { ...s.base, ...change });
      expect(a.status, msg).toBe(404);
      expect(a.msg).toBe(msg);
    }
    const theirs = await env().other.client.ok(INSERT, {
      ...s.base,
      courseId: oCourse.id,
      teacherId: oTeacher.id,
      areaId: null,
      bookId: null,
      students: [{ mcId: oCard.id, studentCount: 1 }],
    });
    expect((await env().client.call(UPDATE, { ...s.base, id: theirs.id })).status).toBe(404);
    expect((await env().client.call(DELETE, { id: theirs.id })).status).toBe(404);
    const still = await env().other.client.ok(LIST);
    expect(still.find((r: { id: number }) => r.id === theirs.id).students).toHaveLength(1);
  });
});
