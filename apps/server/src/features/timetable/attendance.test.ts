// Who came in 预约即扣费 (issue 33, items 1-3): 到店 / 撤销到店 by the desk and the teacher, one fact
// per booking read the same by 今日, the drawer, the reports, the export and the no-show policy.
import {
  addGroupPending,
  addMemberReservation,
  AttendanceMsg,
  ATTENDANCE_EDIT_DAYS,
  cancelReservationCall,
  exportTimetableReservation,
  markAttendanceCall,
  memberCancelBooking,
  memberMyBookings,
  memberPolicyStatus,
  Msg,
  OperateType,
  queryReservationList,
  queryTimetableHistory,
  queryToday,
  reportOverview,
  signInPendingCall,
  updateBookingPolicy,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { runNoShows } from '../no-show/public.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';

const MARK = markAttendanceCall.path;

describeEachDb('到店 in 预约即扣费: the desk and the teacher mark who came', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);
  const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

  afterEach(async () => {
    await ok(updateBookingPolicy.path, { noShow: 'none', noShowLimit: 0, noShowSuspendDays: 0 });
    await new EngineFactory(env().factory).setMode(0);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  /**
   * A class with `n` members booked at the desk (charged at booking), on FUTURE, or moved to
   * `date` (10:00-11:00) once booked.
   */
  async function bookedClass(n: number, date?: string) {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ course: { name: '到店课' } });
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id });
    const members = [];
    for (let i = 0; i < n; i++) {
      const m = await e.memberWithCard(s.product.id, { member: { name: `会员${i + 1}` }, card: { totalCount: 10 } });
      await ok(addMemberReservation.path, { mcId: m.card.id, tid: session.id, studentCount: 1 });
      const r = await e.db
        .selectFrom('reservation')
        .select('id')
        .where('timetableId', '=', session.id)
        .where('memberId', '=', m.member.id)
        .executeTakeFirstOrThrow();
      members.push({ ...m, reservationId: r.id });
    }
    if (date) {
      await e.db
        .updateTable('timetable')
        .set({ startTime: `${date} 10:00:00`, endTime: `${date} 11:00:00` })
        .where('id', '=', session.id)
        .execute();
    }
    return { e, s, session, members };
  }
  const history = (tid: number) =>
    env()
      .database.db.selectFrom('history')
      .select(['reservationId', 'operateType', 'operatorId', 'usedCount'])
      .where('timetableId', '=', tid)
      .where('operateType', 'in', [OperateType.ATTENDED, OperateType.ATTENDANCE_UNDONE])
      .orderBy('id')
      .execute();
  /** The log's entries of the call in this store, oldest first. */
  const summaries = async () =>
    (
      await env()
        .database.db.selectFrom('auditLog')
        .select('summary')
        .where('call', '=', MARK)
        .where('storeId', '=', env().storeId)
        .orderBy('id')
        .execute()
    ).map((x) => x.summary);

  it('marks 到店 once (twice changes nothing), takes it back, charges nothing, and says so in history and the log', async () => {
    const { e, session, members } = await bookedClass(2);
    const [a, b] = members;
    const before = (await summaries()).length;
    await ok(MARK, { reservationId: a.reservationId, attended: 1 });
    // Twice: answered ok, the fact and its history unchanged (two desks tapping, or the member
    // scanned first); the log has the call, saying it changed nothing.
    await ok(MARK, { reservationId: a.reservationId, attended: 1 });
    expect(await history(session.id)).toEqual([
      { reservationId: a.reservationId, operateType: OperateType.ATTENDED, operatorId: env().staffId, usedCount: 0 },
    ]);
    expect((await summaries()).slice(-2)).toEqual(['记到店', '记到店（已是如此，未改变）']);
    // The card paid at booking, once: 到店 takes nothing.
    expect((await e.cardRow(a.card.id)).usedCount).toBe(1);

    const list = await ok(queryReservationList.path, { tid: session.id, page: 1 });
    const row = (id: number) => list.list.find((r: { reservationId: number }) => r.reservationId === id);
    expect(row(a.reservationId).attendedTime).not.toBeNull();
    expect(row(b.reservationId).attendedTime).toBeNull();
    // The booking's own line stays what made it (管理员代约), not the 到店 line.
    expect(row(a.reservationId).operateType).toBe(OperateType.ADMIN_BOOKED);
    const day = await ok(queryToday.path, { date: FUTURE });
    const roster = day.sessions.find((s: { id: number }) => s.id === session.id).roster;
    expect(roster.map((r: { memberName: string; state: string }) => [r.memberName, r.state])).toEqual([
      ['会员1', 'attended'],
      ['会员2', 'booked'],
    ]);

    // 撤销到店, then again: the second changes nothing.
    await ok(MARK, { reservationId: a.reservationId, attended: 0 });
    await ok(MARK, { reservationId: a.reservationId, attended: 0 });
    const undone = await e.db
      .selectFrom('reservation')
      .select('attendedTime')
      .where('id', '=', a.reservationId)
      .executeTakeFirstOrThrow();
    expect(undone.attendedTime).toBeNull();
    expect((await history(session.id)).map((h) => h.operateType)).toEqual([
      OperateType.ATTENDED,
      OperateType.ATTENDANCE_UNDONE,
    ]);
    expect((await summaries()).slice(before)).toEqual([
      '记到店',
      '记到店（已是如此，未改变）',
      '撤销到店',
      '撤销到店（已是如此，未改变）',
    ]);
    const trail = await ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(trail.list[0]).toMatchObject({ operateType: OperateType.ATTENDANCE_UNDONE, usedCount: 0 });
    expect(trail.list[0].operator).toBeTruthy();

    const bad = await env().client.call(MARK, { reservationId: a.reservationId, attended: 2 });
    expect([bad.status, bad.msg]).toEqual([400, AttendanceMsg.attended]);
  });

  it('refuses a cancelled booking, another store’s booking and a teacher of another class', async () => {
    const { s, session, members } = await bookedClass(2);
    const [a, b] = members;
    await ok(cancelReservationCall.path, { id: b.reservationId });
    const cancelled = await env().client.call(MARK, { reservationId: b.reservationId, attended: 1 });
    expect([cancelled.status, cancelled.msg]).toEqual([409, AttendanceMsg.cancelled]);

    const foreign = await env().other.client.call(MARK, { reservationId: a.reservationId, attended: 1 });
    expect([foreign.status, foreign.msg]).toEqual([404, Msg.notFound('预约')]);

    const e = new EngineFactory(env().factory);
    const stranger = await e.f.teacher({ name: '别的老师' });
    const other = await staffClient(env(), 'teacher', stranger.id);
    const refused = await other.call(MARK, { reservationId: a.reservationId, attended: 1 });
    expect([refused.status, refused.msg]).toEqual([403, Msg.forbiddenSession]);
    expect(await history(session.id)).toEqual([]);

    // The class's own teacher marks it, in their name.
    const own = await staffClient(env(), 'teacher', s.teacher.id);
    await own.ok(MARK, { reservationId: a.reservationId, attended: 1 });
    const [line] = await history(session.id);
    expect(line.operateType).toBe(OperateType.ATTENDED);
    expect(line.operatorId).not.toBe(env().staffId);
  });

  it(`a class ended more than ${ATTENDANCE_EDIT_DAYS} days ago: the desk is refused, the manager may`, async () => {
    const old = await bookedClass(1, addDays(today(), -(ATTENDANCE_EDIT_DAYS + 1)));
    const desk = await staffClient(env(), 'desk');
    const refused = await desk.call(MARK, { reservationId: old.members[0].reservationId, attended: 1 });
    expect([refused.status, refused.msg]).toEqual([409, AttendanceMsg.tooOld(ATTENDANCE_EDIT_DAYS)]);
    expect(await history(old.session.id)).toEqual([]);
    await ok(MARK, { reservationId: old.members[0].reservationId, attended: 1 });
    expect((await history(old.session.id)).length).toBe(1);

    const recent = await bookedClass(1, addDays(today(), -(ATTENDANCE_EDIT_DAYS - 1)));
    await desk.ok(MARK, { reservationId: recent.members[0].reservationId, attended: 1 });
  });

  it('a pending signed in (签到后扣费) came already: 到店 changes nothing, 撤销到店 is refused', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene();
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id });
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    await e.setMode(1);
    await ok(addGroupPending.path, { mid: m.member.id, tid: session.id, studentCount: 1 });
    const p = await e.db
      .selectFrom('pending')
      .select('id')
      .where('timetableId', '=', session.id)
      .executeTakeFirstOrThrow();
    await ok(signInPendingCall.path, { pendingId: p.id, mcId: m.card.id, remark: null });
    const r = await e.db
      .selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', session.id)
      .executeTakeFirstOrThrow();
    await ok(MARK, { reservationId: r.id, attended: 1 });
    const undo = await env().client.call(MARK, { reservationId: r.id, attended: 0 });
    expect([undo.status, undo.msg]).toEqual([409, AttendanceMsg.signedIn]);
    expect(await history(session.id)).toEqual([]);
    expect((await e.cardRow(m.card.id)).usedCount).toBe(1);
  });

  it('no-shows of 预约即扣费: unmarked bookings of a class whose attendance was taken count, in the policy and the reports; 到店 afterwards clears one', async () => {
    await ok(updateBookingPolicy.path, { noShow: 'forfeit', noShowLimit: 1, noShowSuspendDays: 7 });
    const date = addDays(today(), -3);
    const taken = await bookedClass(3, date);
    const [a, b, c] = taken.members;
    // A class of the same day nobody took attendance of: its bookings are no no-shows.
    const untaken = await bookedClass(1, date);
    await ok(MARK, { reservationId: a.reservationId, attended: 1 });

    const status = (mid: number) => ok(memberPolicyStatus.path, { mid });
    const sb = await status(b.member.id);
    expect(sb.noShows).toEqual([
      expect.objectContaining({
        pendingId: null,
        reservationId: b.reservationId,
        fee: 0,
        session: expect.objectContaining({ id: taken.session.id }),
      }),
    ]);
    expect(sb.suspendedUntil).not.toBeNull();
    expect((await status(a.member.id)).noShows).toEqual([]);
    expect((await status(untaken.members[0].member.id)).noShows).toEqual([]);
    // forfeit only counts: the booking paid when made, nothing more is taken.
    expect((await taken.e.cardRow(b.card.id)).usedCount).toBe(1);

    const report = () => ok(reportOverview.path, { fromDate: date, toDate: date });
    expect(await report()).toMatchObject({ booked: 4, signedIn: 1, noShows: 2 });
    // The member sees it on the phone too: 爽约 under 已结束.
    const phone = await memberClient(env(), b.member);
    const past = await phone.ok(memberMyBookings.path, { state: 'past', page: 1 });
    expect(past.list.find((x: { id: number }) => x.id === b.reservationId)).toMatchObject({
      kind: 'noShow',
      state: '爽约',
    });

    // The desk corrects it: b came after all.
    await ok(MARK, { reservationId: b.reservationId, attended: 1 });
    const fixed = await status(b.member.id);
    expect([fixed.noShows, fixed.suspendedUntil]).toEqual([[], null]);
    expect(await report()).toMatchObject({ signedIn: 2, noShows: 1 });
    expect((await status(c.member.id)).noShows.map((x: { reservationId: number }) => x.reservationId)).toEqual([
      c.reservationId,
    ]);
  });

  it('the export says what became of each booking (状态)', async () => {
    const { e, s, session, members } = await bookedClass(3, addDays(today(), -1));
    await ok(MARK, { reservationId: members[0].reservationId, attended: 1 });
    const states = async (tid: number) =>
      (await ok<{ member: string; state: string }[]>(exportTimetableReservation.path, { id: tid })).map((r) => [
        r.member,
        r.state,
      ]);
    expect(await states(session.id)).toEqual([
      ['会员1', '已到店'],
      ['会员2', '爽约'],
      ['会员3', '爽约'],
    ]);
    // A member's late cancel (after the free-cancel time, the deduction kept) of a class still to come.
    const soon = await bookedClass(2);
    await e.db
      .updateTable('timetable')
      .set({ startTime: `${addDays(today(), 2)} 10:00:00`, endTime: `${addDays(today(), 2)} 11:00:00` })
      .where('id', '=', soon.session.id)
      .execute();
    await ok(updateBookingPolicy.path, { cancelMinutesBefore: 7 * 24 * 60, lateCancel: 'forfeit' });
    try {
      await (
        await memberClient(env(), soon.members[0].member)
      ).ok(memberCancelBooking.path, {
        id: soon.members[0].reservationId,
      });
    } finally {
      await ok(updateBookingPolicy.path, { cancelMinutesBefore: 0, lateCancel: 'refuse' });
    }
    expect(await states(soon.session.id)).toEqual([
      ['会员1', '迟到取消'],
      ['会员2', '已预约'],
    ]);
    // Not ended yet: nobody is a no-show.
    const future = await bookedClass(2);
    await ok(MARK, { reservationId: future.members[1].reservationId, attended: 1 });
    expect(await states(future.session.id)).toEqual([
      ['会员1', '已预约'],
      ['会员2', '已到店'],
    ]);

    // 签到后扣费: a pending signed in, and one never signed in (the job's no-show).
    await ok(updateBookingPolicy.path, { noShow: 'forfeit', noShowLimit: 0, noShowSuspendDays: 0 });
    await e.setMode(1);
    const later = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 14:00:00` });
    const came = await e.memberWithCard(s.product.id, { member: { name: '签到者' }, card: { totalCount: 10 } });
    const missed = await e.memberWithCard(s.product.id, { member: { name: '未到者' }, card: { totalCount: 10 } });
    for (const m of [came, missed]) {
      await ok(addGroupPending.path, { mid: m.member.id, tid: later.id, mcId: m.card.id, studentCount: 1 });
    }
    const p = await e.db
      .selectFrom('pending')
      .select('id')
      .where('memberId', '=', came.member.id)
      .executeTakeFirstOrThrow();
    await ok(signInPendingCall.path, { pendingId: p.id, mcId: came.card.id, remark: null });
    await runNoShows(env().database.db, env().dialect, () => `${FUTURE} 23:00:00`);
    const rows = await ok<{ member: string; state: string; usedCount: number }[]>(exportTimetableReservation.path, {
      id: later.id,
    });
    expect(rows.map((r) => [r.member, r.state, r.usedCount])).toEqual([
      ['签到者', '已签到', 1],
      ['未到者', '爽约', 1],
    ]);
  });
});
