import {
  addMemberReservation,
  addWaitlist,
  cancelPendingCall,
  cancelReservationCall,
  cancelTimetable,
  cancelWaitlist,
  Msg,
  OperateType,
  queryTimetableByDate,
  queryTimetableHistory,
  queryTimetableInfo,
  queryMemberWaitlist,
  queryWaitlist,
  saveWechatSetting,
  updateBookingPolicy,
  updateMemberCardStatus,
  updateTimetable,
  WaitMsg,
  WaitStatus,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { endClosedWaits } from './service.ts';

describeEachDb('waitlist (候补): join, leave, promotion in the transaction that frees a seat', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const policy = (p: Record<string, unknown>) => api().ok(updateBookingPolicy.path, p);
  afterEach(async () => {
    await policy({ waitlist: 0, waitlistCutoffMinutes: 0 });
    await ef().setMode(0);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  /** A 1-seat session taken by a member, and members with cards waiting to get in. */
  async function fullSession(o: { seats?: number; startTime?: string } = {}) {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const session = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      reservableCount: o.seats ?? 1,
      startTime: o.startTime ?? `${FUTURE} 10:00:00`,
    });
    const member = async (name: string) => {
      const m = await e.memberWithCard(s.product.id, { member: { name }, card: { totalCount: 10 } });
      return { id: m.member.id, card: m.card.id };
    };
    const holders = [];
    for (let i = 0; i < (o.seats ?? 1); i++) {
      const h = await member(`占位${i}`);
      await api().ok(addMemberReservation.path, { mcId: h.card, tid: session.id, studentCount: 1, remark: '' });
      holders.push(h);
    }
    return { e, s, session, member, holders };
  }
  const reservationOf = (tid: number, memberId: number) =>
    env()
      .database.db.selectFrom('reservation')
      .selectAll()
      .where('timetableId', '=', tid)
      .where('memberId', '=', memberId)
      .where('status', 'in', [1, 2])
      .executeTakeFirst();
  const join = (tid: number, m: { id: number; card: number }, studentCount = 1) =>
    api().call(addWaitlist.path, { tid, mid: m.id, mcId: m.card, studentCount });
  const queue = (tid: number) => api().ok(queryWaitlist.path, { tid });

  it('is off until the store turns it on', async () => {
    const { session, member } = await fullSession();
    const a = await join(session.id, await member('甲'));
    expect([a.status, a.msg]).toEqual([409, WaitMsg.off]);
  });

  it('queues members of a full session in order, shown on the drawer and the calendar', async () => {
    await policy({ waitlist: 1 });
    const { session, member } = await fullSession();
    const a = await member('候补甲');
    const b = await member('候补乙');
    expect((await join(session.id, a)).data).toMatchObject({ position: 1 });
    expect((await join(session.id, b)).data).toMatchObject({ position: 2 });
    const q = await queue(session.id);
    expect(q.open).toBe(true);
    expect(q.list.map((w: { position: number; member: { name: string } }) => [w.position, w.member.name])).toEqual([
      [1, '候补甲'],
      [2, '候补乙'],
    ]);
    expect(q.list[0].operator).toBeTruthy();
    expect((await api().ok(queryTimetableInfo.path, { id: session.id })).waitCount).toBe(2);
    const days = await api().ok(queryTimetableByDate.path, { fromDate: FUTURE, toDate: FUTURE });
    expect(days[0].list.find((x: { id: number }) => x.id === session.id).waitCount).toBe(2);
  });

  it('refuses what a booking would refuse, a second wait, and a session with room', async () => {
    await policy({ waitlist: 1 });
    const { session, member, holders } = await fullSession({ seats: 1 });
    const a = await member('甲');
    await join(session.id, a);
    expect(await join(session.id, a)).toMatchObject({ status: 409, msg: WaitMsg.already });
    const booked = await join(session.id, holders[0]);
    expect([booked.status, booked.msg]).toEqual([409, Msg.alreadyBooked]);
    const frozen = await member('冻结');
    await api().ok(updateMemberCardStatus.path, { id: frozen.card, frozen: 1 });
    const f = await join(session.id, frozen);
    expect(f.status).toBe(409);
    expect(f.msg).toContain('冻结');
    const other = await member('乙');
    const wrongCard = await api().call(addWaitlist.path, { tid: session.id, mid: other.id, mcId: a.card });
    expect(wrongCard.status).toBe(409);
    const unknown = await api().call(addWaitlist.path, { tid: 99_999_999, mid: a.id, mcId: a.card });
    expect(unknown.status).toBe(404);

    const { session: roomy, member: m2 } = await fullSession({ seats: 1 });
    await api().ok(cancelReservationCall.path, {
      id: (
        await env()
          .database.db.selectFrom('reservation')
          .select('id')
          .where('timetableId', '=', roomy.id)
          .executeTakeFirstOrThrow()
      ).id,
    });
    expect(await join(roomy.id, await m2('丙'))).toMatchObject({ status: 409, msg: WaitMsg.notFull });
    const rows = await env()
      .database.db.selectFrom('waitlist')
      .select('id')
      .where('timetableId', '=', roomy.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('promotes the first in line when a booking is cancelled, charging their card, with a store message', async () => {
    await policy({ waitlist: 1 });
    const { e, session, member, holders } = await fullSession();
    const a = await member('甲');
    const b = await member('乙');
    await join(session.id, a);
    await join(session.id, b);
    const before = await api().ok(queryMemberWaitlist.path, { mid: b.id });
    expect(before).toEqual([
      expect.objectContaining({
        status: WaitStatus.WAITING,
        position: 2,
        session: expect.objectContaining({ id: session.id }),
      }),
    ]);
    const held = (await reservationOf(session.id, holders[0].id))!;
    await api().ok(cancelReservationCall.path, { id: held.id });
    const r = await reservationOf(session.id, a.id);
    expect(r).toMatchObject({ studentCount: 1, usedCount: 1, remark: '候补递补' });
    expect((await e.cardRow(a.card)).usedCount).toBe(1);
    expect(await reservationOf(session.id, b.id)).toBeUndefined();
    const q = await queue(session.id);
    expect(q.list.map((w: { member: { id: number }; position: number }) => [w.member.id, w.position])).toEqual([
      [b.id, 1],
    ]);
    const w = await env()
      .database.db.selectFrom('waitlist')
      .selectAll()
      .where('memberId', '=', a.id)
      .executeTakeFirstOrThrow();
    expect([w.status, w.reservationId]).toEqual([WaitStatus.PROMOTED, r!.id]);
    expect(await e.sessionRow(session.id)).toMatchObject({ realCount: 1, waitCount: 1 });
    // The promotion is the system's own entry in 操作日志, beside the staff member's cancel.
    const log = await env()
      .database.db.selectFrom('auditLog as a')
      .innerJoin('auditTarget as t', 't.auditId', 'a.id')
      .select(['a.actorKind', 'a.actorName', 'a.call'])
      .where('t.type', '=', 'member')
      .where('t.refId', '=', a.id)
      .execute();
    expect(log).toContainEqual({ actorKind: 'system', actorName: '系统', call: 'engine/waitlist-promotion' });
    // The session's 预约记录 names it too: a promotion by the system, not the member's own booking.
    const history = await api().ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    const mine = history.list.filter((h: { memberName: string }) => h.memberName === '甲');
    expect(mine).toEqual([expect.objectContaining({ operateType: OperateType.PROMOTED, operator: '系统' })]);
  });

  it('skips a member whose card no longer passes, keeping the reason and their place', async () => {
    await policy({ waitlist: 1 });
    const { session, member, holders } = await fullSession();
    const a = await member('甲');
    const b = await member('乙');
    await join(session.id, a);
    await join(session.id, b);
    await api().ok(updateMemberCardStatus.path, { id: a.card, frozen: 1 });
    await api().ok(cancelReservationCall.path, { id: (await reservationOf(session.id, holders[0].id))!.id });
    expect(await reservationOf(session.id, a.id)).toBeUndefined();
    expect(await reservationOf(session.id, b.id)).toBeTruthy();
    const q = await queue(session.id);
    expect(q.list).toHaveLength(1);
    expect(q.list[0]).toMatchObject({ position: 1, member: { id: a.id } });
    expect(q.list[0].skipReason).toContain('冻结');
  });

  it('promotes on a capacity raise, as many as the new seats, and stops at a member needing more', async () => {
    await policy({ waitlist: 1 });
    const { e, s, session, member } = await fullSession();
    const a = await member('甲');
    const big = await member('三人');
    const c = await member('丙');
    await join(session.id, a);
    await join(session.id, big, 3);
    await join(session.id, c);
    const edit = { id: session.id, teacherId: s.teacher.id, date: FUTURE, time: '10:00', areaId: null, bookId: null };
    await api().ok(updateTimetable.path, { ...edit, count: 3 });
    // One seat went to 甲; 三人 needs three and keeps the head of the queue; 丙 waits behind.
    expect(await reservationOf(session.id, a.id)).toBeTruthy();
    expect(await reservationOf(session.id, c.id)).toBeUndefined();
    expect((await queue(session.id)).list.map((w: { member: { id: number } }) => w.member.id)).toEqual([big.id, c.id]);
    await api().ok(updateTimetable.path, { ...edit, count: 6 });
    expect((await reservationOf(session.id, big.id))?.studentCount).toBe(3);
    expect(await reservationOf(session.id, c.id)).toBeTruthy();
    expect(await e.sessionRow(session.id)).toMatchObject({ realCount: 6, waitCount: 0 });
  });

  it('in sign-in mode promotes into a pending (charged at sign-in)', async () => {
    await policy({ waitlist: 1 });
    const { e, session, member, holders } = await fullSession();
    await e.setMode(1);
    const a = await member('甲');
    await join(session.id, a);
    await api().ok(cancelReservationCall.path, { id: (await reservationOf(session.id, holders[0].id))!.id });
    const p = await env()
      .database.db.selectFrom('pending')
      .selectAll()
      .where('timetableId', '=', session.id)
      .where('memberId', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(p.status).toBe(1);
    expect((await e.cardRow(a.card)).usedCount).toBe(0);
    const history = await api().ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(history.list.find((h: { memberName: string }) => h.memberName === '甲')).toMatchObject({
      operateType: OperateType.PROMOTED,
      operator: '系统',
    });
    // Cancelling that pending frees the seat again for whoever waits next.
    const b = await member('乙');
    await join(session.id, b);
    await api().ok(cancelPendingCall.path, { pendingId: p.id });
    const pb = await env()
      .database.db.selectFrom('pending')
      .select('status')
      .where('timetableId', '=', session.id)
      .where('memberId', '=', b.id)
      .executeTakeFirst();
    expect(pb?.status).toBe(1);
  });

  it('in sign-in mode queues one person per wait, as a pending booking would', async () => {
    await policy({ waitlist: 1 });
    const { e, session, member } = await fullSession();
    await e.setMode(1);
    const a = await member('甲');
    expect(await join(session.id, a, 2)).toMatchObject({ status: 400, msg: Msg.oneStudentInSignInMode });
    expect((await join(session.id, a, 1)).data).toMatchObject({ position: 1 });
    expect((await e.sessionRow(session.id)).waitCount).toBe(1);
  });

  it('closes at the cutoff: no join, no promotion', async () => {
    const now = localDateTime('Asia/Shanghai');
    const { session, member, holders } = await fullSession({ startTime: addMinutes(now, 90) });
    await policy({ waitlist: 1, waitlistCutoffMinutes: 60 });
    const a = await member('甲');
    expect((await join(session.id, a)).status).toBe(200);
    await policy({ waitlistCutoffMinutes: 120 });
    expect(await join(session.id, await member('乙'))).toMatchObject({ status: 409, msg: WaitMsg.closed });
    expect((await queue(session.id)).open).toBe(false);
    await api().ok(cancelReservationCall.path, { id: (await reservationOf(session.id, holders[0].id))!.id });
    expect(await reservationOf(session.id, a.id)).toBeUndefined();
  });

  it('ends the waits left at the cutoff without charge, once, however many instances run the job', async () => {
    await policy({ waitlist: 1, waitlistCutoffMinutes: 60 });
    const { e, session, member } = await fullSession({ startTime: `${FUTURE} 10:00:00` });
    const a = await member('甲');
    const b = await member('乙');
    await join(session.id, a);
    await join(session.id, b);
    const { db } = env().database;
    const ours = () =>
      db.selectFrom('waitlist').select(['status', 'endTime']).where('timetableId', '=', session.id).execute();
    // Before the cutoff (09:00) the job leaves the queue alone.
    await endClosedWaits(db, env().dialect, () => `${FUTURE} 08:59:00`);
    expect((await ours()).map((w) => w.status)).toEqual([WaitStatus.WAITING, WaitStatus.WAITING]);
    // At the cutoff: two runs at once (two instances) end each wait once.
    const at = () => `${FUTURE} 09:00:00`;
    await Promise.all([endClosedWaits(db, env().dialect, at), endClosedWaits(db, env().dialect, at)]);
    expect(await ours()).toEqual([
      { status: WaitStatus.ENDED, endTime: `${FUTURE} 09:00:00` },
      { status: WaitStatus.ENDED, endTime: `${FUTURE} 09:00:00` },
    ]);
    expect((await e.sessionRow(session.id)).waitCount).toBe(0);
    expect((await e.cardRow(a.card)).usedCount).toBe(0);
    const mine = await api().ok(queryMemberWaitlist.path, { mid: a.id });
    expect(mine[0]).toMatchObject({ status: WaitStatus.ENDED, session: expect.objectContaining({ id: session.id }) });
    expect((await e.sessionRow(session.id)).waitCount).toBe(0);
  });

  it('lets the desk take a member out; a deleted session ends its queue', async () => {
    await policy({ waitlist: 1 });
    const { e, session, member } = await fullSession();
    const a = await member('甲');
    const b = await member('乙');
    const { id } = (await join(session.id, a)).data;
    await join(session.id, b);
    await api().ok(cancelWaitlist.path, { id });
    expect(await api().call(cancelWaitlist.path, { id })).toMatchObject({ status: 409, msg: WaitMsg.notWaiting });
    expect((await api().call(cancelWaitlist.path, { id: 99_999_999 })).status).toBe(404);
    expect((await queue(session.id)).list.map((w: { position: number }) => w.position)).toEqual([1]);
    await api().ok(cancelTimetable.path, { id: session.id });
    const rows = await env()
      .database.db.selectFrom('waitlist')
      .select('status')
      .where('timetableId', '=', session.id)
      .execute();
    expect(rows.map((r) => r.status).sort()).toEqual([WaitStatus.LEFT, WaitStatus.ENDED]);
    expect((await e.sessionRow(session.id)).waitCount).toBe(0);
  });

  it('takes a member booked by any other path out of the queue', async () => {
    await policy({ waitlist: 1 });
    const { e, s, session, member } = await fullSession();
    const a = await member('甲');
    await join(session.id, a);
    await policy({ waitlist: 0 });
    const edit = { id: session.id, teacherId: s.teacher.id, date: FUTURE, time: '10:00', areaId: null, bookId: null };
    await api().ok(updateTimetable.path, { ...edit, count: 2 });
    expect(await reservationOf(session.id, a.id)).toBeUndefined();
    await api().ok(addMemberReservation.path, { mcId: a.card, tid: session.id, studentCount: 1, remark: '' });
    const w = await env()
      .database.db.selectFrom('waitlist')
      .select('status')
      .where('memberId', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(w.status).toBe(WaitStatus.ENDED);
    expect((await e.sessionRow(session.id)).waitCount).toBe(0);
  });

  it('keeps another store out', async () => {
    await policy({ waitlist: 1 });
    const { session, member } = await fullSession();
    const a = await member('甲');
    const { id } = (await join(session.id, a)).data;
    const theirs = await env().other.client.call(cancelWaitlist.path, { id });
    expect([403, 404]).toContain(theirs.status);
    const list = await env().other.client.call(queryWaitlist.path, { tid: session.id });
    expect([403, 404]).toContain(list.status);
  });

  it('promotes each waiting member at most once when cancels, raises and joins race', async () => {
    await policy({ waitlist: 1 });
    const { s, session, member, holders } = await fullSession({ seats: 4 });
    const waiting = [];
    for (let i = 0; i < 6; i++) waiting.push(await member(`等${i}`));
    for (const w of waiting.slice(0, 4)) await join(session.id, w);
    const ids = await Promise.all(holders.map(async (h) => (await reservationOf(session.id, h.id))!.id));
    const edit = { id: session.id, teacherId: s.teacher.id, date: FUTURE, time: '10:00', areaId: null, bookId: null };
    const answers = await Promise.all([
      ...ids.map((id) => api().call(cancelReservationCall.path, { id })),
      api().call(updateTimetable.path, { ...edit, count: 5 }),
      ...waiting.slice(4).map((w) => join(session.id, w)),
    ]);
    for (const a of answers) expect(a.status, a.msg).toBeLessThan(500);
    const row = await ef().sessionRow(session.id);
    expect(row.realCount).toBeLessThanOrEqual(row.reservableCount);
    const promoted = await env()
      .database.db.selectFrom('waitlist')
      .select('memberId')
      .where('timetableId', '=', session.id)
      .where('status', '=', WaitStatus.PROMOTED)
      .execute();
    expect(new Set(promoted.map((p) => p.memberId)).size).toBe(promoted.length);
    // Every freed seat went to someone waiting: seats free only if nobody waits.
    expect(row.realCount === row.reservableCount || row.waitCount === 0).toBe(true);
  });

  it('sends 候补递补成功 to the store robot', async () => {
    await policy({ waitlist: 1 });
    await api().ok(saveWechatSetting.path, { webhookUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x' });
    const { s, session, member, holders } = await fullSession();
    await join(session.id, await member('递补甲'));
    await api().ok(cancelReservationCall.path, { id: (await reservationOf(session.id, holders[0].id))!.id });
    const rows = await env()
      .database.db.selectFrom('outbox')
      .select('payload')
      .where('storeId', '=', env().storeId)
      .execute();
    const texts = rows.map(
      (r) => (JSON.parse(String(r.payload)) as { markdown?: { content: string } }).markdown?.content,
    );
    // The same lines as a booking's message, under its own title; no seat left after the promotion.
    expect(texts).toContain(
      [
        '**候补递补成功**',
        '> 会员：递补甲',
        `> 课程：${s.course.name}（${s.teacher.name}）`,
        `> 时间：${session.startTime.slice(0, 16)}-${session.endTime.slice(11, 16)}`,
        '> 剩余名额：0',
      ].join('\n'),
    );
    await api().ok(saveWechatSetting.path, {});
  });
});
