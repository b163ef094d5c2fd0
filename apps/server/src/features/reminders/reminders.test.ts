import {
  NotifyQuietReason,
  addMemberReservation,
  addWaitlist,
  cancelReservationCall,
  cancelTimetable,
  memberBindWechat,
  memberWechatState,
  NotifyMsg,
  memberQueryNotifyPref,
  memberUpdateNotifyPref,
  queryNotifyLog,
  queryNotifySetting,
  sendNotifyTest,
  updateBookingPolicy,
  updateNotifySetting,
  updateSmsSetting,
  updateTimetable,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/index.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { Client, describeEachDb, moreInstances, PG_URL } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { fastWorker, waitFor } from '../../../test/outbox.ts';
import { SECRET, startSmsStandIn } from '../../../test/sms-stand-in.ts';
import { MP, startWechatMpStandIn } from '../../../test/wechat-mp-stand-in.ts';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';
import { runReminders, type JobDeps } from './job.ts';

const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

const SMS_TEMPLATES = [
  { kind: 'class_reminder', templateId: 'T_CLASS', params: ['course', 'time'] },
  { kind: 'promoted', templateId: 'T_PROMO', params: ['course', 'time'] },
  { kind: 'class_cancelled', templateId: 'T_CANCEL', params: ['course', 'time', 'change'] },
  { kind: 'card_expiring', templateId: 'T_EXPIRE', params: ['card', 'expire'] },
  { kind: 'balance_low', templateId: 'T_LOW', params: ['card', 'balance'] },
];

describeEachDb('reminders to members (WeChat service account, SMS fallback)', (env) => {
  let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
  let mp: Awaited<ReturnType<typeof startWechatMpStandIn>>;
  /** The store-local now the job sees. */
  let now = '2099-01-01 12:00:00';
  const clock = () => now;
  const run = () => runReminders(env().app.deps, clock);
  /** On PostgreSQL two more app instances on the suite's database (SQLite: the suite's only). */
  const instances = moreInstances(env, 2);
  /** Runs the job every `step` minutes from `from` to `to`. */
  async function runFrom(from: string, to: string, step = 15) {
    for (now = from; now <= to; now = addMinutes(now, step)) await run();
  }

  const notify = (wechat?: object, quiet = { quietFrom: '22:00', quietTo: '08:00' }) => ({
    classReminderHours: 2,
    ...quiet,
    wechat: { appId: '', appSecret: '', baseUrl: '', templates: [], ...wechat },
    sms: { templates: SMS_TEMPLATES },
  });

  beforeAll(async () => {
    sms = await startSmsStandIn(env().app);
    mp = await startWechatMpStandIn(env().app);
    await env().client.ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
    await env().client.ok(updateNotifySetting.path, notify());
  });
  afterAll(async () => {
    await sms.close();
    await mp.close();
  });

  const ef = () => new EngineFactory(env().factory);
  async function book(tid: number, mcId: number) {
    await env().client.ok(addMemberReservation.path, { mcId, tid, studentCount: 1, remark: '' });
    return env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', tid)
      .where('memberCardId', '=', mcId)
      .where('status', '=', 1)
      .executeTakeFirstOrThrow();
  }
  const textsTo = (mobile: string) => sms.received.filter((r) => r.mobile === `+86${mobile}`);
  const logOf = (memberId: number, kind?: string) =>
    env()
      .database.db.selectFrom('notifyLog')
      .selectAll()
      .where('memberId', '=', memberId)
      .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
      .orderBy('id')
      .execute();

  it('a day of classes: exactly one reminder per booking, by SMS with the signature checked; quiet hours wait for 08:00', async () => {
    const e = ef();
    const s = await e.scene({ course: { name: '流瑜伽' } });
    const day = '2099-03-10';
    const times = ['09:00', '12:00', '18:30', '21:30'];
    const sessions = [];
    for (const t of times) {
      sessions.push(await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} ${t}:00` }));
    }
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const b = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    for (const x of sessions) await book(x.id, a.card.id);
    await book(sessions[1].id, b.card.id);
    await book(sessions[3].id, b.card.id);
    const before = sms.received.length;
    await runFrom('2099-03-09 20:00:00', `${day} 23:45:00`);
    const got = sms.received.slice(before);
    expect(got.every((r) => r.signatureOk && r.templateId === 'T_CLASS')).toBe(true);
    const mine = (m: { mobile: string }) =>
      textsTo(m.mobile)
        .filter((r) => (r.params as string[])[1]?.startsWith('03-10'))
        .map((r) => (r.params as string[]).join(' '))
        .sort();
    expect(mine(a.member)).toEqual(times.map((t) => `流瑜伽 03-10 ${t}`).sort());
    expect(mine(b.member)).toEqual(['流瑜伽 03-10 12:00', '流瑜伽 03-10 21:30']);
    // The 09:00 class's reminder (due 07:00, in the quiet hours) went out at 08:00.
    const early = (await logOf(a.member.id, 'class_reminder')).find((r) => r.payload.includes(`${day} 09:00`))!;
    expect(early).toMatchObject({ status: 'sent', channel: 'sms', sentAt: `${day} 08:00:00` });
    // Running the job again changes nothing.
    const count = sms.received.length;
    await runFrom(`${day} 08:00:00`, `${day} 22:00:00`, 60);
    expect(sms.received.length).toBe(count);
    // The log lists them with the day's counts.
    const log = await env().client.ok(queryNotifyLog.path, { fromDate: day, toDate: day, kind: 'class_reminder' });
    expect(log.total).toBe(6);
    expect(log.list.every((r: { status: string }) => r.status === 'sent')).toBe(true);
    expect(log.days).toEqual([{ date: day, sms: 6, wechat: 0, failed: 0, skipped: 0 }]);
    expect(log.dailyCap).toBe(500);
  });

  it('quiet hours 22:00-08:00, across midnight: nothing goes out inside them; a reminder due inside goes at 08:00 when its class is after, and is dropped, 消息记录 saying why, when its class has started by then', async () => {
    const desk = env().client;
    // Reminded 12 hours ahead: the evening's job queues the next morning's classes.
    await desk.ok(updateNotifySetting.path, { ...notify(), classReminderHours: 12 });
    try {
      const e = ef();
      const s = await e.scene({ course: { name: '早课' } });
      const day = '2099-03-12';
      const m = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
      const starts = ['07:30', '08:00', '09:30', '11:00'];
      for (const t of starts) {
        const x = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} ${t}:00` });
        await book(x.id, m.card.id);
      }
      const reminderOf = async (t: string) =>
        (await logOf(m.member.id, 'class_reminder')).find((r) => r.payload.includes(`${day} ${t}`));
      // 22:00 the day before to 07:45: all four are wanted inside the quiet hours, none goes out.
      await runFrom('2099-03-11 22:00:00', `${day} 07:45:00`);
      expect(textsTo(m.member.mobile)).toEqual([]);
      for (const t of ['07:30', '08:00']) {
        expect(await reminderOf(t), t).toMatchObject({
          status: 'skipped',
          reason: NotifyQuietReason.classStarted('08:00'),
          sentAt: null,
        });
      }
      // queued before midnight (09:30) and after 23:00 (11:00, inside 12 hours from then), both for 08:00
      expect(await reminderOf('09:30')).toMatchObject({
        status: 'queued',
        createdAt: '2099-03-11 22:00:00',
        dueAt: `${day} 08:00:00`,
        reason: NotifyQuietReason.waiting('08:00'),
      });
      expect(await reminderOf('11:00')).toMatchObject({ status: 'queued', dueAt: `${day} 08:00:00` });
      now = `${day} 08:00:00`;
      await run();
      expect(textsTo(m.member.mobile).map((r) => (r.params as string[])[1])).toEqual([`03-12 09:30`, `03-12 11:00`]);
      expect(await reminderOf('09:30')).toMatchObject({ status: 'sent', sentAt: `${day} 08:00:00`, reason: '' });
      // 消息记录 shows why the two early ones went nowhere.
      const log = await desk.ok(queryNotifyLog.path, { fromDate: '2099-03-11', toDate: day, kind: 'class_reminder' });
      const skipped = log.list.filter(
        (r: { memberId: number; status: string }) => r.memberId === m.member.id && r.status === 'skipped',
      );
      expect(skipped.map((r: { reason: string }) => r.reason)).toEqual([
        NotifyQuietReason.classStarted('08:00'),
        NotifyQuietReason.classStarted('08:00'),
      ]);
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('a class cancelled by the studio, its message held back by the quiet hours: at 08:00 when the class was after, dropped saying why when it started before', async () => {
    const desk = env().client;
    const e = ef();
    const s = await e.scene({ course: { name: '晨练' } });
    const day = '2099-03-26';
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const cancelled = [];
    for (const t of ['07:30', '09:30']) {
      const x = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} ${t}:00` });
      await book(x.id, m.card.id);
      await desk.ok(cancelTimetable.path, { id: x.id });
      cancelled.push(x.id);
    }
    const messageOf = async (t: string) =>
      (await logOf(m.member.id, 'class_cancelled')).find((r) => r.payload.includes(`${day} ${t}`));
    // No outbox worker here: the job, its clock inside the quiet hours, is the one to take them.
    now = '2099-03-25 23:00:00';
    await run();
    expect(textsTo(m.member.mobile)).toEqual([]);
    expect(await messageOf('07:30')).toMatchObject({
      status: 'skipped',
      reason: NotifyQuietReason.classStarted('08:00'),
    });
    expect(await messageOf('09:30')).toMatchObject({ status: 'queued', dueAt: `${day} 08:00:00` });
    await runFrom(`${day} 00:00:00`, `${day} 08:00:00`, 60);
    expect(textsTo(m.member.mobile).map((r) => [r.templateId, r.params])).toEqual([
      ['T_CANCEL', ['晨练', '03-26 09:30', '已取消']],
    ]);
    expect(await messageOf('09:30')).toMatchObject({ status: 'sent', sentAt: `${day} 08:00:00` });
  });

  it('none after the member switched the kind off on the phone (logged 已跳过（已关闭）); none for a booking cancelled before sending', async () => {
    const e = ef();
    const s = await e.scene();
    const day = '2099-03-14';
    const x = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 10:00:00` });
    const y = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 09:00:00` });
    const off = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const cancels = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    await book(x.id, off.card.id);
    const rv = await book(y.id, cancels.card.id);
    const phone = await memberClient(env(), off.member);
    await phone.ok(memberUpdateNotifyPref.path, { kind: 'class_reminder', on: false });
    const prefs = await phone.ok(memberQueryNotifyPref.path);
    expect(prefs.kinds.find((k: { kind: string }) => k.kind === 'class_reminder')).toMatchObject({ on: false });
    // 07:00: y's reminder queued for 08:00 (quiet hours); the booking is then cancelled.
    now = `${day} 07:00:00`;
    await run();
    expect(await logOf(cancels.member.id)).toMatchObject([{ status: 'queued', dueAt: `${day} 08:00:00` }]);
    await env().client.ok(cancelReservationCall.path, { id: rv.id });
    await runFrom(`${day} 07:15:00`, `${day} 09:00:00`);
    expect(textsTo(off.member.mobile)).toEqual([]);
    expect(textsTo(cancels.member.mobile)).toEqual([]);
    expect(await logOf(off.member.id)).toMatchObject([
      { status: 'skipped', reason: '已跳过（已关闭）', channel: null },
    ]);
    expect(await logOf(cancels.member.id)).toMatchObject([{ status: 'skipped', reason: '已跳过（预约已取消）' }]);
    // Switched on again: the kind is sent again (for later classes).
    await phone.ok(memberUpdateNotifyPref.path, { kind: 'class_reminder', on: true });
    const z = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 15:00:00` });
    await book(z.id, off.card.id);
    now = `${day} 13:30:00`;
    await run();
    expect(textsTo(off.member.mobile).length).toBe(1);
  });

  it('queue promotion and class cancelled or moved by the studio: one message each, sent after the commit', async () => {
    const desk = env().client;
    // Sent by the outbox at the real time of day: no quiet hours for this test.
    await desk.ok(updateNotifySetting.path, notify(undefined, { quietFrom: '00:00', quietTo: '00:00' }));
    await desk.ok(updateBookingPolicy.path, { waitlist: 1 });
    const e = ef();
    const s = await e.scene({ product: { perCount: 1, cardType: 2 }, course: { name: '普拉提' } });
    const day = '2099-03-16';
    const full = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      reservableCount: 1,
      startTime: `${day} 19:00:00`,
    });
    const holder = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    const waiter = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    const booked = await book(full.id, holder.card.id);
    await desk.ok(addWaitlist.path, { mid: waiter.member.id, mcId: waiter.card.id, tid: full.id, studentCount: 1 });
    await desk.ok(cancelReservationCall.path, { id: booked.id });
    const moved = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 10:00:00` });
    const gone = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 11:00:00` });
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    await book(moved.id, m.card.id);
    await book(gone.id, m.card.id);
    await desk.ok(updateTimetable.path, {
      id: moved.id,
      teacherId: s.teacher.id,
      date: day,
      time: '16:00',
      count: moved.reservableCount,
      areaId: null,
      bookId: null,
    });
    // An edit that leaves the time alone says nothing.
    await desk.ok(updateTimetable.path, {
      id: moved.id,
      teacherId: s.teacher.id,
      date: day,
      time: '16:00',
      count: moved.reservableCount + 1,
      areaId: null,
      bookId: null,
    });
    await desk.ok(cancelTimetable.path, { id: gone.id });
    const before = sms.received.length;
    const stop = fastWorker(env().app.deps, { allow: new URL(sms.base).host });
    try {
      await waitFor(async () => sms.received.length >= before + 3, 'the three messages');
      await waitFor(
        async () =>
          (
            await env()
              .database.db.selectFrom('notifyLog')
              .select('status')
              .where('status', 'in', ['queued', 'sending'])
              .execute()
          ).length === 0,
        'every message finished',
      );
    } finally {
      await stop();
    }
    expect(await logOf(waiter.member.id)).toMatchObject([{ kind: 'promoted', status: 'sent', channel: 'sms' }]);
    expect(textsTo(waiter.member.mobile).map((r) => [r.templateId, r.params])).toEqual([
      ['T_PROMO', ['普拉提', '03-16 19:00']],
    ]);
    expect(
      textsTo(m.member.mobile)
        .map((r) => [r.templateId, r.params])
        .sort(),
    ).toEqual(
      [
        ['T_CANCEL', ['普拉提', '03-16 10:00', '时间调整为 03-16 16:00']],
        ['T_CANCEL', ['普拉提', '03-16 11:00', '已取消']],
      ].sort(),
    );
    expect(textsTo(holder.member.mobile)).toEqual([]);
    await desk.ok(updateBookingPolicy.path, { waitlist: 0 });
    await desk.ok(updateNotifySetting.path, notify());
  });

  it('WeChat first (the stand-in checks the access token it issued), SMS without an openid; the token is shared and renewed when refused', async () => {
    const desk = env().client;
    const templates = [
      {
        kind: 'class_reminder',
        templateId: 'WX_CLASS',
        fields: [
          { key: 'thing1', value: '{course}' },
          { key: 'time2', value: '{time}' },
          { key: 'thing3', value: '{teacher}' },
        ],
      },
    ];
    await desk.ok(
      updateNotifySetting.path,
      notify({ appId: MP.appId, appSecret: MP.appSecret, baseUrl: mp.base, templates }),
    );
    const shown = await desk.ok(queryNotifySetting.path);
    expect(shown.wechat).toMatchObject({ appId: MP.appId, appSecretSet: true });
    expect(JSON.stringify(shown)).not.toContain(MP.appSecret);
    const e = ef();
    const s = await e.scene({ course: { name: '空中瑜伽' } });
    const day = '2099-03-18';
    const x = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${day} 10:00:00` });
    const bound = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const plain = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const phone = await memberClient(env(), bound.member);
    const stateOf = async () => (await phone.ok(memberWechatState.path, {})).state;
    expect((await phone.call(memberBindWechat.path, { code: 'not-a-code', state: await stateOf() })).code).toBe(503);
    expect(
      await phone.ok(memberBindWechat.path, { code: mp.codeFor('openid-bound-1'), state: await stateOf() }),
    ).toEqual({ bound: true });
    expect(await phone.ok(memberQueryNotifyPref.path)).toMatchObject({ wechatAppId: MP.appId, wechatBound: true });
    await book(x.id, bound.card.id);
    await book(x.id, plain.card.id);
    now = `${day} 08:30:00`;
    await run();
    expect(mp.received.filter((r) => r.touser === 'openid-bound-1')).toEqual([
      {
        touser: 'openid-bound-1',
        templateId: 'WX_CLASS',
        data: { thing1: '空中瑜伽', time2: '03-18 10:00', thing3: s.teacher.name },
        token: expect.stringMatching(/^tok_/),
        answered: 0,
      },
    ]);
    expect(textsTo(bound.member.mobile)).toEqual([]);
    expect(textsTo(plain.member.mobile).map((r) => r.templateId)).toEqual(['T_CLASS']);
    expect(await logOf(bound.member.id)).toMatchObject([{ channel: 'wechat', status: 'sent' }]);
    expect(await logOf(plain.member.id)).toMatchObject([{ channel: 'sms', status: 'sent' }]);

    // The token is cached: a 发送测试 reuses it; once WeChat stops taking it, one refresh and the message goes.
    const tokens = mp.stats.tokenRequests;
    expect(
      await desk.ok(sendNotifyTest.path, { kind: 'class_reminder', channel: 'wechat', openid: 'openid-mgr' }),
    ).toEqual({
      to: 'openid-mgr',
    });
    expect(mp.stats.tokenRequests).toBe(tokens);
    mp.invalidateTokens();
    const refused = mp.stats.refused;
    await desk.ok(sendNotifyTest.path, { kind: 'class_reminder', channel: 'wechat', openid: 'openid-mgr' });
    expect(mp.stats.refused).toBe(refused + 1);
    expect(mp.stats.tokenRequests).toBe(tokens + 1);
    expect(mp.received.filter((r) => r.touser === 'openid-mgr').length).toBe(2);
    // No SMS template of the kind: 409 with the reason; no mobile on the manager's account: 409.
    expect(await desk.call(sendNotifyTest.path, { kind: 'leave_result', channel: 'sms' })).toMatchObject({ code: 409 });
    await desk.ok(updateNotifySetting.path, notify());
  });

  it("WeChat's authorisation state: only a state given to this member's session binds, once, before it expires; a made-up, another member's, another session's, expired or used state binds nothing (400 微信授权已失效); two uses at once bind once", async () => {
    await env().client.ok(
      updateNotifySetting.path,
      notify({ appId: MP.appId, appSecret: MP.appSecret, baseUrl: mp.base }),
    );
    const db = env().database.db;
    const e = ef();
    const s = await e.scene();
    const [a, b, c] = [
      await e.memberWithCard(s.product.id, { card: { totalCount: 5 } }),
      await e.memberWithCard(s.product.id, { card: { totalCount: 5 } }),
      await e.memberWithCard(s.product.id, { card: { totalCount: 5 } }),
    ];
    const phoneA = await memberClient(env(), a.member);
    const phoneB = await memberClient(env(), b.member);
    const stateOf = async (phone: Client) => (await phone.ok(memberWechatState.path, {})).state;
    const bind = (phone: Client, state: string, openid: string) =>
      phone.call(memberBindWechat.path, { code: mp.codeFor(openid), state });
    const openidOf = async (id: number) =>
      (await db.selectFrom('member').select('wechatOpenid').where('id', '=', id).executeTakeFirstOrThrow())
        .wechatOpenid;
    const refused = { code: 400, msg: NotifyMsg.stateExpired };

    // Random per request.
    const s1 = await stateOf(phoneA);
    const s2 = await stateOf(phoneA);
    expect(s1).not.toBe(s2);
    expect(s1).toMatch(/^[\w-]{22,}$/);
    // The constant of before, and none: nothing bound.
    expect(await bind(phoneA, 'notify', 'o-someone-else')).toMatchObject(refused);
    expect(await phoneA.call(memberBindWechat.path, { code: mp.codeFor('o-someone-else') })).toMatchObject({
      code: 400,
      msg: NotifyMsg.stateRequired,
    });
    // A link carrying another member's code and state: binds nothing here.
    const sB = await stateOf(phoneB);
    expect(await bind(phoneA, sB, 'o-someone-else')).toMatchObject(refused);
    // The same member's state, from another session (another phone).
    const phoneA2 = await memberClient(env(), a.member);
    expect(await bind(phoneA2, s1, 'o-someone-else')).toMatchObject(refused);
    // Expired (the row aged past its 10 minutes).
    await db
      .updateTable('wechatOauthState')
      .set({ expiresAt: Date.now() - 1 })
      .where('state', '=', s2)
      .execute();
    expect(await bind(phoneA, s2, 'o-someone-else')).toMatchObject(refused);
    expect(await openidOf(a.member.id)).toBeNull();

    // The right state binds; used again, nothing.
    expect(await phoneA.ok(memberBindWechat.path, { code: mp.codeFor('o-member-a'), state: s1 })).toEqual({
      bound: true,
    });
    expect(await bind(phoneA, s1, 'o-someone-else')).toMatchObject(refused);
    expect(await openidOf(a.member.id)).toBe('o-member-a');
    // B's state, refused on A's phone, is still B's.
    expect(await phoneB.ok(memberBindWechat.path, { code: mp.codeFor('o-member-b'), state: sB })).toEqual({
      bound: true,
    });
    expect(await openidOf(b.member.id)).toBe('o-member-b');

    // One state used six times at once (PostgreSQL: over three instances): one binds.
    const phoneC = await memberClient(env(), c.member);
    const sC = await stateOf(phoneC);
    const phones = instances.apps.map((app) => Object.assign(new Client(app), { cookie: phoneC.cookie }));
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => bind(phones[i % phones.length], sC, `o-c-${i}`)));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    expect(results.filter((r) => r.code === 400 && r.msg === NotifyMsg.stateExpired)).toHaveLength(5);
    expect(await openidOf(c.member.id)).toBe(`o-c-${results.findIndex((r) => r.code === 0)}`);
    await env().client.ok(updateNotifySetting.path, notify());
  });

  it('cards expiring in 7 days and balances below the card-alert thresholds: one message per card and event', async () => {
    const e = ef();
    const s = await e.scene({ product: { cardName: '次卡10次', cardType: 1 } });
    const m = await e.memberWithCard(s.product.id, {
      card: { totalCount: 10, usedCount: 9, expireTime: '2099-04-05 23:59:59' },
    });
    now = '2099-04-01 03:00:00';
    await run();
    expect(textsTo(m.member.mobile)).toEqual([]);
    expect((await logOf(m.member.id)).map((r) => [r.kind, r.status, r.dueAt]).sort()).toEqual([
      ['balance_low', 'queued', '2099-04-01 08:00:00'],
      ['card_expiring', 'queued', '2099-04-01 08:00:00'],
    ]);
    await runFrom('2099-04-01 08:00:00', '2099-04-02 12:00:00', 60);
    expect(
      textsTo(m.member.mobile)
        .map((r) => [r.templateId, (r.params as string[])[1]])
        .sort(),
    ).toEqual([
      ['T_EXPIRE', '2099-04-05'],
      ['T_LOW', '1次'],
    ]);
  });

  it("a member's leave request decided at the desk: one message of each decision, approved or refused saying why", async () => {
    const e = ef();
    const s = await e.scene({
      product: { cardName: '月卡', cardType: 1, leaveAllowed: 1, leaveTimes: 3, leaveDaysMax: 7, leaveDaysTotal: 10 },
    });
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 10, expireTime: '2099-12-31 23:59:59' } });
    const phone = await memberClient(env(), m.member);
    const ask = (from: number) =>
      phone.ok('/member/api/request/card/leave', {
        mcId: m.card.id,
        fromDate: addDays(today(), from),
        toDate: addDays(today(), from + 1),
        reason: '出差',
      }) as Promise<{ id: number; status: string }>;
    await env().client.ok('/store/api/update/card/life/setting', { coolingOffDays: 7, leaveApproval: 'desk' });
    try {
      const first = await ask(1);
      expect(first.status).toBe('pending');
      expect(await logOf(m.member.id, 'leave_result')).toEqual([]);
      await env().client.ok('/store/api/approve/card/leave', { id: first.id });
      const second = await ask(5);
      await env().client.ok('/store/api/refuse/card/leave', { id: second.id, remark: '课程已满' });
      const told = (await logOf(m.member.id, 'leave_result')).map((r) => [
        r.dedupeKey,
        (JSON.parse(r.payload) as { vars: Record<string, string> }).vars,
      ]);
      const dates = (from: number) => `${addDays(today(), from)} 至 ${addDays(today(), from + 1)}`;
      expect(told).toEqual([
        [
          `leave_result:${first.id}:approved:${m.member.id}`,
          expect.objectContaining({ name: m.member.name, card: '月卡', result: '已批准', dates: dates(1) }),
        ],
        [
          `leave_result:${second.id}:refused:${m.member.id}`,
          expect.objectContaining({ card: '月卡', result: '未批准（课程已满）', dates: dates(5) }),
        ],
      ]);
    } finally {
      await env().client.ok('/store/api/update/card/life/setting', { coolingOffDays: 7, leaveApproval: 'auto' });
    }
  });

  it('two instances running the job at once send each reminder once (PostgreSQL)', async (ctx) => {
    if (env().dialect !== 'postgres' || !PG_URL) return ctx.skip();
    const database = openDatabase({ url: PG_URL, schema: env().database.schema, poolMax: 10 });
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
    const second = await buildApp({ config, database, logger: false });
    try {
      const e = ef();
      const s = await e.scene();
      const day = '2099-03-20';
      const members: Awaited<ReturnType<typeof bookedAt>>[] = [];
      for (let i = 0; i < 6; i++) {
        const x = await e.session({
          courseId: s.course.id,
          teacherId: s.teacher.id,
          startTime: `${day} ${String(10 + i).padStart(2, '0')}:00:00`,
        });
        for (let j = 0; j < 3; j++) {
          const m = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
          await book(x.id, m.card.id);
          members.push(m.member);
        }
      }
      // Half of them reachable by WeChat: both instances need the account's token at once.
      await env().client.ok(
        updateNotifySetting.path,
        notify({
          appId: MP.appId,
          appSecret: MP.appSecret,
          baseUrl: mp.base,
          templates: [
            { kind: 'class_reminder', templateId: 'WX_CLASS', fields: [{ key: 'thing1', value: '{course}' }] },
          ],
        }),
      );
      for (const [i, m] of members.entries()) {
        if (i % 2)
          await env()
            .database.db.updateTable('member')
            .set({ wechatOpenid: `openid-race-${i}` })
            .where('id', '=', m.id)
            .execute();
      }
      await env().database.db.deleteFrom('wechatToken').execute();
      const tokens = mp.stats.tokenRequests;
      const before = sms.received.length;
      const deps2 = { ...second.deps, config: env().app.deps.config };
      for (now = `${day} 07:00:00`; now <= `${day} 16:00:00`; now = addMinutes(now, 30)) {
        await Promise.all([runReminders(env().app.deps, clock), runReminders(deps2, clock), run()]);
      }
      const got = sms.received.slice(before);
      expect(got.length).toBe(9);
      expect(new Set(got.map((r) => r.mobile)).size).toBe(9);
      const wx = mp.received.filter((r) => r.touser.startsWith('openid-race-'));
      expect(wx.length).toBe(9);
      expect(new Set(wx.map((r) => r.touser)).size).toBe(9);
      // One token for the three senders: the refresh was taken by one of them.
      expect(mp.stats.tokenRequests).toBe(tokens + 1);
      const rows = await env()
        .database.db.selectFrom('notifyLog')
        .select('status')
        .where('dueAt', 'like', `${day}%`)
        .execute();
      expect(rows.map((r) => r.status)).toEqual(Array(18).fill('sent'));
    } finally {
      await env().client.ok(updateNotifySetting.path, notify());
      await second.close();
      await database.close();
    }
  });

  // ---- Aliyun as the fallback; failed sends tried again

  const WX_CLASS = [
    {
      kind: 'class_reminder',
      templateId: 'WX_CLASS',
      fields: [
        { key: 'thing1', value: '{course}' },
        { key: 'time2', value: '{time}' },
      ],
    },
  ];
  const withWechat = (hours = 2) => ({
    ...notify({ appId: MP.appId, appSecret: MP.appSecret, baseUrl: mp.base, templates: WX_CLASS }),
    classReminderHours: hours,
  });
  const bindOpenid = (memberId: number, openid: string) =>
    env().database.db.updateTable('member').set({ wechatOpenid: openid }).where('id', '=', memberId).execute();
  const wxTo = (openid: string) => mp.received.filter((r) => r.touser === openid);
  const aliyunTo = (mobile: string) => sms.received.filter((r) => r.provider === 'aliyun' && r.mobile === mobile);
  /** A member booked in a new class at `start` (store-local). */
  async function bookedAt(start: string, course = '普拉提') {
    const e = ef();
    const s = await e.scene({ course: { name: course } });
    const x = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: start });
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    await book(x.id, m.card.id);
    return m.member;
  }

  it('Aliyun SMS as the fallback: the class reminder by Aliyun with its template (the stand-in checks the signature), WeChat refusing the member (43004) falls back at once; Aliyun refusing the mobile is 失败 in Chinese, not tried again', async () => {
    const desk = env().client;
    await desk.ok(updateSmsSetting.path, sms.setting('aliyun', SECRET.aliyun));
    await desk.ok(updateNotifySetting.path, withWechat());
    try {
      const day = '2099-05-02';
      const plain = await bookedAt(`${day} 10:00:00`, '普拉提');
      const unfollowed = await bookedAt(`${day} 10:00:00`, '普拉提');
      await bindOpenid(unfollowed.id, 'openid-unfollowed');
      const badMobile = await bookedAt(`${day} 11:30:00`, '瑜伽');
      mp.answerNext({ errcode: 43004, errmsg: 'require subscribe rid: 6a1b' });
      now = `${day} 08:30:00`;
      await run();
      // What Aliyun received for the member without an openid: the kind's template and its variables by name.
      expect(aliyunTo(plain.mobile)).toEqual([
        expect.objectContaining({
          provider: 'aliyun',
          signatureOk: true,
          templateId: 'T_CLASS',
          params: { course: '普拉提', time: '05-02 10:00' },
          signName: '悦动健身',
          answered: 'OK',
        }),
      ]);
      expect(textsTo(plain.mobile)).toEqual([]);
      expect(await logOf(plain.id)).toMatchObject([{ status: 'sent', channel: 'sms', reason: '', tries: 1 }]);
      // WeChat said the member does not follow the account: SMS at once, the log saying why.
      expect(wxTo('openid-unfollowed').map((r) => r.answered)).toEqual([43004]);
      expect(aliyunTo(unfollowed.mobile).map((r) => [r.signatureOk, r.templateId, r.answered])).toEqual([
        [true, 'T_CLASS', 'OK'],
      ]);
      expect(await logOf(unfollowed.id)).toMatchObject([
        { status: 'sent', channel: 'sms', reason: '微信：会员未关注公众号（43004），已改发短信', tries: 1 },
      ]);

      // Aliyun refuses the mobile: 失败 with the reason in Chinese, never tried again.
      sms.answerNext('aliyun', { code: 'isv.MOBILE_NUMBER_ILLEGAL', message: 'invalid mobile number' });
      await runFrom(`${day} 09:30:00`, `${day} 11:15:00`, 1);
      expect(aliyunTo(badMobile.mobile).map((r) => [r.signatureOk, r.answered])).toEqual([
        [true, 'isv.MOBILE_NUMBER_ILLEGAL'],
      ]);
      expect(await logOf(badMobile.id)).toMatchObject([
        { status: 'failed', channel: 'sms', reason: '短信：手机号码格式错误（isv.MOBILE_NUMBER_ILLEGAL）', tries: 1 },
      ]);
      const log = await desk.ok(queryNotifyLog.path, { fromDate: day, toDate: day, memberId: badMobile.id });
      expect(log.list).toMatchObject([
        { status: 'failed', channel: 'sms', tries: 1, reason: '短信：手机号码格式错误（isv.MOBILE_NUMBER_ILLEGAL）' },
      ]);
      // A wrong AccessKey secret: the stand-in refuses the signature, logged as such.
      await desk.ok(updateSmsSetting.path, sms.setting('aliyun', 'not-the-secret'));
      const wrongKey = await bookedAt(`${day} 14:00:00`);
      now = `${day} 12:30:00`;
      await run();
      expect(aliyunTo(wrongKey.mobile).map((r) => [r.signatureOk, r.answered])).toEqual([
        [false, 'SignatureDoesNotMatch'],
      ]);
      expect(await logOf(wrongKey.id)).toMatchObject([
        { status: 'failed', reason: '短信：AccessKey Secret 不正确（签名不匹配）（SignatureDoesNotMatch）', tries: 1 },
      ]);
    } finally {
      await desk.ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('a 5xx then success: sent once, after the backoff (WeChat 502, Tencent 503)', async () => {
    const desk = env().client;
    await desk.ok(updateNotifySetting.path, withWechat());
    try {
      const day = '2099-05-04';
      const wx = await bookedAt(`${day} 10:00:00`);
      await bindOpenid(wx.id, 'openid-5xx');
      const text = await bookedAt(`${day} 10:00:00`);
      mp.answerNext({ status: 502 });
      sms.answerNext('tencent', { status: 503 });
      now = `${day} 08:30:00`;
      await run();
      expect(await logOf(wx.id)).toMatchObject([
        {
          status: 'queued',
          channel: 'wechat',
          tries: 1,
          dueAt: `${day} 08:31:00`,
          reason: '第1次发送失败：微信：微信接口暂时不可用（HTTP 502）；08:31 重试',
        },
      ]);
      expect(await logOf(text.id)).toMatchObject([
        {
          status: 'queued',
          channel: 'sms',
          tries: 1,
          dueAt: `${day} 08:31:00`,
          reason: '第1次发送失败：短信：腾讯云接口暂时不可用（HTTP 503）；08:31 重试',
        },
      ]);
      // Not before its time.
      now = `${day} 08:30:45`;
      await run();
      expect(wxTo('openid-5xx').length).toBe(1);
      expect(textsTo(text.mobile).length).toBe(1);
      await runFrom(`${day} 08:31:00`, `${day} 09:45:00`, 1);
      expect(wxTo('openid-5xx').map((r) => r.answered)).toEqual(['HTTP 502', 0]);
      expect(textsTo(text.mobile).map((r) => [r.signatureOk, r.answered])).toEqual([
        [true, 'HTTP 503'],
        [true, 'OK'],
      ]);
      expect(await logOf(wx.id)).toMatchObject([
        { status: 'sent', channel: 'wechat', tries: 2, sentAt: `${day} 08:31:00`, reason: '' },
      ]);
      expect(await logOf(text.id)).toMatchObject([{ status: 'sent', channel: 'sms', tries: 2, reason: '' }]);
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('three failures end as 失败 with the last reason (Aliyun throttling); WeChat busy at the last try falls back to SMS', async () => {
    const desk = env().client;
    await desk.ok(updateSmsSetting.path, sms.setting('aliyun', SECRET.aliyun));
    await desk.ok(updateNotifySetting.path, withWechat());
    try {
      const day = '2099-05-06';
      const throttled = await bookedAt(`${day} 10:30:00`);
      const limit = { code: 'isv.BUSINESS_LIMIT_CONTROL', message: '触发分钟级流控Permits:1' };
      sms.answerNext('aliyun', limit, limit, limit);
      await runFrom(`${day} 08:30:00`, `${day} 08:59:00`, 1);
      // Tried at 08:30, 08:31 (1 minute on), 08:36 (5 more), each signed anew (a fresh nonce); then 失败.
      expect(aliyunTo(throttled.mobile).map((r) => [r.signatureOk, r.answered])).toEqual(
        Array(3).fill([true, 'isv.BUSINESS_LIMIT_CONTROL']),
      );
      expect(await logOf(throttled.id)).toMatchObject([
        {
          status: 'failed',
          channel: 'sms',
          tries: 3,
          dueAt: `${day} 08:36:00`,
          reason: '短信：触发发送频率限制（流控）（isv.BUSINESS_LIMIT_CONTROL）',
        },
      ]);
      const log = await desk.ok(queryNotifyLog.path, { fromDate: day, toDate: day, status: 'failed' });
      expect(log.list).toMatchObject([{ memberId: throttled.id, tries: 3, status: 'failed' }]);
      expect(log.days).toEqual([{ date: day, sms: 0, wechat: 0, failed: 1, skipped: 0 }]);

      // WeChat busy (-1) three times: WeChat again at 09:01 and 09:06, then SMS at the last try.
      const busy = await bookedAt(`${day} 11:00:00`);
      await bindOpenid(busy.id, 'openid-busy');
      const sysBusy = { errcode: -1, errmsg: 'system error' };
      mp.answerNext(sysBusy, sysBusy, sysBusy);
      await runFrom(`${day} 09:00:00`, `${day} 09:30:00`, 1);
      expect(wxTo('openid-busy').map((r) => r.answered)).toEqual([-1, -1, -1]);
      expect(aliyunTo(busy.mobile).map((r) => [r.signatureOk, r.answered])).toEqual([[true, 'OK']]);
      expect(await logOf(busy.id)).toMatchObject([
        {
          status: 'sent',
          channel: 'sms',
          tries: 3,
          sentAt: `${day} 09:06:00`,
          reason: '微信：微信系统繁忙（-1），已改发短信',
        },
      ]);
    } finally {
      await desk.ok(updateSmsSetting.path, sms.setting('tencent', SECRET.tencent));
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('a retry keeps the quiet hours (deferred to 08:00) and the member switching the kind off (skipped)', async () => {
    const desk = env().client;
    // Reminded 12 hours ahead: an evening failure's retry falls in the quiet hours.
    await desk.ok(updateNotifySetting.path, withWechat(12));
    try {
      const evening = await bookedAt('2099-05-09 09:00:00');
      await bindOpenid(evening.id, 'openid-evening');
      const busy = { errcode: -1, errmsg: 'system error' };
      mp.answerNext(busy, busy);
      await runFrom('2099-05-08 21:58:00', '2099-05-08 22:10:00', 1);
      expect(wxTo('openid-evening').map((r) => r.answered)).toEqual([-1, -1]);
      expect(await logOf(evening.id)).toMatchObject([
        { status: 'queued', tries: 2, dueAt: '2099-05-09 08:00:00', reason: NotifyQuietReason.waiting('08:00') },
      ]);
      await runFrom('2099-05-08 23:00:00', '2099-05-09 07:59:00', 60);
      expect(wxTo('openid-evening').length).toBe(2);
      now = '2099-05-09 08:00:00';
      await run();
      expect(wxTo('openid-evening').map((r) => r.answered)).toEqual([-1, -1, 0]);
      expect(await logOf(evening.id)).toMatchObject([{ status: 'sent', channel: 'wechat', tries: 3 }]);

      // Failed once, then switched off on the phone: the retry skips it.
      const off = await bookedAt('2099-05-09 20:00:00');
      mp.answerNext({ status: 500 });
      await bindOpenid(off.id, 'openid-off');
      now = '2099-05-09 08:30:00';
      await run();
      expect(await logOf(off.id)).toMatchObject([{ status: 'queued', tries: 1 }]);
      const phone = await memberClient(env(), off);
      await phone.ok(memberUpdateNotifyPref.path, { kind: 'class_reminder', on: false });
      await runFrom('2099-05-09 08:31:00', '2099-05-09 09:00:00', 1);
      expect(wxTo('openid-off').map((r) => r.answered)).toEqual(['HTTP 500']);
      expect(textsTo(off.mobile)).toEqual([]);
      expect(await logOf(off.id)).toMatchObject([{ status: 'skipped', reason: '已跳过（已关闭）', tries: 1 }]);
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('a retry falling in the quiet hours whose class starts before they end is dropped, 消息记录 saying why', async () => {
    const desk = env().client;
    await desk.ok(updateNotifySetting.path, withWechat(12));
    try {
      const m = await bookedAt('2099-05-22 07:30:00');
      await bindOpenid(m.id, 'openid-too-late');
      const busy = { errcode: -1, errmsg: 'system error' };
      mp.answerNext(busy, busy);
      // 21:58 and 21:59 fail; the try after, at 22:04, falls in the quiet hours, which end after the class starts.
      await runFrom('2099-05-21 21:58:00', '2099-05-21 22:10:00', 1);
      await runFrom('2099-05-21 23:00:00', '2099-05-22 09:00:00', 60);
      expect(wxTo('openid-too-late').map((r) => r.answered)).toEqual([-1, -1]);
      expect(textsTo(m.mobile)).toEqual([]);
      expect(await logOf(m.id)).toMatchObject([
        { status: 'skipped', tries: 2, sentAt: null, reason: NotifyQuietReason.classStarted('08:00') },
      ]);
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('an access token WeChat says expired (42001): a new one at once, and the message goes on the same try', async () => {
    const desk = env().client;
    await desk.ok(updateNotifySetting.path, withWechat());
    try {
      const day = '2099-05-12';
      const m = await bookedAt(`${day} 10:00:00`);
      await bindOpenid(m.id, 'openid-expired');
      // A token cached and still valid by the app's clock, that WeChat has expired.
      now = `${day} 06:00:00`;
      await desk.ok(sendNotifyTest.path, { kind: 'class_reminder', channel: 'wechat', openid: 'openid-warm' });
      const cached = await env()
        .database.db.selectFrom('wechatToken')
        .select('accessToken')
        .where('appId', '=', MP.appId)
        .executeTakeFirstOrThrow();
      mp.expireTokens();
      const tokens = mp.stats.tokenRequests;
      const refused = mp.stats.refused;
      now = `${day} 08:30:00`;
      await run();
      expect(mp.stats.refused).toBe(refused + 1);
      expect(mp.stats.tokenRequests).toBe(tokens + 1);
      const got = wxTo('openid-expired');
      expect(got.map((r) => r.answered)).toEqual([0]);
      expect(got[0].token).not.toBe(cached.accessToken);
      const row = await env()
        .database.db.selectFrom('wechatToken')
        .select('accessToken')
        .where('appId', '=', MP.appId)
        .executeTakeFirstOrThrow();
      expect(row.accessToken).toBe(got[0].token);
      expect(await logOf(m.id)).toMatchObject([{ status: 'sent', channel: 'wechat', tries: 1, reason: '' }]);
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });

  it('three instances running the retry at once send each message once (PostgreSQL)', async (ctx) => {
    if (env().dialect !== 'postgres' || !PG_URL) return ctx.skip();
    const desk = env().client;
    await desk.ok(updateNotifySetting.path, withWechat());
    try {
      const day = '2099-05-14';
      const members: Awaited<ReturnType<typeof bookedAt>>[] = [];
      for (let i = 0; i < 8; i++) {
        const m = await bookedAt(`${day} 10:00:00`);
        if (i % 2) await bindOpenid(m.id, `openid-retry-race-${i}`);
        members.push(m);
      }
      mp.answerNext(...Array(4).fill({ status: 502 }));
      sms.answerNext('tencent', ...Array(4).fill({ status: 503 }));
      now = `${day} 08:30:00`;
      await run();
      const rows = () =>
        env()
          .database.db.selectFrom('notifyLog')
          .select(['status', 'tries'])
          .where(
            'memberId',
            'in',
            members.map((m) => m.id),
          )
          .execute();
      expect(await rows()).toEqual(Array(8).fill({ status: 'queued', tries: 1 }));
      // Every instance's job, its deps reaching the stand-ins.
      const deps: JobDeps[] = instances.apps.map((a) => ({ ...a.deps, config: env().app.deps.config }));
      expect(deps.length).toBe(3);
      now = `${day} 08:31:00`;
      await Promise.all(deps.map((d) => runReminders(d, clock)));
      await Promise.all(deps.map((d) => runReminders(d, clock)));
      for (const [i, m] of members.entries()) {
        if (i % 2) expect(wxTo(`openid-retry-race-${i}`).map((r) => r.answered)).toEqual(['HTTP 502', 0]);
        else expect(textsTo(m.mobile).map((r) => r.answered)).toEqual(['HTTP 503', 'OK']);
      }
      expect(await rows()).toEqual(Array(8).fill({ status: 'sent', tries: 2 }));
    } finally {
      await desk.ok(updateNotifySetting.path, notify());
    }
  });
});
