import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { dataVersion } from '../../db/data-version.ts';
import { addDays } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from '../../../test/batch-kit.ts';

const COPY = `${API}/copy/timetable`;

describeEachDb('copy schedule', (env) => {
  /** Sessions in week `w` (days w*7 .. w*7+6 from FUTURE) in venue child-of-parent, another venue and none. */
  async function scene(w: number) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene();
    const parent = await env().factory.area();
    const child = await env().factory.area({ parentId: parent.id });
    const elsewhere = await env().factory.area();
    const day = (d: number) => addDays(FUTURE, w * 7 + d);
    const inChild = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${day(0)} 09:00:00`,
      endTime: `${day(0)} 10:30:00`,
      reservableCount: 3,
      venueId: child.id,
    });
    const inParent = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${day(3)} 18:00:00`,
      venueId: parent.id,
    });
    const inOther = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${day(5)} 08:00:00`,
      venueId: elsewhere.id,
    });
    const noArea = await ef.session({ courseId: course.id, teacherId: teacher.id, startTime: `${day(6)} 08:00:00` });
    const from = day(0);
    const to = day(6);
    return {
      ef,
      teacher,
      product,
      course,
      parent,
      child,
      elsewhere,
      inChild,
      inParent,
      inOther,
      noArea,
      from,
      to,
      day,
    };
  }

  const range = (from: string, to: string, after: string, o: Record<string, unknown> = {}) => ({
    formerFromDate: from,
    formerToDate: to,
    afterFromDate: after,
    afterToDate: addDays(after, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000)),
    isCopyPending: 0,
    ...o,
  });

  it('checks both ranges with the spec messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ formerFromDate: '' }, Msg.chooseDates],
      [{ afterToDate: undefined }, Msg.chooseDates],
      [{ formerToDate: addDays(FUTURE, 7), afterToDate: addDays(FUTURE, 21) }, Msg.copyMax7],
      [{ afterToDate: addDays(FUTURE, 19) }, Msg.copyDaysDiffer],
      [{ formerToDate: addDays(FUTURE, -1) }, Msg.rangeOrder],
    ];
    const body = range(FUTURE, addDays(FUTURE, 6), addDays(FUTURE, 14));
    for (const [change, msg] of cases) {
      const a = await env().client.call(COPY, { ...body, ...change });
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
  });

  it('recreates each session at the same offset and time with its own settings', async () => {
    const s = await scene(10);
    const db = env().factory.db;
    const card2 = await env().factory.cardProduct();
    const m = await s.ef.memberWithCard(s.product.id);
    await env().client.ok(`${API}/add/member/reservation`, { mcId: m.card.id, tid: s.inChild.id, studentCount: 1 });
    await db
      .updateTable('timetable')
      .set({ color: '#ff0000', genderLimit: 1, ageLimit: 1, syear: 3, eyear: 12 })
      .where('id', '=', s.inChild.id)
      .execute();
    await db
      .insertInto('timetableCard')
      .values({ storeId: env().storeId, timetableId: s.inChild.id, cardId: card2.id })
      .execute();

    const a = await env().client.call(COPY, range(s.from, s.to, s.day(14)));
    expect(a.code).toBe(0);
    expect(a.data).toEqual({ count: 4 });
    const copies = await db
      .selectFrom('timetable')
      .selectAll()
      .where('storeId', '=', env().storeId)
      .where('startTime', '>=', `${s.day(14)} 00:00:00`)
      .where('startTime', '<', `${s.day(21)} 00:00:00`)
      .orderBy('startTime')
      .execute();
    expect(copies).toHaveLength(4);
    const first = copies[0];
    expect(first).toMatchObject({
      startTime: `${s.day(14)} 09:00:00`,
      endTime: `${s.day(14)} 10:30:00`,
      courseId: s.course.id,
      teacherId: s.teacher.id,
      areaId: s.child.id,
      reservableCount: 3,
      realCount: 0,
      color: '#ff0000',
      genderLimit: 1,
      ageLimit: 1,
      syear: 3,
      eyear: 12,
    });
    const cards = await db.selectFrom('timetableCard').select('cardId').where('timetableId', '=', first.id).execute();
    expect(cards.map((c) => c.cardId).sort()).toEqual([s.product.id, card2.id].sort());
    expect(copies.map((c) => c.startTime)).toEqual([
      `${s.day(14)} 09:00:00`,
      `${s.day(17)} 18:00:00`,
      `${s.day(19)} 08:00:00`,
      `${s.day(20)} 08:00:00`,
    ]);
    await expectInvariants(db, env().storeId);
  });

  it('copies only the venue and its sub-venues when an area is given', async () => {
    const s = await scene(20);
    const a = await env().client.ok(COPY, range(s.from, s.to, s.day(7), { areaId: s.parent.id }));
    expect(a).toEqual({ count: 2 });
    const areas = await env()
      .factory.db.selectFrom('timetable')
      .select('areaId')
      .where('teacherId', '=', s.teacher.id)
      .where('startTime', '>=', `${s.day(7)} 00:00:00`)
      .orderBy('startTime')
      .execute();
    expect(areas.map((x) => x.areaId)).toEqual([s.child.id, s.parent.id]);
  });

  it('copies waiting pendings as pendings (seats taken) with isCopyPending=1 only', async () => {
    const s = await scene(30);
    await s.ef.setMode(1);
    try {
      const m1 = await s.ef.memberWithCard(s.product.id);
      const m2 = await s.ef.memberWithCard(s.product.id);
      for (const m of [m1, m2]) {
        await env().client.ok(`${API}/add/member/group/pending`, {
          mid: m.member.id,
          tid: s.inChild.id,
          studentCount: 1,
        });
      }
      const without = await env().client.ok(COPY, range(s.from, s.from, s.day(7)));
      expect(without).toEqual({ count: 1 });
      const withPending = await env().client.ok(COPY, range(s.from, s.from, s.day(14), { isCopyPending: 1 }));
      expect(withPending).toEqual({ count: 1 });
      const copies = await env()
        .factory.db.selectFrom('timetable')
        .select(['id', 'realCount', 'startTime'])
        .where('teacherId', '=', s.teacher.id)
        .where('startTime', '>=', `${s.day(7)} 00:00:00`)
        .orderBy('startTime')
        .execute();
      expect(copies.map((c) => c.realCount)).toEqual([0, 2]);
      const pendings = await env()
        .factory.db.selectFrom('pending')
        .select(['memberId', 'status'])
        .where('timetableId', '=', copies[1].id)
        .orderBy('memberId')
        .execute();
      expect(pendings).toEqual([
        { memberId: m1.member.id, status: 1 },
        { memberId: m2.member.id, status: 1 },
      ]);
      await expectInvariants(env().factory.db, env().storeId);
    } finally {
      await s.ef.setMode(0);
    }
  });

  it('refuses copying pendings into a class already over, naming the class and the member, and writes nothing', async () => {
    const s = await scene(35);
    await s.ef.setMode(1);
    try {
      const m1 = await s.ef.memberWithCard(s.product.id);
      await env().client.ok(`${API}/add/member/group/pending`, {
        mid: m1.member.id,
        tid: s.inChild.id,
        studentCount: 1,
      });
      const before = await snapshot(env().factory.db, env().storeId);
      const a = await env().client.call(COPY, range(s.from, s.from, '2020-01-06', { isCopyPending: 1 }));
      expect(a.status).toBe(409);
      expect(a.msg).toBe(Msg.arrangeFailed('2020-01-06 09:00', m1.member.name, Msg.sessionStarted));
      expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
      // Without the pendings the same copy goes through: the refusal was the pending's.
      expect(await env().client.ok(COPY, range(s.from, s.from, '2020-01-06'))).toEqual({ count: 1 });
      await expectInvariants(env().factory.db, env().storeId);
    } finally {
      await s.ef.setMode(0);
    }
  });

  it('refuses a teacher clash in the target range, listing the dates, and writes nothing', async () => {
    const s = await scene(40);
    await s.ef.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${s.day(10)} 18:30:00` });
    const before = await snapshot(env().factory.db, env().storeId);
    const a = await env().client.call(COPY, range(s.from, s.to, s.day(7)));
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.teacherConflict(`${s.day(10)} 18:00`));
    expect(a.data).toEqual({ dates: [`${s.day(10)} 18:00`] });
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
  });

  it('copies the material, and an online session as room on demand without its meeting', async () => {
    const ef = engineFactory(env());
    const { teacher, course } = await ef.scene();
    const db = env().factory.db;
    const book = await env().factory.material();
    const day = (d: number) => addDays(FUTURE, 60 * 7 + d);
    const source = await ef.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${day(0)} 09:00:00`,
      materialId: book.id,
    });
    await db
      .updateTable('timetable')
      .set({ isOnline: 1, meetingId: 'm-1', meetingInfo: '{"code":"1"}', meetingError: 'x' })
      .where('id', '=', source.id)
      .execute();
    expect(await env().client.ok(COPY, range(day(0), day(0), day(7)))).toEqual({ count: 1 });
    const copy = await db
      .selectFrom('timetable')
      .selectAll()
      .where('teacherId', '=', teacher.id)
      .where('startTime', '=', `${day(7)} 09:00:00`)
      .executeTakeFirstOrThrow();
    expect(copy).toMatchObject({
      bookId: book.id,
      isOnline: 1,
      meetingId: null,
      meetingInfo: null,
      meetingError: null,
      realCount: 0,
      waitCount: 0,
      deleted: 0,
    });
    await expectInvariants(db, env().storeId);
  });

  it('names the copies on its audit entry and for its undo, and moves the data version of the target range', async () => {
    const s = await scene(62);
    const db = env().factory.db;
    const version = () => dataVersion(db, env().storeId, `${s.day(7)} 00:00:00`, `${s.day(14)} 00:00:00`);
    const before = await version();
    expect(await env().client.ok(COPY, range(s.from, s.to, s.day(7)))).toEqual({ count: 4 });
    expect(await version()).not.toBe(before);
    const copies = await db
      .selectFrom('timetable')
      .select('id')
      .where('teacherId', '=', s.teacher.id)
      .where('startTime', '>=', `${s.day(7)} 00:00:00`)
      .orderBy('startTime')
      .execute();
    expect(copies).toHaveLength(4);
    const entry = await db
      .selectFrom('auditLog')
      .selectAll()
      .where('storeId', '=', env().storeId)
      .where('call', '=', COPY)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.target).toBe('新增4节课');
    expect(JSON.parse(entry.undoJson!).createdSessions).toEqual(copies.map((c) => c.id));
    const targets = await db
      .selectFrom('auditTarget')
      .select(['type', 'refId'])
      .where('auditId', '=', entry.id)
      .orderBy('refId')
      .execute();
    expect(targets).toEqual(copies.map((c) => ({ type: 'session', refId: c.id })));
  });

  it("answers the 404 of the first session whose course, teacher, venue or material is no longer the store's, and writes nothing", async () => {
    const ef = engineFactory(env());
    const db = env().factory.db;
    const first = await ef.scene();
    const second = await ef.scene();
    const day = (d: number) => addDays(FUTURE, 64 * 7 + d);
    const one = await ef.session({
      courseId: first.course.id,
      teacherId: first.teacher.id,
      startTime: `${day(0)} 09:00:00`,
    });
    const two = await ef.session({
      courseId: second.course.id,
      teacherId: second.teacher.id,
      startTime: `${day(1)} 09:00:00`,
    });
    const setSession = (id: number, change: { areaId?: number | null; bookId?: number | null }) =>
      db.updateTable('timetable').set(change).where('id', '=', id).execute();
    const deleted = (table: 'teacher' | 'course', id: number, flag: 0 | 1) =>
      db.updateTable(table).set({ deleted: flag }).where('id', '=', id).execute();
    const body = range(day(0), day(6), day(7));
    const before = await snapshot(db, env().storeId);
    const refused = async (what: string) => {
      const a = await env().client.call(COPY, body);
      expect(a.status, what).toBe(404);
      expect(a.msg).toBe(Msg.notFound(what));
      expect(await snapshot(db, env().storeId)).toEqual(before);
    };
    // The first session's teacher and the second's course deleted since: the first session comes first.
    await deleted('teacher', first.teacher.id, 1);
    await deleted('course', second.course.id, 1);
    await refused('老师');
    await deleted('teacher', first.teacher.id, 0);
    await refused('课程');
    // A session's course is checked before its venue.
    await setSession(two.id, { areaId: (await env().other.factory.area()).id });
    await refused('课程');
    await deleted('course', second.course.id, 0);
    await refused('场地');
    await setSession(one.id, { bookId: (await env().other.factory.material()).id });
    await refused('教材');
    await setSession(one.id, { bookId: null });
    await setSession(two.id, { areaId: null });
    expect(await env().client.ok(COPY, body)).toEqual({ count: 2 });
    await expectInvariants(db, env().storeId);
  });

  it('answers 404 for an area of another store', async () => {
    const other = await env().other.factory.area();
    const a = await env().client.call(COPY, range(FUTURE, FUTURE, addDays(FUTURE, 7), { areaId: other.id }));
    expect(a.status).toBe(404);
    expect(a.msg).toBe('场地不存在');
  });
});
