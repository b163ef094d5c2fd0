import {
  addLessonMember,
  bookLesson,
  bookLessonSeries,
  cancelLesson,
  confirmLesson,
  memberCancelLesson,
  memberJoinLesson,
  memberQueryNotifyPref,
  moveLesson,
  NotifyQuietReason,
  queryNotifyLog,
  saveLessonBookingSetting,
  updateNotifySetting,
  updateSmsSetting,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { memberClient } from '../../../test/member-client.ts';
import { SECRET, startSmsStandIn } from '../../../test/sms-stand-in.ts';
import { addMinutes } from '../../lib/time.ts';
import { releaseUnconfirmed } from '../lessons/public.ts';
import { runReminders } from './job.ts';

const SMS_TEMPLATES = [
  { kind: 'class_reminder', templateId: 'T_CLASS', params: ['course', 'time'] },
  { kind: 'class_cancelled', templateId: 'T_CANCEL', params: ['course', 'time', 'change'] },
  { kind: 'lesson_booked', templateId: 'T_LBOOK', params: ['course', 'time', 'state'] },
  { kind: 'lesson_confirmed', templateId: 'T_LOK', params: ['course', 'time', 'teacher'] },
  { kind: 'lesson_request', templateId: 'T_LREQ', params: ['course', 'time', 'member'] },
  { kind: 'lesson_joined', templateId: 'T_LJOIN', params: ['course', 'time', 'member', 'count'] },
];

/**
 * Reminders of lessons (私教/小班, issue 43 item 9) through the reminders' own machinery: a booking
 * (the member; 待确认 also the teacher), the teacher's confirmation, a release unconfirmed, a move or
 * a cancel by the studio, and the day-before reminder; each sent once, to the right person, by SMS
 * (the provider's stand-in), the quiet hours respected. No outbox worker runs here: the job, its
 * clock set, sends what the changes queued (as it does whatever the quiet hours held back).
 */
describeEachDb('reminders of lessons (私教/小班)', (env) => {
  let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
  let now = '2099-01-01 12:00:00';
  const run = () => runReminders(env().app.deps, () => now);
  async function runFrom(from: string, to: string, step = 60) {
    for (now = from; now <= to; now = addMinutes(now, step)) await run();
  }
  const f = () => env().factory;
  const desk = () => env().client;

  beforeAll(async () => {
    sms = await startSmsStandIn(env().app);
    await desk().ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
    await desk().ok(updateNotifySetting.path, {
      classReminderHours: 2,
      quietFrom: '22:00',
      quietTo: '08:00',
      wechat: { appId: '', appSecret: '', baseUrl: '', templates: [] },
      sms: { templates: SMS_TEMPLATES },
    });
  });
  afterAll(async () => {
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    await sms.close();
  });

  /** What a mobile received: each text as its template and parameters. */
  const textsTo = (mobile: string | null) =>
    sms.received.filter((r) => r.mobile === `+86${mobile}`).map((r) => [r.templateId, ...(r.params as string[])]);
  const db = () => env().database.db;

  async function scene(kind: 'one_on_one' | 'one_on_two' | 'small_group' = 'one_on_one') {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind,
      maxMembers: kind === 'one_on_two' ? 2 : kind === 'small_group' ? 4 : 1,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
      course: { name: { one_on_two: '私教1对2', small_group: '普拉提小班', one_on_one: '私教普拉提' }[kind] },
    });
    const member = async () => {
      const m = await f().member();
      return { member: m, card: await f().memberCard(m.id, pack.id, { totalCount: 10 }) };
    };
    return { teacher, type, member };
  }
  const book = (
    type: { id: number },
    teacher: { id: number },
    at: string,
    ms: { member: { id: number }; card: { id: number } }[],
  ) =>
    desk().ok<{ id: number; status: string }>(bookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: at.slice(0, 10),
      time: at.slice(11, 16),
      members: ms.map((x) => ({ mid: x.member.id, mcId: x.card.id })),
    });
  const reservationOf = (sessionId: number, memberId: number) =>
    db()
      .selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', sessionId)
      .where('memberId', '=', memberId)
      .executeTakeFirstOrThrow();

  it('待确认: the member told, the teacher asked (once, by SMS to their mobile), both held back by the quiet hours; confirmed: the member told; the day-before reminder once, only once confirmed', async () => {
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    const { teacher, type, member } = await scene('one_on_two');
    const a = await member();
    const b = await member();
    const lesson = await book(type, teacher, '2099-03-10 10:00:00', [a, b]);
    expect(lesson.status).toBe('pending');
    // 23:00 the night before the day before: inside the quiet hours, nothing goes out; all wait for 08:00.
    now = '2099-03-08 23:00:00';
    await run();
    expect([...textsTo(a.member.mobile), ...textsTo(b.member.mobile), ...textsTo(teacher.mobile)]).toEqual([]);
    const rows = await db()
      .selectFrom('notifyLog')
      .selectAll()
      .where('payload', 'like', `%"sessionId":${lesson.id},%`)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.kind, r.memberId, r.status, r.dueAt, r.reason])).toEqual([
      ['lesson_booked', a.member.id, 'queued', '2099-03-09 08:00:00', NotifyQuietReason.waiting('08:00')],
      ['lesson_booked', b.member.id, 'queued', '2099-03-09 08:00:00', NotifyQuietReason.waiting('08:00')],
      ['lesson_request', null, 'queued', '2099-03-09 08:00:00', NotifyQuietReason.waiting('08:00')],
    ]);
    // 08:00 to 10:00 the day before: each sent once; still unconfirmed, no class reminder yet.
    await runFrom('2099-03-09 08:00:00', '2099-03-09 10:30:00', 30);
    expect(textsTo(a.member.mobile)).toEqual([['T_LBOOK', '私教1对2', '03-10 10:00', '待老师确认']]);
    expect(textsTo(b.member.mobile)).toEqual([['T_LBOOK', '私教1对2', '03-10 10:00', '待老师确认']]);
    expect(textsTo(teacher.mobile)).toEqual([
      ['T_LREQ', '私教1对2', '03-10 10:00', `${a.member.name}、${b.member.name}`],
    ]);
    // The send log names the teacher.
    const log = await desk().ok(queryNotifyLog.path, {
      fromDate: '2099-03-09',
      toDate: '2099-03-09',
      kind: 'lesson_request',
    });
    expect(log.list.map((r: { memberName: string; status: string }) => [r.memberName, r.status])).toContainEqual([
      `${teacher.name}（老师）`,
      'sent',
    ]);
    // The teacher confirms: both members told; the job (within a day of the lesson) reminds each once.
    await desk().ok(confirmLesson.path, { id: lesson.id });
    await runFrom('2099-03-09 11:00:00', '2099-03-10 09:00:00');
    for (const x of [a, b]) {
      expect(textsTo(x.member.mobile)).toEqual([
        ['T_LBOOK', '私教1对2', '03-10 10:00', '待老师确认'],
        ['T_LOK', '私教1对2', '03-10 10:00', teacher.name],
        ['T_CLASS', '私教1对2', '03-10 10:00'],
      ]);
    }
    expect(textsTo(teacher.mobile).length).toBe(1);
    // The teacher's kind is none of the members' switches.
    const phone = await memberClient(env(), a.member);
    const prefs = await phone.ok(memberQueryNotifyPref.path);
    expect(prefs.kinds.map((k: { kind: string }) => k.kind)).toEqual(
      expect.arrayContaining(['lesson_booked', 'lesson_confirmed']),
    );
    expect(prefs.kinds.map((k: { kind: string }) => k.kind)).not.toContain('lesson_request');
  });

  it('a request confirmed before it went out is not sent to the teacher; a lesson booked confirmed at once asks nobody', async () => {
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    const { teacher, type, member } = await scene();
    const a = await member();
    const lesson = await book(type, teacher, '2099-03-20 10:00:00', [a]);
    await desk().ok(confirmLesson.path, { id: lesson.id });
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    const b = await member();
    await book(type, teacher, '2099-03-20 15:00:00', [b]);
    await runFrom('2099-03-18 12:00:00', '2099-03-18 13:00:00');
    expect(textsTo(teacher.mobile)).toEqual([]);
    const request = await db()
      .selectFrom('notifyLog')
      .select(['status', 'reason'])
      .where('kind', '=', 'lesson_request')
      .where('payload', 'like', `%"sessionId":${lesson.id},%`)
      .execute();
    expect(request).toEqual([{ status: 'skipped', reason: '已跳过（预约已确认或已取消）' }]);
    expect(textsTo(a.member.mobile)).toEqual([
      ['T_LBOOK', '私教普拉提', '03-20 10:00', '待老师确认'],
      ['T_LOK', '私教普拉提', '03-20 10:00', teacher.name],
    ]);
    expect(textsTo(b.member.mobile)).toEqual([['T_LBOOK', '私教普拉提', '03-20 15:00', '预约成功']]);
  });

  it('a weekly series booked in one call is told once, at its first date; each lesson is still reminded the day before', async () => {
    const { teacher, type, member } = await scene();
    const a = await member();
    await desk().ok(bookLessonSeries.path, {
      courseId: type.id,
      teacherId: teacher.id,
      startDate: '2099-04-07',
      time: '19:00',
      weeks: 3,
      members: [{ mid: a.member.id, mcId: a.card.id }],
    });
    await runFrom('2099-04-05 12:00:00', '2099-04-05 13:00:00');
    expect(textsTo(a.member.mobile)).toEqual([['T_LBOOK', '私教普拉提', '04-07 19:00起每周共3节', '预约成功']]);
    // the day before each of the three: one reminder each
    await runFrom('2099-04-06 19:00:00', '2099-04-20 19:00:00', 24 * 60);
    expect(textsTo(a.member.mobile).filter((t) => t[0] === 'T_CLASS')).toEqual(
      ['04-07 19:00', '04-14 19:00', '04-21 19:00'].map((t) => ['T_CLASS', '私教普拉提', t]),
    );
  });

  it('released unconfirmed, moved, cancelled by the desk: the member told once each; their own cancel tells nobody', async () => {
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    const { teacher, type, member } = await scene();
    const late = await member();
    const unconfirmed = await book(type, teacher, '2099-04-02 09:00:00', [late]);
    await db()
      .updateTable('timetable')
      .set({ confirmDeadline: '2000-01-01 00:00:00' })
      .where('id', '=', unconfirmed.id)
      .execute();
    expect(await releaseUnconfirmed(env().app.deps)).toBe(1);
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    const moved = await member();
    const m = await book(type, teacher, '2099-04-02 11:00:00', [moved]);
    await desk().ok(moveLesson.path, { id: m.id, date: '2099-04-02', time: '13:00' });
    await desk().ok(cancelLesson.path, { id: (await reservationOf(m.id, moved.member.id)).id });
    const own = await member();
    const o = await book(type, teacher, '2099-04-02 16:00:00', [own]);
    const phone = await memberClient(env(), own.member);
    await phone.ok(memberCancelLesson.path, { id: (await reservationOf(o.id, own.member.id)).id });
    await runFrom('2099-03-30 12:00:00', '2099-03-30 15:00:00');
    expect(textsTo(late.member.mobile)).toEqual([
      ['T_LBOOK', '私教普拉提', '04-02 09:00', '待老师确认'],
      ['T_CANCEL', '私教普拉提', '04-02 09:00', '老师未及时确认，预约已取消'],
    ]);
    expect(textsTo(moved.member.mobile)).toEqual([
      ['T_LBOOK', '私教普拉提', '04-02 11:00', '预约成功'],
      ['T_CANCEL', '私教普拉提', '04-02 11:00', '时间调整为 04-02 13:00'],
      ['T_CANCEL', '私教普拉提', '04-02 13:00', '预约已被门店取消'],
    ]);
    expect(textsTo(own.member.mobile)).toEqual([['T_LBOOK', '私教普拉提', '04-02 16:00', '预约成功']]);
    // The released lesson's request, not sent before its release, is not sent after it.
    expect(textsTo(teacher.mobile)).toEqual([]);
  });

  it('a member joins a confirmed 小班 (from the phone, or added at the desk): its teacher told who and how many, once each; joining one still waiting for the teacher asks nothing more', async () => {
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    const { teacher, type, member } = await scene('small_group');
    const a = await member();
    const lesson = await book(type, teacher, '2099-05-06 18:00:00', [a]);
    expect(lesson.status).toBe('confirmed');
    const b = await member();
    const phone = await memberClient(env(), b.member);
    await phone.ok(memberJoinLesson.path, { id: lesson.id, mcId: b.card.id });
    const c = await member();
    await desk().ok(addLessonMember.path, { id: lesson.id, mid: c.member.id, mcId: c.card.id });
    await runFrom('2099-05-04 12:00:00', '2099-05-04 13:00:00');
    expect(textsTo(teacher.mobile)).toEqual([
      ['T_LJOIN', '普拉提小班', '05-06 18:00', b.member.name, '2'],
      ['T_LJOIN', '普拉提小班', '05-06 18:00', c.member.name, '3'],
    ]);
    expect(textsTo(b.member.mobile)).toEqual([['T_LBOOK', '普拉提小班', '05-06 18:00', '预约成功']]);
    // Logged as the teacher's (no member), once per member joined; the kind is none of the members' switches.
    const logged = await db()
      .selectFrom('notifyLog')
      .select(['memberId', 'status'])
      .where('kind', '=', 'lesson_joined')
      .where('payload', 'like', `%"sessionId":${lesson.id},%`)
      .execute();
    expect(logged).toEqual([
      { memberId: null, status: 'sent' },
      { memberId: null, status: 'sent' },
    ]);
    const prefs = await phone.ok(memberQueryNotifyPref.path);
    expect(prefs.kinds.map((k: { kind: string }) => k.kind)).not.toContain('lesson_joined');

    // A 小班 still waiting for its teacher: a member joining it is 待确认 with it; the teacher gets only the request.
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    const waiting = await book(type, teacher, '2099-05-07 18:00:00', [a]);
    await phone.ok(memberJoinLesson.path, { id: waiting.id, mcId: b.card.id });
    await runFrom('2099-05-04 14:00:00', '2099-05-04 15:00:00');
    expect(
      textsTo(teacher.mobile)
        .slice(2)
        .map((t) => t[0]),
    ).toEqual(['T_LREQ']);
    await desk().ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
  });
});
