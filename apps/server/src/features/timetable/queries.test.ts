import {
  addMemberReservation,
  type CalendarDay,
  cancelReservationCall,
  exportTimetableReservation,
  queryReservationList,
  queryTimetableByDate,
  queryTimetableHistory,
  queryTimetableInfo,
  TimetableMsg,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('schedule queries', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const week = (body: Record<string, unknown>) => env().client.call(queryTimetableByDate.path, body);
  afterEach(async () => {
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('answers one entry per date with sessions, in time order, with the calendar fields', async () => {
    const e = ef();
    const { teacher, course } = await e.scene({ course: { color: '#00aa00' } });
    const area = await env().factory.area();
    const book = await env().factory.material();
    const late = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2098-01-06 18:00:00' });
    const early = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2098-01-06 08:00:00',
      venueId: area.id,
      materialId: book.id,
      reservableCount: 7,
    });
    const next = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2098-01-08 08:00:00' });
    await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2098-01-13 08:00:00' });
    const a = await week({ fromDate: '2098-01-05', toDate: '2098-01-11' });
    expect(a.code).toBe(0);
    expect(a.data.map((d: { date: string }) => d.date)).toEqual(['2098-01-06', '2098-01-08']);
    expect(a.data[0].list.map((s: { id: number }) => s.id)).toEqual([early.id, late.id]);
    expect(a.data[1].list.map((s: { id: number }) => s.id)).toEqual([next.id]);
    expect(a.data[0].list[0]).toEqual({
      id: early.id,
      fromTime: '2098-01-06 08:00:00',
      toTime: '2098-01-06 09:00:00',
      courseName: course.name,
      teacherName: teacher.name,
      areaName: area.name,
      color: '#00aa00',
      isOnline: 0,
      realCount: 0,
      reservableCount: 7,
      waitCount: 0,
      book: { id: book.id, name: book.name },
      lesson: null,
      teacherId: teacher.id,
    });
    expect(a.data[0].list[1]).toMatchObject({ areaName: null, book: null });
  });

  it('filters by area with its sub-areas, and by teacher', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const t2 = await env().factory.teacher();
    const hall = await env().factory.area();
    const room = await env().factory.area({ parentId: hall.id });
    const corner = await env().factory.area({ parentId: room.id });
    const elsewhere = await env().factory.area();
    const at = (areaId: number, teacherId: number, hour: number) =>
      e.session({ courseId: course.id, teacherId, venueId: areaId, startTime: `2098-02-03 ${hour}:00:00` });
    const s1 = await at(hall.id, teacher.id, 10);
    const s2 = await at(corner.id, t2.id, 12);
    await at(elsewhere.id, teacher.id, 14);
    const ids = async (body: Record<string, unknown>) =>
      ((await week({ fromDate: '2098-02-03', toDate: '2098-02-03', ...body })).data as { list: { id: number }[] }[])
        .flatMap((d) => d.list)
        .map((s) => s.id);
    expect(await ids({ areaId: hall.id })).toEqual([s1.id, s2.id]);
    expect(await ids({ areaId: room.id })).toEqual([s2.id]);
    expect(await ids({ areaId: hall.id, teacherId: t2.id })).toEqual([s2.id]);
    expect((await ids({ areaId: 0, teacherId: 0 })).length).toBe(3);
    const foreignArea = await week({
      fromDate: '2098-02-03',
      toDate: '2098-02-03',
      areaId: (await env().other.factory.area()).id,
    });
    expect([foreignArea.status, foreignArea.msg]).toEqual([404, '场地不存在']);
    const foreignTeacher = await week({
      fromDate: '2098-02-03',
      toDate: '2098-02-03',
      teacherId: (await env().other.factory.teacher()).id,
    });
    expect([foreignTeacher.status, foreignTeacher.msg]).toEqual([404, '老师不存在']);
    const theirs = await env().other.client.ok(queryTimetableByDate.path, {
      fromDate: '2098-02-03',
      toDate: '2098-02-03',
    });
    expect(theirs).toEqual([]);
  });

  it('limits the range to 62 days and wants from <= to', async () => {
    expect((await week({ fromDate: '2098-01-01', toDate: '2098-03-03' })).code).toBe(0);
    const long = await week({ fromDate: '2098-01-01', toDate: '2098-03-04' });
    expect([long.status, long.msg]).toEqual([400, TimetableMsg.rangeTooLong]);
    const back = await week({ fromDate: '2098-01-02', toDate: '2098-01-01' });
    expect([back.status, back.msg]).toEqual([400, TimetableMsg.rangeOrder]);
    expect((await week({ fromDate: '2098-02-30', toDate: '2098-03-01' })).status).toBe(400);
  });

  it('shows every write at once, although answers are cached (bookings, renames, deletes)', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2098-03-03 10:00:00' });
    const q = { fromDate: '2098-03-02', toDate: '2098-03-08' };
    const first = async () => (await env().client.ok(queryTimetableByDate.path, q))[0].list[0];
    expect((await first()).realCount).toBe(0);
    expect((await first()).realCount).toBe(0);
    const { card } = await e.memberWithCard(product.id);
    await env().client.ok(addMemberReservation.path, { mcId: card.id, tid: s.id });
    expect((await first()).realCount).toBe(1);
    await env().database.db.updateTable('teacher').set({ name: '新名字' }).where('id', '=', teacher.id).execute();
    expect((await first()).teacherName).toBe('新名字');
    await env().database.db.updateTable('course').set({ name: '新课程' }).where('id', '=', course.id).execute();
    expect((await first()).courseName).toBe('新课程');
    await env().database.db.updateTable('timetable').set({ isOnline: 2 }).where('id', '=', s.id).execute();
    expect((await first()).isOnline).toBe(2);
  });

  it('sees a session write that commits after a later one, a move out of the range and a new session', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const a = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2098-04-07 10:00:00',
      reservableCount: 20,
    });
    const b = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2098-04-08 10:00:00',
      reservableCount: 20,
    });
    const q = { fromDate: '2098-04-06', toDate: '2098-04-12' };
    const seats = async () =>
      (await env().client.ok<CalendarDay[]>(queryTimetableByDate.path, q)).flatMap((d) =>
        d.list.map((x) => x.reservableCount),
      );
    const db = env().database.db;
    expect(await seats()).toEqual([20, 20]);
    // Transaction 1 writes session a first; transaction 2 writes b later but commits first, and the
    // calendar is read (and cached) in between. On PostgreSQL a's row version is the older one, so a
    // max() of versions would not move when transaction 1 commits. SQLite has one writer: there the
    // two transactions run one after the other.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const t1Wrote = new Promise<void>((r) => (wrote = r));
    const interleave = env().dialect === 'postgres';
    const t1 = db.transaction().execute(async (tx) => {
      await tx.updateTable('timetable').set({ reservableCount: 7 }).where('id', '=', a.id).execute();
      wrote();
      if (interleave) await gate;
    });
    await t1Wrote;
    if (!interleave) await t1;
    await db.updateTable('timetable').set({ reservableCount: 8 }).where('id', '=', b.id).execute();
    expect(await seats()).toEqual([interleave ? 20 : 7, 8]);
    release();
    await t1;
    expect(await seats()).toEqual([7, 8]);
    await db.updateTable('timetable').set({ startTime: '2098-05-01 10:00:00' }).where('id', '=', b.id).execute();
    expect(await seats()).toEqual([7]);
    await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2098-04-09 10:00:00',
      reservableCount: 5,
    });
    expect(await seats()).toEqual([7, 5]);
  });

  it('answers the session info with the online meeting parsed', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id });
    const meeting = { meetingType: 1, meetingCode: '123', joinUrl: 'https://meet.example/x', duration: 3600, type: 2 };
    await env()
      .database.db.updateTable('timetable')
      .set({ isOnline: 2, meetingId: 'm-1', meetingInfo: JSON.stringify(meeting) })
      .where('id', '=', s.id)
      .execute();
    const info = await env().client.ok(queryTimetableInfo.path, { id: s.id });
    expect(info).toMatchObject({ isOnline: 2, meetingId: 'm-1', meetingInfo: meeting });
    const foreign = await env().other.client.call(queryTimetableInfo.path, { id: s.id });
    expect([foreign.status, foreign.msg]).toEqual([404, '课程不存在']);
  });

  it('pages the booked list and the history by 10, and exports the live bookings', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: 2 } });
    const s = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2098-05-05 10:00:00',
      reservableCount: 20,
    });
    const booked: { name: string; mobile: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const { member, card } = await e.memberWithCard(product.id);
      await env().client.ok(addMemberReservation.path, { mcId: card.id, tid: s.id, remark: `r${i}` });
      booked.push(member);
    }
    const p1 = await env().client.ok(queryReservationList.path, { tid: s.id, page: 1 });
    const p2 = await env().client.ok(queryReservationList.path, { tid: s.id, page: 2 });
    expect([p1.total, p1.list.length, p2.list.length]).toEqual([12, 10, 2]);
    expect(p2.list.map((r: { memberName: string }) => r.memberName)).toEqual([booked[10].name, booked[11].name]);
    await env().client.ok(cancelReservationCall.path, { id: p2.list[1].reservationId });
    const h1 = await env().client.ok(queryTimetableHistory.path, { tid: s.id, page: 1 });
    const h2 = await env().client.ok(queryTimetableHistory.path, { tid: s.id, page: 2 });
    expect([h1.total, h1.list.length, h2.list.length]).toEqual([13, 10, 3]);
    expect(h1.list[0]).toMatchObject({
      operateType: 4,
      memberName: booked[11].name,
      usedCount: 2,
      cardName: product.cardName,
    });
    expect(h1.list[0].operator).toMatch(/^管理员/);
    expect(h1.list[1]).toMatchObject({ operateType: 2, memberName: booked[11].name });
    const rows = await env().client.ok(exportTimetableReservation.path, { id: s.id });
    expect(rows.length).toBe(11);
    expect(rows[0]).toEqual({
      courseTime: '2098-05-05 10:00-11:00',
      teacher: teacher.name,
      member: booked[0].name,
      card: product.cardName,
      usedCount: 2,
      bigType: 1,
      deduction: '2 次',
      amount: 2,
      unit: '次',
      mobile: booked[0].mobile,
      courseName: course.name,
      area: null,
      studentCount: 1,
      remark: 'r0',
      state: '已预约',
    });
    const foreign = await env().other.client.call(exportTimetableReservation.path, { id: s.id });
    expect(foreign.status).toBe(404);

    // A money card's deduction reads in yuan, as on the screens (fen on the wire in usedCount).
    const mf = new EngineFactory(env().factory);
    const money = await mf.scene({ product: { bigType: 2, perCount: 5000, cardType: 2, cardName: '储值卡' } });
    const { card: wallet } = await mf.memberWithCard(money.product.id, { card: { totalCount: 100000 } });
    const ms = await e.session({
      courseId: money.course.id,
      teacherId: money.teacher.id,
      startTime: '2098-05-06 10:00:00',
    });
    await env().client.ok(addMemberReservation.path, { mcId: wallet.id, tid: ms.id, studentCount: 1, remark: '' });
    const [moneyRow] = await env().client.ok(exportTimetableReservation.path, { id: ms.id });
    expect(moneyRow).toMatchObject({ usedCount: 5000, bigType: 2, deduction: '50.00 元', amount: 50, unit: '元' });
    expect((await env().other.client.call(queryReservationList.path, { tid: s.id, page: 1 })).status).toBe(404);
    expect((await env().other.client.call(queryTimetableHistory.path, { tid: s.id, page: 1 })).status).toBe(404);
  });
});
