import {
  bookLesson,
  confirmLesson,
  markAttendanceCall,
  PendingStatus,
  updateBookingPolicy,
  queryTimetableByDate,
  queryTimetableInfo,
  queryToday,
  saveLessonBookingSetting,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { runNoShows } from '../no-show/public.ts';

const DAY = '2099-03-02';

describeEachDb('lessons on the schedule: the calendar, the drawer and 今日 mark them (私教/小班)', (env) => {
  const f = () => env().factory;

  /** A 1对2 type its teacher must confirm, booked for two members (one outside the offered slots), and a group class beside it. */
  async function scene() {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'one_on_two',
      maxMembers: 2,
      cancelCutoffMinutes: 720,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const a = await f().member({ name: '甲会员' });
    const b = await f().member({ name: '乙会员' });
    const ca = await f().memberCard(a.id, pack.id);
    const cb = await f().memberCard(b.id, pack.id);
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    const lesson = await env().client.ok<{ id: number; status: string }>(bookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '23:00',
      outsideReason: '老师加班',
      members: [
        { mid: a.id, mcId: ca.id },
        { mid: b.id, mcId: cb.id },
      ],
    });
    const group = await f().course({ cardIds: [pack.id] });
    const other = await f().teacher();
    const klass = await new EngineFactory(f()).session({
      courseId: group.id,
      teacherId: other.id,
      startTime: `${DAY} 08:00:00`,
    });
    return { teacher, lesson, klass };
  }

  const calendarDay = async () => {
    const days = await env().client.ok<{ date: string; list: { id: number; lesson: unknown }[] }[]>(
      queryTimetableByDate.path,
      { fromDate: DAY, toDate: DAY, areaId: null, teacherId: null },
    );
    return days[0].list;
  };

  it('the calendar marks a lesson with its kind, 待确认 and its members; a group class has no mark', async () => {
    const { lesson, klass } = await scene();
    expect(lesson.status).toBe('pending');
    const list = (await calendarDay()).filter((s) => s.id === lesson.id || s.id === klass.id);
    expect(list.map((s) => [s.id, s.lesson])).toEqual([
      [klass.id, null],
      [lesson.id, { kind: 'one_on_two', pending: true, members: ['甲会员', '乙会员'] }],
    ]);
    // Confirmed: the calendar's cached answer does not keep the old mark.
    await env().client.ok(confirmLesson.path, { id: lesson.id });
    expect((await calendarDay()).find((s) => s.id === lesson.id)?.lesson).toEqual({
      kind: 'one_on_two',
      pending: false,
      members: ['甲会员', '乙会员'],
    });
  });

  it('the drawer reads the lesson’s cutoff, its most members and why it was booked outside the offered times', async () => {
    const { lesson, klass } = await scene();
    const info = await env().client.ok(queryTimetableInfo.path, { id: lesson.id });
    expect(info.lesson).toEqual({
      kind: 'one_on_two',
      pending: true,
      cancelCutoffMinutes: 720,
      maxMembers: 2,
      outsideReason: '老师加班',
    });
    expect((await env().client.ok(queryTimetableInfo.path, { id: klass.id })).lesson).toBeNull();
  });

  it('今日 marks the lesson; its teacher’s account sees its own day and confirms it', async () => {
    const { teacher, lesson, klass } = await scene();
    const day = await env().client.ok(queryToday.path, { date: DAY });
    const mark = (s: { id: number; lesson: unknown }) => [s.id, s.lesson];
    const ours = (s: { id: number }) => s.id === lesson.id || s.id === klass.id;
    expect(day.sessions.filter(ours).map(mark)).toEqual([
      [klass.id, null],
      [lesson.id, { kind: 'one_on_two', pending: true }],
    ]);
    const own = await staffClient(env(), 'teacher', teacher.id);
    const mine = await own.ok(queryToday.path, { date: DAY });
    // The teacher's own day: their lesson, not the other teacher's class.
    expect(mine.sessions.map((s: { id: number }) => s.id)).toEqual([lesson.id]);
    await own.ok(confirmLesson.path, { id: lesson.id });
    const after = await own.ok(queryToday.path, { date: DAY });
    expect(after.sessions[0].lesson).toEqual({ kind: 'one_on_two', pending: false });
  });

  it('attendance and no-shows work as for a group class: 到店 marked on 今日, an unsigned lesson charged after it', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    const member = await f().member({ name: '丙会员' });
    const card = await f().memberCard(member.id, pack.id);
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    const book = (time: string) =>
      env().client.ok<{ id: number }>(bookLesson.path, {
        courseId: type.id,
        teacherId: teacher.id,
        date: DAY,
        time,
        members: [{ mid: member.id, mcId: card.id }],
      });
    // 预约即扣费: the desk marks 到店 on the lesson's booking, and 今日 shows it.
    const paid = await book('09:00');
    const booking = await f()
      .db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', paid.id)
      .executeTakeFirstOrThrow();
    await env().client.ok(markAttendanceCall.path, { reservationId: booking.id, attended: 1 });
    const day = await env().client.ok(queryToday.path, { date: DAY });
    const entry = day.sessions.find((s: { id: number }) => s.id === paid.id).roster[0];
    expect([entry.memberName, entry.state]).toEqual(['丙会员', 'attended']);

    // 签到后扣费: a lesson never signed in is a no-show once it has ended, charged by the policy.
    const e = new EngineFactory(f());
    await e.setMode(1);
    await env().client.ok(updateBookingPolicy.path, { noShow: 'forfeit', noShowLimit: 0, noShowSuspendDays: 0 });
    try {
      const unsigned = await book('14:00');
      const pending = () =>
        f().db.selectFrom('pending').selectAll().where('timetableId', '=', unsigned.id).executeTakeFirstOrThrow();
      expect((await pending()).status).toBe(PendingStatus.WAITING);
      await runNoShows(env().database.db, env().dialect, () => `${DAY} 23:59:59`);
      const p = await pending();
      expect([p.status, Number(p.noShowFee), p.noShowCardId]).toEqual([PendingStatus.NO_SHOW, 1, card.id]);
    } finally {
      await env().client.ok(updateBookingPolicy.path, { noShow: 'none', noShowLimit: 0, noShowSuspendDays: 0 });
      await e.setMode(0);
    }
  });
});
