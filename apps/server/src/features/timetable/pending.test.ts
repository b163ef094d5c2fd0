import {
  addGroupPending,
  cancelPendingCall,
  cancelReservationCall,
  Msg,
  OperateType,
  queryPendingList,
  queryReservationList,
  queryTimetableHistory,
  signInPendingCall,
  TimetableMsg,
} from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('sign-in mode: pending bookings', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const pend = (body: Record<string, unknown>) => env().client.call(addGroupPending.path, body);
  beforeAll(async () => ef().setMode(1));
  afterAll(async () => ef().setMode(0));
  afterEach(async () => {
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  async function bookable(capacity = 10, perCount = 2) {
    const e = ef();
    const scene = await e.scene({ product: { perCount } });
    const session = await e.session({
      courseId: scene.course.id,
      teacherId: scene.teacher.id,
      reservableCount: capacity,
    });
    return { e, ...scene, session };
  }
  const pendings = (tid: number) => env().client.ok(queryPendingList.path, { tid });

  it('adds a pending: takes the seat, deducts nothing, lists it as waiting', async () => {
    const { e, product, session } = await bookable();
    const { member, card } = await e.memberWithCard(product.id);
    expect((await pend({ mid: member.id, tid: session.id, studentCount: 1, remark: '试课' })).code).toBe(0);
    expect((await e.sessionRow(session.id)).realCount).toBe(1);
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    const [item] = await pendings(session.id);
    expect(item).toMatchObject({
      pending: { status: 1 },
      member: { id: member.id, name: member.name, mobile: member.mobile },
      memberId: member.id,
      mcId: null,
      studentCount: 1,
      remark: '试课',
    });
    expect(item.pending.operator).toMatch(/^管理员/);
  });

  it('keeps the card chosen for a pending (prefilled at sign-in) and refuses a member with no usable card', async () => {
    const { e, product, session } = await bookable();
    const { member, card } = await e.memberWithCard(product.id);
    expect((await pend({ mid: member.id, tid: session.id, mcId: card.id, studentCount: 1 })).code).toBe(0);
    const [item] = await pendings(session.id);
    expect(item.mcId).toBe(card.id);
    // without a card the member must still hold one this class takes
    const other = await ef().scene();
    const stranger = await e.memberWithCard(other.product.id);
    const none = await pend({ mid: stranger.member.id, tid: session.id, studentCount: 1 });
    expect([none.status, none.msg]).toEqual([409, Msg.cardHelp]);
    const wrong = await pend({ mid: stranger.member.id, tid: session.id, mcId: stranger.card.id, studentCount: 1 });
    expect([wrong.status, wrong.msg]).toEqual([409, Msg.cardNotAllowed]);
    const notTheirs = await pend({ mid: stranger.member.id, tid: session.id, mcId: card.id, studentCount: 1 });
    expect([notTheirs.status, notTheirs.msg]).toEqual([409, Msg.cardNotOwned]);
  });

  it('takes one student only, refuses a full class, a duplicate and the limits', async () => {
    const { e, product, session } = await bookable(1);
    const a = await e.memberWithCard(product.id);
    const two = await pend({ mid: a.member.id, tid: session.id, studentCount: 2 });
    expect([two.status, two.msg]).toEqual([400, Msg.oneStudentInSignInMode]);
    expect((await pend({ mid: a.member.id, tid: session.id })).code).toBe(0);
    const dup = await pend({ mid: a.member.id, tid: session.id });
    expect([dup.status, dup.msg]).toEqual([409, Msg.alreadyBooked]);
    const b = await e.memberWithCard(product.id);
    const full = await pend({ mid: b.member.id, tid: session.id });
    expect([full.status, full.msg]).toEqual([409, Msg.sessionFull]);
    const scene = await e.scene({ course: { genderLimit: 1 } });
    const maleOnly = await e.session({ courseId: scene.course.id, teacherId: scene.teacher.id });
    const woman = await env().factory.member({ gender: 2 });
    const g = await pend({ mid: woman.id, tid: maleOnly.id });
    expect([g.status, g.msg]).toEqual([409, Msg.genderLimited]);
    expect((await pend({ mid: 0, tid: session.id })).msg).toBe(Msg.chooseMember);
    const foreign = await env().other.factory.member();
    expect((await pend({ mid: foreign.id, tid: session.id })).msg).toBe('会员不存在');
  });

  it('refuses a session that has ended', async () => {
    const e = ef();
    const { teacher, course } = await e.scene();
    const past = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2020-01-01 10:00:00' });
    const m = await env().factory.member();
    const a = await pend({ mid: m.id, tid: past.id });
    expect([a.status, a.msg]).toEqual([409, Msg.sessionStarted]);
  });

  it('is refused in deduct-at-booking mode', async () => {
    const { e, session } = await bookable();
    const m = await env().factory.member();
    await e.setMode(0);
    try {
      const a = await pend({ mid: m.id, tid: session.id });
      expect([a.status, a.msg]).toEqual([409, TimetableMsg.usePlainBooking]);
    } finally {
      await e.setMode(1);
    }
  });

  it('cancels a pending: frees the seat, refunds nothing, history type 4; twice is 409', async () => {
    const { e, product, session } = await bookable();
    const { member } = await e.memberWithCard(product.id);
    await pend({ mid: member.id, tid: session.id });
    const [item] = await pendings(session.id);
    expect((await env().client.call(cancelPendingCall.path, { pendingId: item.pending.id })).code).toBe(0);
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
    expect(await pendings(session.id)).toEqual([]);
    const again = await env().client.call(cancelPendingCall.path, { pendingId: item.pending.id });
    expect([again.status, again.msg]).toEqual([409, Msg.pendingNotWaiting]);
    const history = await env().client.ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(history.list.map((h: { operateType: number }) => h.operateType)).toEqual([4, 2]);
    const other = await env().other.client.call(cancelPendingCall.path, { pendingId: item.pending.id });
    expect([other.status, other.msg]).toEqual([404, '预约不存在']);
  });

  it('signs in: deducts, creates a signed-in reservation, keeps the seat count; twice is 409', async () => {
    const { e, product, session } = await bookable(10, 2);
    const { member, card } = await e.memberWithCard(product.id);
    await pend({ mid: member.id, tid: session.id, remark: '前台' });
    const [item] = await pendings(session.id);
    const a = await env().client.call(signInPendingCall.path, {
      pendingId: item.pending.id,
      mcId: card.id,
      remark: '已到',
    });
    expect(a.code).toBe(0);
    expect((await e.cardRow(card.id)).usedCount).toBe(2);
    expect((await e.sessionRow(session.id)).realCount).toBe(1);
    const [signed] = await pendings(session.id);
    expect(signed).toMatchObject({ pending: { status: 2 }, mcId: card.id });
    const list = await env().client.ok(queryReservationList.path, { tid: session.id, page: 1 });
    expect(list.list[0]).toMatchObject({
      status: 2,
      usedCount: 2,
      remark: '已到',
      memberId: member.id,
      operateType: OperateType.SIGNED_IN,
    });
    // The sign-in is its own line in 预约记录 (not a second 管理员代约), newest first.
    const history = await env().client.ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(history.list.map((h: { operateType: number }) => h.operateType)).toEqual([
      OperateType.SIGNED_IN,
      OperateType.ADMIN_BOOKED,
    ]);
    const twice = await env().client.call(signInPendingCall.path, { pendingId: item.pending.id, mcId: card.id });
    expect([twice.status, twice.msg]).toEqual([409, Msg.pendingNotWaiting]);
    expect((await e.cardRow(card.id)).usedCount).toBe(2);
    // Cancelling the signed-in booking refunds it and closes the pending.
    expect((await env().client.call(cancelReservationCall.path, { id: list.list[0].reservationId })).code).toBe(0);
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
    expect(await pendings(session.id)).toEqual([]);
  });

  it('signs in only with a usable card of the member', async () => {
    const { e, product, session } = await bookable(10, 5);
    const { member } = await e.memberWithCard(product.id);
    const poor = await env().factory.memberCard(member.id, product.id, { totalCount: 4 });
    const someoneElse = await e.memberWithCard(product.id);
    await pend({ mid: member.id, tid: session.id });
    const [item] = await pendings(session.id);
    const short = await env().client.call(signInPendingCall.path, { pendingId: item.pending.id, mcId: poor.id });
    expect([short.status, short.msg]).toEqual([409, Msg.cardBalance]);
    const notHis = await env().client.call(signInPendingCall.path, {
      pendingId: item.pending.id,
      mcId: someoneElse.card.id,
    });
    expect([notHis.status, notHis.msg]).toEqual([409, Msg.cardNotOwned]);
    expect((await env().client.call(signInPendingCall.path, { pendingId: item.pending.id, mcId: 0 })).msg).toBe(
      Msg.fillAll,
    );
    const [still] = await pendings(session.id);
    expect(still.pending.status).toBe(1);
  });
});
