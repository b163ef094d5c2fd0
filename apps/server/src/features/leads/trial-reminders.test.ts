// 体验课提醒 (issue 44): a lead booked into a trial class is texted the day before and at the
// store's class reminder hours, through the reminders' log and outbox: planned when booked, planned
// again when the class moves, dropped when the trial is cancelled (or its class deleted), sent once
// with two instances running the job twice and the outbox, to the lead's mobile of then.
import {
  cancelLeadTrial,
  cancelTimetable,
  insertLead,
  insertLeadTrial,
  insertLeadTrialLesson,
  updateLead,
  updateNotifySetting,
  updateSmsSetting,
  updateTimetable,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { describeEachDb, moreInstances } from '../../../test/harness.ts';
import { fastWorker, waitFor } from '../../../test/outbox.ts';
import { SECRET, startSmsStandIn } from '../../../test/sms-stand-in.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { runReminders, type JobDeps } from '../reminders/public.ts';

describeEachDb('leads: trial class reminders (体验课提醒)', (env) => {
  let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
  const instances = moreInstances(env, 1);
  let now = '';
  const clock = () => now;
  /** Every instance's job (two on PostgreSQL), its deps reaching the stand-in. */
  const deps = (): JobDeps[] => instances.apps.map((a) => ({ ...a.deps, config: env().app.deps.config }));
  /** Each instance runs the job twice at `at`. */
  async function runTwiceAt(at: string) {
    now = at;
    await Promise.all(deps().map((d) => runReminders(d, clock)));
    await Promise.all(deps().map((d) => runReminders(d, clock)));
  }
  let n = 0;
  const mobile = () => `136${String(Date.now() % 100000).padStart(5, '0')}${String(n++).padStart(3, '0')}`;
  const textsTo = (m: string) => sms.received.filter((r) => r.mobile === `+86${m}`);
  const ef = () => new EngineFactory(env().factory);
  const logOf = (trialId: number) =>
    env()
      .database.db.selectFrom('notifyLog')
      .select(['status', 'dueAt', 'reason', 'memberId'])
      .where('kind', '=', 'trial_reminder')
      .where('dedupeKey', 'like', `trial_reminder:${trialId}:%`)
      .orderBy('dueAt')
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    sms = await startSmsStandIn(env().app);
    await env().client.ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
    await env().client.ok(updateNotifySetting.path, {
      classReminderHours: 2,
      // The outbox sends at the real time of day: no quiet hours here.
      quietFrom: '00:00',
      quietTo: '00:00',
      wechat: { appId: '', appSecret: '', baseUrl: '', templates: [] },
      sms: {
        templates: [{ kind: 'trial_reminder', templateId: 'T_TRIAL', params: ['store', 'course', 'time', 'name'] }],
      },
    });
  });
  afterAll(() => sms.close());

  async function bookedTrial(startTime: string, courseName = '流瑜伽') {
    const e = ef();
    const { teacher, course } = await e.scene({ course: { name: courseName } });
    const session = await e.session({ courseId: course.id, teacherId: teacher.id, startTime });
    const leadMobile = mobile();
    const { id: leadId } = await env().client.ok(insertLead.path, {
      name: '小林',
      mobile: leadMobile,
      source: '到店',
      ownerId: null,
    });
    const { id } = await env().client.ok(insertLeadTrial.path, { leadId, sessionId: session.id });
    return { id: id as number, leadId: leadId as number, leadMobile, session, teacher, course };
  }

  it('planned when booked (the day before and 2 hours before); each sent once by two instances running the job twice', async () => {
    const t = await bookedTrial('2099-04-10 19:00:00');
    expect(await logOf(t.id)).toEqual([
      { status: 'queued', dueAt: '2099-04-09 19:00:00', reason: '', memberId: null },
      { status: 'queued', dueAt: '2099-04-10 17:00:00', reason: '', memberId: null },
    ]);
    await runTwiceAt('2099-04-09 18:59:00');
    expect(textsTo(t.leadMobile)).toEqual([]);
    await runTwiceAt('2099-04-09 19:00:00');
    // The store's name (process-wide store cache: a name of 5 s ago when both databases run in one process).
    expect(textsTo(t.leadMobile).map((r) => [r.templateId, r.params])).toEqual([
      ['T_TRIAL', [expect.stringMatching(/^测试门店\d+$/), '流瑜伽', '04-10 19:00', '小林']],
    ]);
    await runTwiceAt('2099-04-10 17:05:00');
    expect(textsTo(t.leadMobile)).toHaveLength(2);
    expect((await logOf(t.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('a 私教体验课 is planned as a group trial', async () => {
    const teacher = await env().factory.teacher();
    const pack = await env().factory.cardProduct({ perCount: 1 });
    const type = await lessonType(env().factory, { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    const { id: leadId } = await env().client.ok(insertLead.path, {
      name: '小周',
      mobile: mobile(),
      source: '到店',
      ownerId: null,
    });
    const { id } = await env().client.ok(insertLeadTrialLesson.path, {
      leadId,
      courseId: type.id,
      teacherId: teacher.id,
      date: '2099-04-20',
      time: '10:00',
    });
    expect(await logOf(id)).toEqual([
      { status: 'queued', dueAt: '2099-04-19 10:00:00', reason: '', memberId: null },
      { status: 'queued', dueAt: '2099-04-20 08:00:00', reason: '', memberId: null },
    ]);
  });

  it('moved with the class: planned again at the new start, the old ones dropped; to the mobile the lead has then', async () => {
    const t = await bookedTrial('2099-04-12 10:00:00');
    await env().client.ok(updateTimetable.path, {
      id: t.session.id,
      teacherId: t.teacher.id,
      date: '2099-04-13',
      time: '16:00',
      count: t.session.reservableCount,
      areaId: null,
      bookId: null,
    });
    expect(await logOf(t.id)).toEqual([
      { status: 'skipped', dueAt: '2099-04-11 10:00:00', reason: '已跳过（上课时间已变更）', memberId: null },
      { status: 'skipped', dueAt: '2099-04-12 08:00:00', reason: '已跳过（上课时间已变更）', memberId: null },
      { status: 'queued', dueAt: '2099-04-12 16:00:00', reason: '', memberId: null },
      { status: 'queued', dueAt: '2099-04-13 14:00:00', reason: '', memberId: null },
    ]);
    // The lead's mobile changed since the booking: the text goes to the new one.
    const newMobile = mobile();
    await env().client.ok(updateLead.path, { id: t.leadId, name: '小林', mobile: newMobile, source: '到店' });
    await runTwiceAt('2099-04-12 16:00:00');
    expect(textsTo(t.leadMobile)).toEqual([]);
    expect(textsTo(newMobile).map((r) => r.params)).toEqual([[expect.any(String), '流瑜伽', '04-13 16:00', '小林']]);
  });

  it('the class edited without moving (its capacity): nothing planned again, no second text', async () => {
    const setting = {
      quietFrom: '00:00',
      quietTo: '00:00',
      wechat: { appId: '', appSecret: '', baseUrl: '', templates: [] },
      sms: {
        templates: [{ kind: 'trial_reminder', templateId: 'T_TRIAL', params: ['store', 'course', 'time', 'name'] }],
      },
    };
    const real = localDateTime('Asia/Shanghai');
    const start = addMinutes(real, 150).slice(0, 16) + ':00';
    const t = await bookedTrial(start, '阴瑜伽');
    const [hours] = await logOf(t.id);
    expect(hours.status).toBe('queued');
    // The 2-hours text sent; then the manager sets 3 hours: every point is past now.
    await runTwiceAt(hours.dueAt);
    expect(textsTo(t.leadMobile)).toHaveLength(1);
    await env().client.ok(updateNotifySetting.path, { ...setting, classReminderHours: 3 });
    try {
      await env().client.ok(updateTimetable.path, {
        id: t.session.id,
        teacherId: t.teacher.id,
        date: start.slice(0, 10),
        time: start.slice(11, 16),
        count: t.session.reservableCount + 2,
        areaId: null,
        bookId: null,
      });
    } finally {
      await env().client.ok(updateNotifySetting.path, { ...setting, classReminderHours: 2 });
    }
    expect((await logOf(t.id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('cancelled with the trial, or with its class: nothing sent', async () => {
    const a = await bookedTrial('2099-04-15 10:00:00');
    const b = await bookedTrial('2099-04-15 11:00:00');
    await env().client.ok(cancelLeadTrial.path, { id: a.id });
    await env().client.ok(cancelTimetable.path, { id: b.session.id });
    for (const t of [a, b]) {
      expect((await logOf(t.id)).map((r) => [r.status, r.reason])).toEqual([
        ['skipped', '已跳过（体验课已取消）'],
        ['skipped', '已跳过（体验课已取消）'],
      ]);
    }
    await runTwiceAt('2099-04-15 09:30:00');
    expect([...textsTo(a.leadMobile), ...textsTo(b.leadMobile)]).toEqual([]);
  });

  it('booked within the hours: one text at once through the outbox, once with every instance sending and the job run twice', async () => {
    const start = addMinutes(localDateTime('Asia/Shanghai'), 60).slice(0, 16) + ':00';
    const t = await bookedTrial(start, '普拉提');
    expect((await logOf(t.id)).map((r) => r.status)).toEqual(['queued']);
    const workers = instances.apps.map((a) => fastWorker(a.deps, { allow: new URL(sms.base).host }));
    try {
      await waitFor(async () => (await logOf(t.id))[0].status === 'sent', 'the trial reminder sent');
      await runTwiceAt(localDateTime('Asia/Shanghai'));
    } finally {
      await Promise.all(workers.map((stop) => stop()));
    }
    expect(textsTo(t.leadMobile).map((r) => (r.params as string[]).slice(1, 3))).toEqual([
      ['普拉提', start.slice(5, 16)],
    ]);
  });
});
