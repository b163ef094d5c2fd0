import {
  addGroupPending,
  addMemberReservation,
  cancelPendingCall,
  cancelReservationCall,
  MEMBER_BOOKING_PAGE_MAX,
  MemberBookingMsg,
  memberReservationList,
  MODULE_DEDUCTION_MODE,
  Msg,
  signInPendingCall,
  updateModuleStatus,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { invalidateStoreScope } from '../../../lib/store-scope.ts';
import { addMinutes, localDateTime } from '../../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../../test/factory-engine.ts';
import { describeEachDb } from '../../../../test/harness.ts';

describeEachDb("a member's bookings (member detail)", (env) => {
  const ef = () => new EngineFactory(env().factory);
  const list = (body: Record<string, unknown>) => env().client.call(memberReservationList.path, body);
  const ok = (body: Record<string, unknown>) => env().client.ok(memberReservationList.path, body);
  const setMode = (status: 0 | 1) =>
    env().client.ok(updateModuleStatus.path, { moduleId: MODULE_DEDUCTION_MODE, status });

  /** A member with a 2-per-class card, a course that card may book, and a way to make sessions of it. */
  async function scene() {
    const e = ef();
    const s = await e.scene({ product: { perCount: 2, cardName: '20次卡' }, course: { name: '瑜伽基础' } });
    const { member, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 100 } });
    const session = (startTime: string, areaId: number | null = null) =>
      e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime, venueId: areaId });
    const book = async (tid: number, studentCount = 1) => {
      await env().client.ok(addMemberReservation.path, { mcId: card.id, tid, studentCount, remark: '' });
      const r = await e.db
        .selectFrom('reservation')
        .select('id')
        .where('timetableId', '=', tid)
        .where('memberId', '=', member.id)
        .where('status', 'in', [1, 2])
        .executeTakeFirstOrThrow();
      return r.id;
    };
    /** Moves a session in time (bookings are refused on ended sessions, so past ones are booked first). */
    const move = (tid: number, startTime: string, endTime = addMinutes(startTime, 60)) =>
      e.db.updateTable('timetable').set({ startTime, endTime }).where('id', '=', tid).execute();
    return { e, ...s, member, card, session, book, move };
  }

  it('splits upcoming (not yet ended, soonest first) from past (ended, latest first) with full rows', async () => {
    const s = await scene();
    const area = await env().factory.area({ name: '一号教室' });
    const later = await s.session(`${FUTURE} 18:00:00`, area.id);
    const sooner = await s.session(`${FUTURE} 09:00:00`);
    const running = await s.session(`${FUTURE} 12:00:00`);
    const old = await s.session(`${FUTURE} 14:00:00`);
    const older = await s.session(`${FUTURE} 16:00:00`);
    const laterId = await s.book(later.id, 2);
    for (const t of [sooner, running, old, older]) await s.book(t.id);
    await s.move(running.id, '2020-01-01 10:00:00', `${FUTURE} 23:00:00`);
    await s.move(old.id, '2020-03-01 10:00:00');
    await s.move(older.id, '2020-02-01 10:00:00');

    const upcoming = await ok({ mid: s.member.id });
    expect(upcoming.total).toBe(3);
    expect(upcoming.list.map((r: { timetableId: number }) => r.timetableId)).toEqual([running.id, sooner.id, later.id]);
    expect(upcoming.list[2]).toEqual({
      kind: 'reservation',
      id: laterId,
      timetableId: later.id,
      courseName: '瑜伽基础',
      teacherName: s.teacher.name,
      areaName: '一号教室',
      startTime: `${FUTURE} 18:00:00`,
      endTime: later.endTime,
      studentCount: 2,
      usedCount: 4,
      cardName: '20次卡',
      status: 1,
      statusText: '已预约',
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(upcoming.list[1].areaName).toBeNull();

    const past = await ok({ mid: s.member.id, scope: 'past', page: 1 });
    expect(past.total).toBe(2);
    expect(past.list.map((r: { timetableId: number }) => r.timetableId)).toEqual([old.id, older.id]);
  });

  it('pages with a stable order: pageSize, default 10, total on every page', async () => {
    const s = await scene();
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const t = await s.session(`2099-07-${String(i + 1).padStart(2, '0')} 10:00:00`);
      await s.book(t.id);
      ids.push(t.id);
    }
    const first = await ok({ mid: s.member.id });
    expect([first.total, first.list.length]).toEqual([12, 10]);
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await ok({ mid: s.member.id, page, pageSize: 5 }));
    expect(pages.map((p) => [p.total, p.list.length])).toEqual([
      [12, 5],
      [12, 5],
      [12, 2],
    ]);
    expect(pages.flatMap((p) => p.list.map((r: { timetableId: number }) => r.timetableId))).toEqual(ids);
    const beyond = await ok({ mid: s.member.id, page: 4, pageSize: 5 });
    expect([beyond.total, beyond.list]).toEqual([12, []]);
    const all = await ok({ mid: s.member.id, pageSize: MEMBER_BOOKING_PAGE_MAX });
    expect(all.list).toHaveLength(12);
  });

  it('lists waiting pendings as 待签到 and a signed-in pending once, as its reservation', async () => {
    const s = await scene();
    const waiting = await s.session('2099-08-01 10:00:00');
    const signed = await s.session('2099-08-02 10:00:00');
    const ended = await s.session('2099-08-03 10:00:00');
    await setMode(1);
    try {
      for (const t of [waiting, signed, ended])
        await env().client.ok(addGroupPending.path, { mid: s.member.id, tid: t.id, studentCount: 1, remark: '' });
      const pendingOf = async (tid: number) =>
        (await s.e.db.selectFrom('pending').select('id').where('timetableId', '=', tid).executeTakeFirstOrThrow()).id;
      await env().client.ok(signInPendingCall.path, { pendingId: await pendingOf(signed.id), mcId: s.card.id });
      await s.move(ended.id, '2020-05-01 10:00:00');

      const upcoming = await ok({ mid: s.member.id });
      expect(upcoming.total).toBe(2);
      expect(upcoming.list[0]).toMatchObject({
        kind: 'pending',
        id: await pendingOf(waiting.id),
        timetableId: waiting.id,
        courseName: '瑜伽基础',
        studentCount: 1,
        usedCount: 0,
        cardName: null,
        status: 1,
        statusText: '待签到',
      });
      expect(upcoming.list[1]).toMatchObject({
        kind: 'reservation',
        timetableId: signed.id,
        usedCount: 2,
        cardName: '20次卡',
        status: 2,
        statusText: '已签到',
      });
      const past = await ok({ mid: s.member.id, scope: 'past' });
      expect(past.list).toEqual([
        expect.objectContaining({ kind: 'pending', timetableId: ended.id, statusText: '待签到' }),
      ]);
    } finally {
      await setMode(0);
    }
  });

  it('leaves out cancelled bookings, cancelled pendings, deleted sessions and other members', async () => {
    const s = await scene();
    const kept = await s.session('2099-09-01 10:00:00');
    const cancelled = await s.session('2099-09-02 10:00:00');
    const deleted = await s.session('2099-09-03 10:00:00');
    const pendingGone = await s.session('2099-09-04 10:00:00');
    await s.book(kept.id);
    await env().client.ok(cancelReservationCall.path, { id: await s.book(cancelled.id) });
    await s.book(deleted.id);
    await s.e.db.updateTable('timetable').set({ deleted: 1 }).where('id', '=', deleted.id).execute();
    await setMode(1);
    try {
      await env().client.ok(addGroupPending.path, { mid: s.member.id, tid: pendingGone.id, remark: '' });
      const p = await s.e.db
        .selectFrom('pending')
        .select('id')
        .where('timetableId', '=', pendingGone.id)
        .executeTakeFirstOrThrow();
      await env().client.ok(cancelPendingCall.path, { pendingId: p.id });
    } finally {
      await setMode(0);
    }
    const someoneElse = await s.e.memberWithCard(s.product.id);
    await env().client.ok(addMemberReservation.path, { mcId: someoneElse.card.id, tid: kept.id, studentCount: 1 });

    const upcoming = await ok({ mid: s.member.id });
    expect(upcoming.total).toBe(1);
    expect(upcoming.list.map((r: { timetableId: number }) => r.timetableId)).toEqual([kept.id]);
    expect((await ok({ mid: s.member.id, scope: 'past' })).total).toBe(0);
  });

  it("splits by the store's own clock, not the server's", async () => {
    const s = await scene();
    const t = await s.session('2099-10-01 10:00:00');
    await s.book(t.id);
    // Kiritimati (UTC+14) is 25 hours ahead of Pago Pago (UTC-11): end the session half-way between.
    const ahead = localDateTime('Pacific/Kiritimati');
    const midway = addMinutes(ahead, -12 * 60 - 30);
    await s.move(t.id, addMinutes(midway, -60), midway);
    const inZone = async (timezone: string) => {
      await s.e.db.updateTable('store').set({ timezone }).where('id', '=', env().storeId).execute();
      invalidateStoreScope(env().database.db, env().storeId);
      const [up, past] = [await ok({ mid: s.member.id }), await ok({ mid: s.member.id, scope: 'past' })];
      return [up.total, past.total];
    };
    try {
      expect(await inZone('Pacific/Kiritimati')).toEqual([0, 1]);
      expect(await inZone('Pacific/Pago_Pago')).toEqual([1, 0]);
    } finally {
      await inZone('Asia/Shanghai');
    }
  });

  it("answers 404 会员不存在 for another store's member or an unknown one", async () => {
    const { other } = env();
    const e = new EngineFactory(other.factory);
    const s = await e.scene();
    const { member, card } = await e.memberWithCard(s.product.id);
    const t = await e.session({ courseId: s.course.id, teacherId: s.teacher.id });
    await other.client.ok(addMemberReservation.path, { mcId: card.id, tid: t.id, studentCount: 1 });
    expect((await other.client.ok(memberReservationList.path, { mid: member.id })).total).toBe(1);
    for (const mid of [member.id, 99_999_999]) {
      const a = await list({ mid });
      expect([a.status, a.msg, a.data]).toEqual([404, Msg.notFound('会员'), null]);
    }
  });

  it('refuses bad input with 400 and a Chinese message', async () => {
    const { id: mid } = await env().factory.member();
    const cases: [Record<string, unknown>, string][] = [
      [{}, '请选择会员'],
      [{ mid: 0 }, '请选择会员'],
      [{ mid: 'x' }, '请选择会员'],
      [{ mid, scope: 'all' }, MemberBookingMsg.scope],
      [{ mid, page: 0 }, MemberBookingMsg.page],
      [{ mid, page: 1.5 }, MemberBookingMsg.page],
      [{ mid, page: '1' }, MemberBookingMsg.page],
      [{ mid, pageSize: 0 }, MemberBookingMsg.pageSize],
      [{ mid, pageSize: MEMBER_BOOKING_PAGE_MAX + 1 }, MemberBookingMsg.pageSize],
    ];
    for (const [body, msg] of cases) {
      const a = await list(body);
      expect({ body, status: a.status, msg: a.msg }).toEqual({ body, status: 400, msg });
    }
    const anon = await env().anon().call(memberReservationList.path, { mid });
    expect(anon.status).toBe(401);
  });
});
