// 体验课 (issue 44, item 3): a lead booked into a class without a card. The seat is guarded as every
// booking's (trial and member bookings racing for the last seats over two instances: exact), one
// booked trial per lead, attendance moves the lead to 已体验 with the class's teacher, a missed trial
// heads the owner's 我的待跟进, a cancel (or the class's delete) frees the seat; invariants clean.
import {
  addMemberReservation,
  cancelLeadTrial,
  cancelTimetable,
  insertLead,
  insertLeadTrial,
  LeadMsg,
  markLeadTrial,
  Msg,
  queryLeadFunnel,
  queryLeadFunnelList,
  queryLeadInfo,
  queryLeadTodoList,
  queryLeadTrialList,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb, moreInstances, staffClient, tally, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { localDateTime } from '../../lib/time.ts';

describeEachDb('leads: trial classes (体验课)', (env) => {
  const instances = moreInstances(env, 1);
  const pick = (i: number) => instances.clients[i % instances.clients.length];
  const ef = () => new EngineFactory(env().factory);
  const db = () => env().database.db;
  let seller: Client;
  let sellerId: number;
  let n = 0;
  const mobile = () => `137${String(Date.now() % 100000).padStart(5, '0')}${String(n++).padStart(3, '0')}`;
  const leadRow = (id: number) => db().selectFrom('lead').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const invariants = async () => expect(await checkInvariants(db())).toEqual([]);

  beforeAll(async () => {
    seller = await staffClient(env(), 'desk');
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
  });

  /** A lead of the seller's (or, by the manager, of the pool). */
  async function newLead(c: Client = seller, name = '体验潜客') {
    const { id } = await c.ok(insertLead.path, {
      name,
      mobile: mobile(),
      source: '到店',
      ownerId: c === seller ? sellerId : null,
    });
    return id as number;
  }

  it('trial and member bookings racing for the last 6 seats over two instances: exactly 6 get one', async () => {
    const e = ef();
    const { teacher, course, product } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, reservableCount: 6 });
    const leads = [];
    for (let i = 0; i < 20; i++) leads.push(await newLead(env().client));
    const cards = await Promise.all(Array.from({ length: 20 }, () => e.memberWithCard(product.id)));
    const answers = await Promise.all([
      ...leads.map((leadId, i) => pick(i).call(insertLeadTrial.path, { leadId, sessionId: s.id })),
      ...cards.map(({ card }, i) => pick(i + 1).call(addMemberReservation.path, { mcId: card.id, tid: s.id })),
    ]);
    expect(tally(answers)).toEqual({ ok: 6, [`409 ${Msg.sessionFull}`]: 34 });
    expect((await e.sessionRow(s.id)).realCount).toBe(6);
    const booked = answers.slice(0, 20).filter((a) => a.code === 0).length;
    const trials = await env().client.ok(queryLeadTrialList.path, { sessionId: s.id });
    expect(trials).toHaveLength(booked);
    // A booked lead is 已约体验; a refused one keeps its stage.
    for (const [i, leadId] of leads.entries()) {
      expect((await leadRow(leadId)).stage).toBe(answers[i].code === 0 ? 'trial_booked' : 'new');
    }
    await invariants();
  });

  it('one booked trial per lead: ten bookings of one lead into ten classes at once, one is made', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const sessions = [];
    for (let i = 0; i < 10; i++) {
      sessions.push(
        await e.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} ${10 + i}:00:00` }),
      );
    }
    const leadId = await newLead();
    const answers = await Promise.all(
      sessions.map((s, i) => pick(i).call(insertLeadTrial.path, { leadId, sessionId: s.id })),
    );
    expect(tally(answers)).toEqual({ ok: 1, [`409 ${LeadMsg.trialLive}`]: 9 });
    const seats = await Promise.all(sessions.map((s) => e.sessionRow(s.id)));
    expect(seats.reduce((a, s) => a + s.realCount, 0)).toBe(1);
    // The lead's info lists it; another booking is refused until it is taken or cancelled.
    const info = await seller.ok(queryLeadInfo.path, { id: leadId });
    expect(info.trials).toHaveLength(1);
    expect(info.trials[0]).toMatchObject({ status: 1, courseName: course.name, teacherName: teacher.name });
    await invariants();
  });

  it('attendance makes the lead 已体验 with the class teacher; another trial may follow', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id });
    const other = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} 15:00:00` });
    const leadId = await newLead();
    // A private lesson takes no trial here (group classes only).
    const lessonType = await env().factory.course({ kind: 'one_on_one' });
    const lesson = await e.session({ courseId: lessonType.id, teacherId: teacher.id, startTime: `${FUTURE} 18:00:00` });
    expect(await seller.call(insertLeadTrial.path, { leadId, sessionId: lesson.id })).toMatchObject({
      status: 409,
      msg: LeadMsg.trialGroupOnly,
    });
    const { id } = await seller.ok(insertLeadTrial.path, { leadId, sessionId: s.id });
    // The class's teacher marks it; a teacher of another class may not; the session must be the trial's.
    const stranger = await staffClient(env(), 'teacher', (await env().factory.teacher()).id);
    expect((await stranger.call(markLeadTrial.path, { id, sessionId: s.id })).status).toBe(403);
    expect(await seller.call(markLeadTrial.path, { id, sessionId: other.id })).toMatchObject({
      status: 409,
      msg: LeadMsg.trialSession,
    });
    const own = await staffClient(env(), 'teacher', teacher.id);
    await own.ok(markLeadTrial.path, { id, sessionId: s.id });
    const l = await leadRow(leadId);
    expect(l).toMatchObject({ stage: 'trial_done', trialTeacherId: teacher.id });
    expect(l.trialDoneAt).not.toBeNull();
    expect(l.trialBookedAt).not.toBeNull();
    expect(l.contactedAt).not.toBeNull();
    // 转化漏斗 按体验课老师: the lead counts under the teacher who taught the trial (and the list behind it).
    const day = l.createdAt.slice(0, 10);
    const funnel = await env().client.ok(queryLeadFunnel.path, { fromDate: day, toDate: day });
    expect(funnel.byTeacher.find((r: { teacherId: number }) => r.teacherId === teacher.id)).toMatchObject({
      teacherName: teacher.name,
      leads: 1,
      contacted: 1,
      trialBooked: 1,
      trialDone: 1,
      converted: 0,
    });
    const behind = await env().client.ok(queryLeadFunnelList.path, {
      fromDate: day,
      toDate: day,
      step: 'trialDone',
      teacherId: teacher.id,
      page: 1,
    });
    expect(behind.list.map((r: { id: number }) => r.id)).toEqual([leadId]);
    // Marking again changes nothing; an attended trial is not cancelled; its seat stays taken.
    await seller.ok(markLeadTrial.path, { id, sessionId: s.id });
    expect(await seller.call(cancelLeadTrial.path, { id })).toMatchObject({ status: 409, msg: LeadMsg.trialAttended });
    expect((await e.sessionRow(s.id)).realCount).toBe(1);
    const [row] = await env().client.ok(queryLeadTrialList.path, { sessionId: s.id });
    expect(row).toMatchObject({ id, leadId, status: 2, ownerName: 'desk员工' });
    // A second trial may be booked now that the first was taken.
    await seller.ok(insertLeadTrial.path, { leadId, sessionId: other.id });
    expect((await leadRow(leadId)).stage).toBe('trial_booked');
    await invariants();
  });

  it('a missed trial heads the owner’s 我的待跟进 the same day', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id });
    const early = await newLead(seller, '有约跟进');
    await seller.ok('/store/api/insert/lead/follow/up', {
      leadId: early,
      way: 'phone',
      note: '约了下周',
      nextDate: '2000-01-01',
    });
    const missed = await newLead(seller, '体验未到');
    await seller.ok(insertLeadTrial.path, { leadId: missed, sessionId: s.id });
    const before = await seller.ok(queryLeadTodoList.path);
    expect(before.find((r: { id: number }) => r.id === missed)).toMatchObject({ trialMissed: false });
    expect(before[0].id).not.toBe(missed);
    // The class took place earlier today (the staging moves it: the booking refuses an ended class).
    const { timezone } = await db()
      .selectFrom('store')
      .select('timezone')
      .where('id', '=', s.storeId)
      .executeTakeFirstOrThrow();
    const today = localDateTime(timezone).slice(0, 10);
    await db()
      .updateTable('timetable')
      .set({ startTime: `${today} 00:00:00`, endTime: `${today} 00:00:01` })
      .where('id', '=', s.id)
      .execute();
    const after = await seller.ok(queryLeadTodoList.path);
    expect(after[0]).toMatchObject({ id: missed, name: '体验未到', trialMissed: true });
    // An ended class takes no trial; marking the missed one 到店 afterwards clears it.
    expect(await seller.call(insertLeadTrial.path, { leadId: early, sessionId: s.id })).toMatchObject({
      status: 409,
      msg: LeadMsg.trialEnded,
    });
    const [t] = await seller.ok(queryLeadTrialList.path, { sessionId: s.id });
    await seller.ok(markLeadTrial.path, { id: t.id, sessionId: s.id });
    const cleared = await seller.ok(queryLeadTodoList.path);
    expect(cleared.find((r: { id: number }) => r.id === missed)).toMatchObject({ trialMissed: false });
    await invariants();
  });

  it('a cancel frees the seat and puts the lead back; twice is refused; a deleted class cancels its trials', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, reservableCount: 1 });
    const a = await newLead();
    await seller.ok('/store/api/insert/lead/follow/up', { leadId: a, way: 'wechat', note: '加了微信' });
    const b = await newLead();
    const { id } = await seller.ok(insertLeadTrial.path, { leadId: a, sessionId: s.id });
    expect(await seller.call(insertLeadTrial.path, { leadId: b, sessionId: s.id })).toMatchObject({
      status: 409,
      msg: Msg.sessionFull,
    });
    const answers = await Promise.all([0, 1, 2, 3].map((i) => pick(i).call(cancelLeadTrial.path, { id })));
    expect(tally(answers)).toEqual({ ok: 1, [`409 ${LeadMsg.trialCancelled}`]: 3 });
    expect((await leadRow(a)).stage).toBe('contacted');
    expect((await e.sessionRow(s.id)).realCount).toBe(0);
    await seller.ok(insertLeadTrial.path, { leadId: b, sessionId: s.id });
    expect((await e.sessionRow(s.id)).realCount).toBe(1);
    // Someone else's lead: refused to a non-manager.
    const other = await staffClient(env(), 'desk');
    const [t] = await seller.ok(queryLeadTrialList.path, { sessionId: s.id });
    expect((await other.call(cancelLeadTrial.path, { id: t.id })).status).toBe(403);
    // The class is deleted: its trial is cancelled, the seat freed, the lead back to 新线索.
    await env().client.ok(cancelTimetable.path, { id: s.id });
    expect((await leadRow(b)).stage).toBe('new');
    expect((await e.sessionRow(s.id)).realCount).toBe(0);
    expect(await seller.ok(queryLeadTrialList.path, { sessionId: s.id })).toEqual([]);
    await invariants();
  });
});
