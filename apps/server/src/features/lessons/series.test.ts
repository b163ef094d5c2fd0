// Fixed weekly lessons (固定时段, issue 43 item 5): the preview marks each date that cannot be booked
// and why, writing nothing; the commit books exactly the chosen dates, all or nothing; the undo of
// its audit entry deletes them and refunds each card exactly; two commits racing book once. Both
// databases (the race over two app instances on PostgreSQL).
import {
  addCardShare,
  bookLesson,
  bookLessonSeries,
  LessonBookingMsg,
  LessonSeriesMsg,
  Msg,
  undoBulkChange,
  type LessonSeriesDate,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { describeEachDb, moreInstances } from '../../../test/harness.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { addDays, localDateTime } from '../../lib/time.ts';

/** A Tuesday far ahead. */
const START = '2099-03-03';
const week = (n: number) => addDays(START, 7 * (n - 1));

describeEachDb('lessons: fixed weekly lessons (固定时段)', (env) => {
  const all = moreInstances(env, 2, { poolMax: 5 });
  const f = () => env().factory;
  const db = () => env().database.db;

  async function scene(
    o: { minNoticeMinutes?: number; product?: Parameters<ReturnType<typeof f>['cardProduct']>[0] } = {},
  ) {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1, ...o.product });
    const type = await lessonType(f(), {
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
      minNoticeMinutes: o.minNoticeMinutes ?? 0,
    });
    const member = await f().member();
    const card = await f().memberCard(member.id, pack.id, { totalCount: 20, expireTime: '2100-01-01 23:59:59' });
    return { teacher, pack, type, member, card };
  }

  type Scene = Awaited<ReturnType<typeof scene>>;
  const series = (s: Scene, o: Record<string, unknown> = {}) => ({
    courseId: s.type.id,
    teacherId: s.teacher.id,
    startDate: START,
    time: '19:00',
    weeks: 4,
    members: [{ mid: s.member.id, mcId: s.card.id }],
    ...o,
  });
  const preview = (s: Scene, o: Record<string, unknown> = {}) =>
    env().client.ok<{ count: number; dates: LessonSeriesDate[] }>(bookLessonSeries.path, {
      ...series(s, o),
      dryRun: true,
    });
  const reasons = (dates: LessonSeriesDate[]) => dates.map((d) => [d.date, d.reason]);
  const lessonsOf = (courseId: number) =>
    db()
      .selectFrom('timetable')
      .select(['id', 'startTime'])
      .where('courseId', '=', courseId)
      .where('deleted', '=', 0)
      .orderBy('startTime')
      .execute();
  const cardUsed = async (id: number) =>
    Number(
      (await db().selectFrom('memberCard').select('usedCount').where('id', '=', id).executeTakeFirstOrThrow())
        .usedCount,
    );
  const ok = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  it('the preview marks each date that cannot be booked, and why, writing nothing', async () => {
    const s = await scene({
      product: {
        maxPerWeek: 1,
        cardType: 1,
        validDays: 3650,
        leaveAllowed: 1,
        leaveTimes: 9,
        leaveDaysMax: 7,
        leaveDaysTotal: 60,
      },
    });
    // Week 2: the teacher's day off.
    await db()
      .insertInto('teacherHoursException')
      .values({
        storeId: env().storeId,
        teacherId: s.teacher.id,
        date: week(2),
        kind: 'off',
        startTime: null,
        endTime: null,
        reason: '休假',
        createdAt: '2099-01-01 00:00:00',
      })
      .execute();
    // Week 3: the teacher's hour taken by another member's lesson.
    const other = await f().member();
    const otherCard = await f().memberCard(other.id, s.pack.id);
    await env().client.ok(bookLesson.path, {
      courseId: s.type.id,
      teacherId: s.teacher.id,
      date: week(3),
      time: '18:30',
      members: [{ mid: other.id, mcId: otherCard.id }],
    });
    // Week 5: the member already has a lesson that week (at most one a week).
    await env().client.ok(bookLesson.path, {
      courseId: s.type.id,
      teacherId: s.teacher.id,
      date: addDays(week(5), 1),
      time: '10:00',
      members: [{ mid: s.member.id, mcId: s.card.id }],
    });
    // Week 4: the card on leave; week 6: the card expired.
    await env().client.ok('/store/api/add/card/leave', {
      mcId: s.card.id,
      fromDate: week(4),
      toDate: week(4),
      reason: '出差',
    });
    await db()
      .updateTable('memberCard')
      .set({ expireTime: `${addDays(week(6), -1)} 23:59:59` })
      .where('id', '=', s.card.id)
      .execute();
    const before = await lessonsOf(s.type.id);
    const used = await cardUsed(s.card.id);
    const md = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;
    const p = await preview(s, { weeks: 6 });
    expect(reasons(p.dates)).toEqual([
      [week(1), null],
      [week(2), LessonSeriesMsg.teacherAway],
      [week(3), Msg.teacherConflict(`${week(3)} 18:30-19:30`)],
      [week(4), Msg.cardInLeave(md(week(4)), md(week(4)))],
      [week(5), Msg.capPerWeek(1)],
      [week(6), Msg.cardExpired],
    ]);
    expect(p.count).toBe(1);
    expect(await lessonsOf(s.type.id)).toEqual(before);
    expect(await cardUsed(s.card.id)).toBe(used);
    await ok();
  });

  it('the preview marks the notice and a card running out over the series itself', async () => {
    const s = await scene({ minNoticeMinutes: 7 * 24 * 60 });
    await db().updateTable('memberCard').set({ totalCount: 2 }).where('id', '=', s.card.id).execute();
    const tomorrow = addDays(localDateTime('Asia/Shanghai').slice(0, 10), 1);
    const p = await preview(s, { startDate: tomorrow, time: '10:00', weeks: 4 });
    expect(reasons(p.dates)).toEqual([
      [tomorrow, LessonBookingMsg.notice(7 * 24 * 60)],
      [addDays(tomorrow, 7), null],
      [addDays(tomorrow, 14), null],
      [addDays(tomorrow, 21), Msg.cardBalance],
    ]);
  });

  it('the commit books exactly the chosen dates; the undo deletes them and refunds the card exactly', async () => {
    const s = await scene();
    // Week 2 taken by the teacher's group class.
    const group = await f().course({ cardIds: [s.pack.id] });
    await env().client.ok('/store/api/insert/timetable', {
      courseId: group.id,
      teacherId: s.teacher.id,
      date: week(2),
      time: '19:00',
      reservableCount: 10,
    });
    const p = await preview(s);
    const bookable = p.dates.filter((d) => d.reason === null).map((d) => d.date);
    expect(bookable).toEqual([week(1), week(3), week(4)]);
    // A date not in the series is refused, nothing written.
    const stray = await env().client.call(bookLessonSeries.path, series(s, { dates: [addDays(START, 1)] }));
    expect([stray.status, stray.msg]).toEqual([400, LessonSeriesMsg.notInSeries(addDays(START, 1))]);
    // A chosen date that cannot be booked: all or nothing.
    const all = await env().client.call(bookLessonSeries.path, series(s, { dates: [week(1), week(2)] }));
    expect(all.status).toBe(409);
    expect(all.msg).toBe(LessonSeriesMsg.dateFailed(week(2), Msg.teacherConflict(`${week(2)} 19:00-20:00`)));
    expect(await lessonsOf(s.type.id)).toEqual([]);
    const done = await env().client.ok<{ count: number }>(bookLessonSeries.path, series(s, { dates: bookable }));
    expect(done.count).toBe(3);
    expect((await lessonsOf(s.type.id)).map((l) => l.startTime)).toEqual(bookable.map((d) => `${d} 19:00:00`));
    expect(await cardUsed(s.card.id)).toBe(3);
    await ok();
    // The undo, from its entry in 操作日志.
    const entry = await db()
      .selectFrom('auditLog')
      .select(['id', 'undoJson'])
      .where('storeId', '=', env().storeId)
      .where('call', '=', bookLessonSeries.path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.undoJson).not.toBeNull();
    const dry = await env().client.ok<{ sessionsDeleted: number; refundTotal: unknown }>(undoBulkChange.path, {
      auditId: entry.id,
      dryRun: true,
    });
    expect(dry.sessionsDeleted).toBe(3);
    expect(dry.refundTotal).toEqual([{ bigType: 1, amount: 3 }]);
    await env().client.ok(undoBulkChange.path, { auditId: entry.id });
    expect(await lessonsOf(s.type.id)).toEqual([]);
    expect(await cardUsed(s.card.id)).toBe(0);
    await ok();
  });

  it('two commits racing over two instances book each date once', async () => {
    const s = await scene();
    const two = all.clients.length > 1 ? all.clients.slice(1) : [env().client, env().client];
    const answers = await Promise.all(two.map((c) => c.call(bookLessonSeries.path, series(s))));
    const won = answers.filter((a) => a.code === 0);
    expect(won.length).toBe(1);
    const lost = answers.find((a) => a.code !== 0)!;
    expect(lost.status).toBe(409);
    expect(lost.msg.startsWith(`${START}：`)).toBe(true);
    expect((await lessonsOf(s.type.id)).map((l) => l.startTime)).toEqual(
      [1, 2, 3, 4].map((n) => `${week(n)} 19:00:00`),
    );
    expect(await cardUsed(s.card.id)).toBe(4);
    await ok();
  });

  it('a lesson ending past the teacher’s hours is marked as their time off', async () => {
    const s = await scene();
    const p = await preview(s, { time: '21:30', weeks: 1 });
    expect(reasons(p.dates)).toEqual([[START, LessonSeriesMsg.teacherAway]]);
    // Off the type's steps, inside the hours: the finder's own word.
    const q = await preview(s, { time: '19:10', weeks: 1 });
    expect(reasons(q.dates)).toEqual([[START, LessonBookingMsg.notOffered]]);
  });

  it('1对2 with two cards, or one shared card: the preview marks the partner’s card running out, the commit charges each card, the undo refunds both', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1, shareMax: 1 });
    const type = await lessonType(f(), {
      kind: 'one_on_two',
      maxMembers: 2,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const a = await f().member();
    const b = await f().member();
    const aCard = await f().memberCard(a.id, pack.id, { totalCount: 20, expireTime: '2100-01-01 23:59:59' });
    // The partner's card has 2 lessons left: weeks 3 and 4 cannot be booked.
    const bCard = await f().memberCard(b.id, pack.id, { totalCount: 2, expireTime: '2100-01-01 23:59:59' });
    const pair = {
      courseId: type.id,
      teacherId: teacher.id,
      startDate: START,
      time: '19:00',
      weeks: 4,
      members: [
        { mid: a.id, mcId: aCard.id },
        { mid: b.id, mcId: bCard.id },
      ],
    };
    const p = await env().client.ok<{ count: number; dates: LessonSeriesDate[] }>(bookLessonSeries.path, {
      ...pair,
      dryRun: true,
    });
    expect(reasons(p.dates)).toEqual([
      [week(1), null],
      [week(2), null],
      [week(3), Msg.cardBalance],
      [week(4), Msg.cardBalance],
    ]);
    expect(await lessonsOf(type.id)).toEqual([]);
    // The same member twice: refused before anything.
    const twice = await env().client.call(bookLessonSeries.path, {
      ...pair,
      members: [pair.members[0], pair.members[0]],
      dryRun: true,
    });
    expect(`${twice.status} ${twice.msg}`).toBe(`400 ${LessonBookingMsg.sameMember}`);
    const done = await env().client.ok<{ count: number }>(bookLessonSeries.path, {
      ...pair,
      dates: [week(1), week(2)],
    });
    expect(done.count).toBe(2);
    const lessons = await lessonsOf(type.id);
    const booked = await db()
      .selectFrom('reservation')
      .select(['timetableId', 'memberId', 'memberCardId'])
      .where(
        'timetableId',
        'in',
        lessons.map((l) => l.id),
      )
      .orderBy('timetableId')
      .orderBy('memberId')
      .execute();
    expect(booked.map((r) => [r.memberId, r.memberCardId])).toEqual([
      [a.id, aCard.id],
      [b.id, bCard.id],
      [a.id, aCard.id],
      [b.id, bCard.id],
    ]);
    expect([await cardUsed(aCard.id), await cardUsed(bCard.id)]).toEqual([2, 2]);
    await ok();

    // One card shared by both, every week: it pays twice a week.
    await env().client.ok(addCardShare.path, { mcId: aCard.id, mid: b.id });
    const shared = {
      ...pair,
      time: '10:00',
      members: [
        { mid: a.id, mcId: aCard.id },
        { mid: b.id, mcId: aCard.id },
      ],
    };
    const q = await env().client.ok<{ dates: LessonSeriesDate[] }>(bookLessonSeries.path, { ...shared, dryRun: true });
    expect(q.dates.every((d) => d.reason === null)).toBe(true);
    await env().client.ok(bookLessonSeries.path, shared);
    expect(await cardUsed(aCard.id)).toBe(2 + 8);
    await ok();
    // The undo of the shared series refunds the card exactly.
    const entry = await db()
      .selectFrom('auditLog')
      .select('id')
      .where('storeId', '=', env().storeId)
      .where('call', '=', bookLessonSeries.path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await env().client.ok(undoBulkChange.path, { auditId: entry.id });
    expect(await cardUsed(aCard.id)).toBe(2);
    expect((await lessonsOf(type.id)).length).toBe(2);
    await ok();
  });

  it('a type that needs a room: the room asked for (or the first free one) each week; a week its room is taken is marked, another store’s room 404', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const room1 = await f().area({ name: '器械室一' });
    const room2 = await f().area({ name: '器械室二' });
    const type = await lessonType(f(), {
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
      roomIds: [room1.id, room2.id],
    });
    const member = await f().member();
    const card = await f().memberCard(member.id, pack.id, { totalCount: 20, expireTime: '2100-01-01 23:59:59' });
    // Week 2: a group class of another teacher in room two.
    const group = await f().course({ cardIds: [pack.id] });
    await env().client.ok('/store/api/insert/timetable', {
      courseId: group.id,
      teacherId: (await f().teacher()).id,
      areaId: room2.id,
      date: week(2),
      time: '19:00',
      reservableCount: 10,
    });
    const body = {
      courseId: type.id,
      teacherId: teacher.id,
      startDate: START,
      time: '19:00',
      weeks: 3,
      venueId: room2.id,
      members: [{ mid: member.id, mcId: card.id }],
    };
    const p = await env().client.ok<{ dates: LessonSeriesDate[] }>(bookLessonSeries.path, { ...body, dryRun: true });
    expect(p.dates.map((d) => [d.date, d.reason === null])).toEqual([
      [week(1), true],
      [week(2), false],
      [week(3), true],
    ]);
    expect(p.dates[1].reason).toContain('器械室二');
    await env().client.ok(bookLessonSeries.path, { ...body, dates: [week(1), week(3)] });
    const rooms = await db()
      .selectFrom('timetable')
      .select('areaId')
      .where('courseId', '=', type.id)
      .where('deleted', '=', 0)
      .execute();
    expect(rooms.map((r) => r.areaId)).toEqual([room2.id, room2.id]);
    // No room asked: the first of the type's rooms free then (week 2: room one).
    const auto = await env().client.ok<{ dates: LessonSeriesDate[] }>(bookLessonSeries.path, {
      ...body,
      time: '19:00',
      weeks: 2,
      startDate: week(2),
      venueId: null,
      dryRun: true,
    });
    // Week 2 is free for the teacher (their lesson is weeks 1 and 3); week 3 they teach already.
    expect(auto.dates.map((d) => [d.date, d.reason === null])).toEqual([
      [week(2), true],
      [week(3), false],
    ]);
    // Another store's room: not found, nothing written.
    const theirs = await env().other.factory.area({ name: '别店场地' });
    const r = await env().client.call(bookLessonSeries.path, { ...body, venueId: theirs.id, dryRun: true });
    expect(`${r.status} ${r.msg}`).toBe('404 场地不存在');
    await ok();
  });
});
