import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, localDateTime } from '../../../lib/time.ts';
import { EngineFactory } from '../../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type TestEnv } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';
import { memberClient } from '../../../../test/member-client.ts';

const API = '/store/api';
const today = () => localDateTime('Asia/Shanghai').slice(0, 10);
const md = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

/** A 30-day count card product that allows leave (up to 3 times, 7 days each, 10 in all), sold at the desk. */
async function leaveScene(env: TestEnv, product: Record<string, unknown> = {}) {
  const e = new EngineFactory(env.factory);
  const {
    teacher,
    product: p,
    course,
  } = await e.scene({
    product: {
      cardType: 1,
      validDays: 30,
      leaveAllowed: 1,
      leaveTimes: 3,
      leaveDaysMax: 7,
      leaveDaysTotal: 10,
      ...product,
    },
  });
  const member = await env.factory.member();
  const { id: mcId } = await env.client.ok(`${API}/insert/member/card`, {
    mid: member.id,
    cardId: p.id,
    totalCount: 10,
    payment: { amount: 100000, method: 'cash', remark: null },
  });
  return { e, teacher, product: p, course, member, mcId: mcId as number };
}

const expiryOf = async (env: TestEnv, mcId: number) =>
  (await env.database.db.selectFrom('memberCard').select('expireTime').where('id', '=', mcId).executeTakeFirstOrThrow())
    .expireTime;

describeEachDb('card leave (issue 29, item 1)', (env) => {
  it('moves the expiry by the days of leave, and ending early gives the unused days back', async () => {
    const { mcId } = await leaveScene(env());
    const t = today();
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 30)} 23:59:59`);
    const from = addDays(t, 2);
    const to = addDays(t, 6);
    const preview = await env().client.ok(`${API}/query/card/leave/preview`, { mcId, fromDate: from, toDate: to });
    expect(preview).toEqual({ days: 5, expireTime: `${addDays(t, 35)} 23:59:59`, refusal: null, bookings: [] });
    const { id } = await env().client.ok(`${API}/add/card/leave`, { mcId, fromDate: from, toDate: to, reason: '出差' });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 35)} 23:59:59`);
    // ended after its second day: 2 days kept, 3 given back
    await env().client.ok(`${API}/end/card/leave`, { id, date: addDays(t, 3) });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 32)} 23:59:59`);
    const list = await env().client.ok(`${API}/query/card/leave/list`, { mcId, page: 1 });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      id,
      status: 'ended',
      days: 2,
      endedDate: addDays(t, 3),
      requestedBy: 'staff',
    });
    const card = await env()
      .database.db.selectFrom('memberCard')
      .select(['leaveDays', 'leavePeriods'])
      .where('id', '=', mcId)
      .executeTakeFirstOrThrow();
    expect(card).toEqual({ leaveDays: 2, leavePeriods: JSON.stringify([[from, addDays(t, 3)]]) });
    // history: the ledger notes each step, the audit log too
    const ledger = await env().client.ok(`${API}/query/member/card/ledger`, { id: mcId });
    expect(ledger.map((l: { kind: string }) => l.kind).slice(0, 2)).toEqual(['leave_end', 'leave']);
    const entries = await env()
      .database.db.selectFrom('auditLog')
      .select('summary')
      .where('storeId', '=', env().storeId)
      .where('call', 'like', '%card/leave%')
      .execute();
    expect(entries.map((x) => x.summary)).toEqual([
      expect.stringMatching(/^请假 .*（5天），有效期顺延至/),
      expect.stringMatching(/^提前结束请假.*退回3天/),
    ]);
    // withdrawn before it starts: every day back
    const again = await env().client.ok(`${API}/add/card/leave`, {
      mcId,
      fromDate: addDays(t, 10),
      toDate: addDays(t, 12),
      reason: '回老家',
    });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 35)} 23:59:59`);
    await env().client.ok(`${API}/end/card/leave`, { id: again.id, date: addDays(t, 9) });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 32)} 23:59:59`);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('counts a leave across the end of a month day by day', async () => {
    const { mcId } = await leaveScene(env(), { validDays: 90 });
    const t = today();
    // the last day of next month, and three days into the month after
    const [y, m] = addDays(t.slice(0, 8) + '01', 40)
      .split('-')
      .map(Number);
    const last = addDays(`${y}-${String(m).padStart(2, '0')}-01`, -1);
    const to = addDays(last, 3);
    await env().client.ok(`${API}/add/card/leave`, { mcId, fromDate: last, toDate: to, reason: '旅行' });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 94)} 23:59:59`);
  });

  it('holds two leaves to the total days and the times, naming what is left', async () => {
    const { mcId } = await leaveScene(env());
    const t = today();
    await env().client.ok(`${API}/add/card/leave`, { mcId, fromDate: t, toDate: addDays(t, 5), reason: '一' });
    const tooLong = await env().client.call(`${API}/add/card/leave`, {
      mcId,
      fromDate: addDays(t, 10),
      toDate: addDays(t, 17),
      reason: '二',
    });
    expect([tooLong.status, tooLong.msg]).toEqual([409, '每次请假最多7天']);
    const over = await env().client.call(`${API}/add/card/leave`, {
      mcId,
      fromDate: addDays(t, 10),
      toDate: addDays(t, 14),
      reason: '二',
    });
    expect([over.status, over.msg]).toEqual([409, '该卡累计最多请假10天，还可请假4天']);
    await env().client.ok(`${API}/add/card/leave`, {
      mcId,
      fromDate: addDays(t, 10),
      toDate: addDays(t, 13),
      reason: '二',
    });
    const full = await env().client.call(`${API}/add/card/leave`, {
      mcId,
      fromDate: addDays(t, 20),
      toDate: addDays(t, 20),
      reason: '三',
    });
    expect([full.status, full.msg]).toEqual([409, '该卡累计最多请假10天，还可请假0天']);
    const overlap = await env().client.call(`${API}/query/card/leave/preview`, {
      mcId,
      fromDate: addDays(t, 5),
      toDate: addDays(t, 6),
    });
    expect(overlap.data.refusal).toBe('这段时间与该卡的另一次请假重叠');
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 40)} 23:59:59`);
  });

  it('refuses a booking inside the leave for the desk and the member, and cancels the ones made before', async () => {
    const { e, teacher, course, member, mcId } = await leaveScene(env());
    const t = today();
    const before = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${addDays(t, 3)} 10:00:00`,
    });
    const inside = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: `${addDays(t, 4)} 10:00:00`,
    });
    await env().client.ok(`${API}/add/member/reservation`, { tid: before.id, mcId, studentCount: 1 });
    const from = addDays(t, 3);
    const to = addDays(t, 5);
    const preview = await env().client.ok(`${API}/query/card/leave/preview`, { mcId, fromDate: from, toDate: to });
    expect(preview.bookings).toEqual([
      expect.objectContaining({ kind: 'reservation', tid: before.id, startTime: `${from} 10:00:00`, refund: 1 }),
    ]);
    const unconfirmed = await env().client.call(`${API}/add/card/leave`, {
      mcId,
      fromDate: from,
      toDate: to,
      reason: '病假',
    });
    expect([unconfirmed.status, unconfirmed.msg]).toEqual([409, '请假期间有1节已预约的课程，确认后将取消并退回']);
    await env().client.ok(`${API}/add/card/leave`, {
      mcId,
      fromDate: from,
      toDate: to,
      reason: '病假',
      cancelBookings: true,
    });
    expect((await e.cardRow(mcId)).usedCount).toBe(0);
    expect((await e.sessionRow(before.id)).realCount).toBe(0);
    const refusal = `该卡请假中（${md(from)}至${md(to)}），不能预约`;
    const desk = await env().client.call(`${API}/add/member/reservation`, { tid: inside.id, mcId, studentCount: 1 });
    expect([desk.status, desk.msg]).toEqual([409, refusal]);
    const phone = await memberClient(env(), member);
    const own = await phone.call('/member/api/add/reservation', { tid: inside.id, mcId, studentCount: 1 });
    expect([own.status, own.msg]).toEqual([409, refusal]);
    const cards = await phone.ok('/member/api/query/cards/for/session', { tid: inside.id });
    expect(cards[0]).toMatchObject({ usable: false, reason: refusal });
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('approves a member request at once or lets the desk decide, as the store chooses', async () => {
    const { member, mcId } = await leaveScene(env());
    const t = today();
    const phone = await memberClient(env(), member);
    const auto = await phone.ok('/member/api/request/card/leave', {
      mcId,
      fromDate: addDays(t, 1),
      toDate: addDays(t, 2),
      reason: '出差',
    });
    expect(auto.status).toBe('approved');
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 32)} 23:59:59`);
    await env().client.ok(`${API}/update/card/life/setting`, { coolingOffDays: 7, leaveApproval: 'desk' });
    const asked = await phone.ok('/member/api/request/card/leave', {
      mcId,
      fromDate: addDays(t, 5),
      toDate: addDays(t, 6),
      reason: '家里有事',
    });
    expect(asked.status).toBe('pending');
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 32)} 23:59:59`);
    const second = await phone.call('/member/api/request/card/leave', {
      mcId,
      fromDate: addDays(t, 8),
      toDate: addDays(t, 8),
      reason: '再请',
    });
    expect([second.status, second.msg]).toEqual([409, '已有一个待审批的请假申请']);
    const waiting = await env().client.ok(`${API}/query/card/leave/list`, { status: 'pending', page: 1 });
    expect(waiting.list.map((l: { id: number }) => l.id)).toEqual([asked.id]);
    const desk = await staffClient(env(), 'desk');
    await desk.ok(`${API}/approve/card/leave`, { id: asked.id });
    expect(await expiryOf(env(), mcId)).toBe(`${addDays(t, 34)} 23:59:59`);
    const twice = await desk.call(`${API}/refuse/card/leave`, { id: asked.id, remark: '晚了' });
    expect([twice.status, twice.msg]).toEqual([409, '该请假申请已处理过了']);
    const third = await phone.ok('/member/api/request/card/leave', {
      mcId,
      fromDate: addDays(t, 8),
      toDate: addDays(t, 8),
      reason: '再请',
    });
    await desk.ok(`${API}/refuse/card/leave`, { id: third.id, remark: '请假次数已用完' });
    const mine = await phone.ok('/member/api/query/card/leave/list', { mcId });
    expect(mine.rules).toEqual({ allowed: true, times: 3, daysMax: 7, daysTotal: 10, usedTimes: 2, usedDays: 4 });
    expect(mine.list[0]).toMatchObject({ id: third.id, status: 'refused', decideRemark: '请假次数已用完' });
    // another member's card is not found
    const other = await env().factory.member();
    const stranger = await memberClient(env(), other);
    const nope = await stranger.call('/member/api/request/card/leave', {
      mcId,
      fromDate: addDays(t, 20),
      toDate: addDays(t, 20),
      reason: 'x',
    });
    expect([nope.status, nope.msg]).toEqual([404, Msg.notFound('会员卡')]);
    await env().client.ok(`${API}/update/card/life/setting`, { coolingOffDays: 7, leaveApproval: 'auto' });
  });

  it('refuses leave where the product allows none', async () => {
    const { mcId } = await leaveScene(env(), { leaveAllowed: 0 });
    const t = today();
    const a = await env().client.call(`${API}/add/card/leave`, { mcId, fromDate: t, toDate: t, reason: 'x' });
    expect([a.status, a.msg]).toEqual([409, '该卡种不允许请假']);
  });
});
