import {
  addGroupPending,
  allCalls,
  createMemberLoginCode,
  endMemberSessions,
  LOGIN_CODE,
  MemberMsg,
  memberBook,
  memberCancelBooking,
  memberCancelPending,
  memberCardsForSession,
  memberJoinWaitlist,
  memberLeaveWaitlist,
  memberLogin,
  memberLogout,
  memberMe,
  memberMyBookings,
  memberMyCards,
  memberPublicTimetable,
  memberSendCode,
  memberSignIn,
  memberStore,
  memberTimetable,
  Msg,
  OperateType,
  PendingStatus,
  PolicyMsg,
  queryCheckinCode,
  queryMemberPage,
  queryTimetableHistory,
  TimetableMsg,
  updateBookingPolicy,
  updateMemberPage,
  memberPolicyStatus,
  liftMemberSuspension,
  NoShowMsg,
  waiveLateCancel,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { checkInvariants } from '../../../test/invariants.ts';

const now = () => localDateTime('Asia/Shanghai');

describeEachDb('members channel: sign-in by one-time code, booking, cancelling, queueing, check-in', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const desk = () => env().client;
  /** The desk's code limits count per member: a fresh member per test. */
  async function scene(o: { seats?: number; startTime?: string; endTime?: string; balance?: number } = {}) {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const session = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      reservableCount: o.seats ?? 5,
      startTime: o.startTime ?? `${FUTURE} 10:00:00`,
      endTime: o.endTime,
    });
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: o.balance ?? 10 } });
    const b = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    return { e, s, session, a, b };
  }
  afterEach(async () => {
    await desk().ok(updateBookingPolicy.path, {
      openDaysBefore: 0,
      closeMinutesBefore: 0,
      cancelMinutesBefore: 0,
      lateCancel: 'refuse',
      waitlist: 0,
      noShowLimit: 0,
      noShowSuspendDays: 0,
    });
    await ef().setMode(0);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('a desk code signs a member in once; the member session is its own cookie; logout and the desk end it', async () => {
    const { a } = await scene();
    const m = await memberClient(env(), a.member);
    const me = await m.ok(memberMe.path);
    expect(me).toEqual({
      member: { id: a.member.id, name: a.member.name, mobile: a.member.mobile },
      store: { id: env().storeId, name: expect.any(String) },
    });
    // the staff cookie is no member session, and the member cookie no staff session
    expect((await desk().call(memberMe.path)).status).toBe(401);
    const asStaff = await m.call('/api/auth/me');
    expect([asStaff.status, asStaff.msg]).toEqual([401, Msg.notLoggedIn]);
    // a second desk code at once is given (the desk is not held to the public door's limits)
    const m2 = await memberClient(env(), a.member);
    // the desk ends the member's sessions (退出该会员的登录)
    expect(await desk().ok(endMemberSessions.path, { memberId: a.member.id })).toEqual({ ended: 2 });
    expect((await m.call(memberMe.path)).status).toBe(401);
    expect((await m2.call(memberMe.path)).status).toBe(401);
  });

  it('desk codes: five wrong tries per address, used once, expired, never limited by the door, one answer for every wrong case', async () => {
    const { a } = await scene();
    const login = (code: string, from = '198.51.100.1', mobile = a.member.mobile, storeId = env().storeId) =>
      env().anon().from(from).call(memberLogin.path, { storeId, mobile, code });
    const db = env().database.db;
    const { code } = await desk().ok(createMemberLoginCode.path, { memberId: a.member.id });
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < LOGIN_CODE.maxTries; i++) {
      expect(await login(wrong)).toMatchObject({ status: 401, msg: MemberMsg.badCode });
    }
    // that address has no try left on the code, even with the right one...
    expect(await login(code)).toMatchObject({ status: 401, msg: MemberMsg.badCode });
    // ...but a stranger's guesses do not end a desk code for the member's own phone
    expect((await login(code, '198.51.100.2')).code).toBe(0);
    // used once
    expect(await login(code, '198.51.100.2')).toMatchObject({ status: 401, msg: MemberMsg.badCode });

    // the desk gives codes back to back, more than the public door's ten a day
    let last = '';
    for (let i = 0; i < LOGIN_CODE.perDay + 2; i++) {
      last = (await desk().ok(createMemberLoginCode.path, { memberId: a.member.id })).code;
    }
    // an expired code (10 minutes)
    await db
      .updateTable('memberLoginCode')
      .set((eb) => ({ expiresAt: eb('expiresAt', '-', LOGIN_CODE.ttlMs) }))
      .where('memberId', '=', a.member.id)
      .execute();
    expect(await login(last, '198.51.100.3')).toMatchObject({ status: 401, msg: MemberMsg.badCode });
    const fresh = await desk().ok(createMemberLoginCode.path, { memberId: a.member.id });
    // an unknown mobile and a mobile of another store answer exactly as a wrong code does
    expect(await login(fresh.code, '198.51.100.3', '13900000000')).toMatchObject({
      status: 401,
      msg: MemberMsg.badCode,
    });
    expect(await login(fresh.code, '198.51.100.3', a.member.mobile, env().other.storeId)).toMatchObject({
      status: 401,
      msg: MemberMsg.badCode,
    });
    expect((await login(fresh.code, '198.51.100.3')).code).toBe(0);
    const rows = await db.selectFrom('memberLoginCode').select('tries').where('memberId', '=', a.member.id).execute();
    expect(rows.every((r) => r.tries === 0)).toBe(true); // a desk code's tries are counted per address
    const anon = env().anon();
    // without an SMS provider the members' own request says to ask the desk
    expect(await anon.call(memberSendCode.path, { storeId: env().storeId, mobile: a.member.mobile })).toMatchObject({
      status: 409,
      msg: MemberMsg.noProvider,
    });
  });

  it('the landing page: store and timetable without login; the timetable with my state after it', async () => {
    const { session, a, b } = await scene({ seats: 1 });
    const anon = env().anon();
    const store = await anon.ok(memberStore.path, { storeId: env().storeId });
    expect(store).toMatchObject({ storeId: env().storeId, deductionMode: 0, logo: null });
    expect((await anon.call(memberStore.path, { storeId: 99_999_999 })).status).toBe(404);
    const days = await anon.ok(memberPublicTimetable.path, {
      storeId: env().storeId,
      fromDate: FUTURE,
      toDate: FUTURE,
    });
    const pub = days[0].sessions.find((x: { id: number }) => x.id === session.id);
    expect(pub).toMatchObject({ reservableCount: 1, realCount: 0, mine: null, bookable: true, reason: null });

    const ma = await memberClient(env(), a.member);
    const mb = await memberClient(env(), b.member);
    expect(await ma.ok(memberBook.path, { tid: session.id, mcId: a.card.id })).toEqual({
      kind: 'booked',
      id: expect.any(Number),
    });
    const mine = (await ma.ok(memberTimetable.path, { fromDate: FUTURE, toDate: FUTURE }))[0].sessions.find(
      (x: { id: number }) => x.id === session.id,
    );
    expect(mine).toMatchObject({ realCount: 1, mine: { kind: 'booked' }, bookable: false, reason: null });
    const theirs = (await mb.ok(memberTimetable.path, { fromDate: FUTURE, toDate: FUTURE }))[0].sessions.find(
      (x: { id: number }) => x.id === session.id,
    );
    expect(theirs).toMatchObject({ mine: null, bookable: false, reason: '已满', waitlistOpen: false });
    expect(await mb.call(memberBook.path, { tid: session.id, mcId: b.card.id })).toMatchObject({
      status: 409,
      msg: Msg.sessionFull,
    });
    expect((await ma.call(memberTimetable.path, { fromDate: FUTURE, toDate: '2099-07-01' })).status).toBe(400);
  });

  it('mode 0: a member books with their card (deducted, history type 1), sees it, cancels (refunded, type 3)', async () => {
    const { session, a } = await scene();
    const m = await memberClient(env(), a.member);
    const cards = await m.ok(memberCardsForSession.path, { tid: session.id });
    expect(cards).toEqual([expect.objectContaining({ id: a.card.id, usable: true, reason: null, balance: 10 })]);
    const booked = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id, studentCount: 2 });
    const db = env().database.db;
    const hist = await db.selectFrom('history').selectAll().where('reservationId', '=', booked.id).execute();
    expect(hist.map((h) => [h.operateType, h.operatorId])).toEqual([[OperateType.USER_BOOKED, null]]);
    const mine = await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 });
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({ kind: 'booked', id: booked.id, amount: 2, state: '已预约', studentCount: 2 });
    const myCards = await m.ok(memberMyCards.path);
    expect(myCards[0]).toMatchObject({ id: a.card.id, balance: 8 });
    expect(myCards[0].recent[0]).toMatchObject({ kind: '预约扣除', amount: -2 });
    // twice is refused by the engine's duplicate rule
    expect(await m.call(memberBook.path, { tid: session.id, mcId: a.card.id })).toMatchObject({
      status: 409,
      msg: Msg.alreadyBooked,
    });

    await m.ok(memberCancelBooking.path, { id: booked.id });
    const after = await db.selectFrom('history').select('operateType').where('reservationId', '=', booked.id).execute();
    expect(after.map((h) => h.operateType)).toEqual([OperateType.USER_BOOKED, OperateType.USER_CANCELLED]);
    expect((await m.ok(memberMyCards.path))[0].balance).toBe(10);
    // Filed by the class, which is still to come: under 待上课, saying it was cancelled, no cost left to tell.
    const upcoming = await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 });
    expect(upcoming.list[0]).toMatchObject({ kind: 'cancelled', state: '已取消', cancelCost: null });
    expect((await m.ok(memberMyBookings.path, { state: 'past', page: 1 })).total).toBe(0);
  });

  it('the policy binds members: the booking window, late cancels refused or kept, suspension', async () => {
    const soon = addMinutes(now(), 90);
    const { session, a } = await scene({ startTime: soon });
    const m = await memberClient(env(), a.member);
    await desk().ok(updateBookingPolicy.path, { closeMinutesBefore: 120 });
    expect(await m.call(memberBook.path, { tid: session.id, mcId: a.card.id })).toMatchObject({
      status: 409,
      msg: PolicyMsg.closed(120),
    });
    const t = (await m.ok(memberTimetable.path, { fromDate: soon.slice(0, 10), toDate: soon.slice(0, 10) }))[0];
    expect(t.sessions.find((x: { id: number }) => x.id === session.id)).toMatchObject({
      bookable: false,
      reason: PolicyMsg.closed(120),
    });
    await desk().ok(updateBookingPolicy.path, { closeMinutesBefore: 0, cancelMinutesBefore: 120 });
    const booked = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    expect(await m.call(memberCancelBooking.path, { id: booked.id })).toMatchObject({
      status: 409,
      msg: PolicyMsg.lateCancelRefused(120),
    });
    await desk().ok(updateBookingPolicy.path, { lateCancel: 'forfeit' });
    // Before confirming, the member is told what this cancel costs: on the timetable's sheet and in 我的预约.
    const day = soon.slice(0, 10);
    const sheet = (await m.ok(memberTimetable.path, { fromDate: day, toDate: day }))[0].sessions.find(
      (x: { id: number }) => x.id === session.id,
    );
    expect(sheet.mine).toMatchObject({ kind: 'booked', cancelCost: PolicyMsg.cancelLate(120, '1 次') });
    expect((await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 })).list[0]).toMatchObject({
      id: booked.id,
      cancelCost: '已过免费取消时间（开课前2小时），取消后不退回 1 次',
    });
    await m.ok(memberCancelBooking.path, { id: booked.id });
    // The card's ledger tells why nothing came back: a 迟到取消 line that moves nothing.
    const recent = (await m.ok(memberMyCards.path))[0].recent;
    expect(recent[0]).toMatchObject({ kind: '迟到取消', amount: 0 });
    expect(recent[0].note).toContain('不退回 1 次');
    const db = env().database.db;
    const card = await db.selectFrom('memberCard').select('usedCount').where('id', '=', a.card.id).executeTakeFirst();
    expect(Number(card!.usedCount)).toBe(1); // the deduction kept
    const hist = await db.selectFrom('history').select('operateType').where('reservationId', '=', booked.id).execute();
    expect(hist.map((h) => h.operateType)).toEqual([OperateType.USER_BOOKED, OperateType.LATE_CANCEL]);
    const seats = await db.selectFrom('timetable').select('realCount').where('id', '=', session.id).executeTakeFirst();
    expect(seats!.realCount).toBe(0);
    expect(await checkInvariants(db, env().storeId)).toEqual([]);

    const lateOf = async () =>
      (await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 })).list.find(
        (b: { id: number; kind: string }) => b.id === booked.id && b.kind === 'cancelled',
      );
    expect(await lateOf()).toMatchObject({ state: '迟到取消，已扣除', amount: 1 });

    // the desk sees the late cancel in the member's record and waives it with a reason: refunded once
    const status = await desk().ok(memberPolicyStatus.path, { mid: a.member.id });
    expect(status.lateCancels).toEqual([
      expect.objectContaining({
        reservationId: booked.id,
        session: expect.objectContaining({ id: session.id }),
        fee: 1,
        waivedTime: null,
      }),
    ]);
    expect(await desk().call(waiveLateCancel.path, { reservationId: booked.id, reason: ' ' })).toMatchObject({
      status: 400,
      msg: NoShowMsg.reason,
    });
    const [w1, w2] = await Promise.all([
      desk().call(waiveLateCancel.path, { reservationId: booked.id, reason: '交通管制，店长同意' }),
      desk().call(waiveLateCancel.path, { reservationId: booked.id, reason: '交通管制，店长同意' }),
    ]);
    expect([w1.code, w2.code].sort()).toEqual([0, 409]);
    expect([w1, w2].find((w) => w.code !== 0)!.msg).toBe(NoShowMsg.lateAlreadyWaived);
    const after = await db.selectFrom('memberCard').select('usedCount').where('id', '=', a.card.id).executeTakeFirst();
    expect(Number(after!.usedCount)).toBe(0);
    const ledger = await db
      .selectFrom('cardLedger')
      .select(['kind', 'amount', 'remark'])
      .where('reservationId', '=', booked.id)
      .orderBy('id')
      .execute();
    expect(ledger.map((l) => [l.kind, Number(l.amount)])).toEqual([
      ['deduct', 1],
      ['late_cancel', 1],
      ['waive', -1],
    ]);
    const trail = await db.selectFrom('history').select('operateType').where('reservationId', '=', booked.id).execute();
    expect(trail.map((h) => h.operateType)).toEqual([
      OperateType.USER_BOOKED,
      OperateType.LATE_CANCEL,
      OperateType.WAIVED,
    ]);
    expect((await desk().ok(memberPolicyStatus.path, { mid: a.member.id })).lateCancels[0]).toMatchObject({
      waiveReason: '交通管制，店长同意',
    });
    // the member sees the refund on their card and on the cancelled booking
    expect(await lateOf()).toMatchObject({ state: '迟到取消，已退回' });
    expect((await m.ok(memberMyCards.path))[0].balance).toBe(10);
    // a booking that is no late cancel, or of no such id, cannot be waived
    const other = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    expect(await desk().call(waiveLateCancel.path, { reservationId: other.id, reason: '试试' })).toMatchObject({
      status: 409,
      msg: NoShowMsg.notLateCancel,
    });
    expect((await desk().call(waiveLateCancel.path, { reservationId: 99999999, reason: '试试' })).status).toBe(404);
  });

  it('mode 1: a seat held with the card, checked in by the store code in its window, charged then', async () => {
    const start = addMinutes(now(), 20);
    const { e, session, a, b } = await scene({ startTime: start });
    await e.setMode(1);
    const m = await memberClient(env(), a.member);
    const held = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    expect(held.kind).toBe('pending');
    const db = env().database.db;
    const p = await db.selectFrom('pending').selectAll().where('id', '=', held.id).executeTakeFirstOrThrow();
    expect([p.memberCardId, p.operatorId]).toEqual([a.card.id, null]);
    const { token, url } = await desk().ok(queryCheckinCode.path);
    expect(url).toContain(`/m/?store=${env().storeId}&checkin=`);
    expect(await m.call(memberSignIn.path, { token: 'wrong-token' })).toMatchObject({
      status: 400,
      msg: MemberMsg.badToken,
    });
    const done = await m.ok(memberSignIn.path, { token });
    expect(done).toMatchObject({ tid: session.id, message: MemberMsg.checkedIn });
    const card = await db.selectFrom('memberCard').select('usedCount').where('id', '=', a.card.id).executeTakeFirst();
    expect(Number(card!.usedCount)).toBe(1);
    const checkin = await db
      .selectFrom('history')
      .select(['operateType'])
      .where('pendingId', '=', held.id)
      .orderBy('id')
      .execute();
    expect(checkin.map((h) => h.operateType)).toEqual([OperateType.USER_BOOKED, OperateType.SELF_CHECKED_IN]);
    expect((await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 })).list[0]).toMatchObject({
      kind: 'signed',
      state: '已签到',
    });
    // twice is told so; a member with no class in the window is told that
    expect(await m.call(memberSignIn.path, { token })).toMatchObject({
      status: 409,
      msg: MemberMsg.alreadyCheckedIn,
    });
    const other = await memberClient(env(), b.member);
    expect(await other.call(memberSignIn.path, { token })).toMatchObject({
      status: 409,
      msg: MemberMsg.noClassToCheckIn,
    });
    // a reset makes yesterday's (or the printed) code stop working
    const reset = await desk().ok(queryCheckinCode.path, { reset: true });
    expect(reset.token).not.toBe(token);
    expect((await other.call(memberSignIn.path, { token })).status).toBe(400);
    // a pending can be cancelled by its member only
    const later = await e.session({
      courseId: session.courseId,
      teacherId: session.teacherId,
      startTime: `${FUTURE} 12:00:00`,
    });
    const held2 = await other.ok(memberBook.path, { tid: later.id, mcId: b.card.id });
    expect(await m.call(memberCancelPending.path, { pendingId: held2.id })).toMatchObject({ status: 404 });
    await other.ok(memberCancelPending.path, { pendingId: held2.id });
  });

  it('mode 0 self check-in marks the booking attended; outside the window it is refused in words', async () => {
    const start = addMinutes(now(), 45);
    const { session, a } = await scene({ startTime: start });
    const m = await memberClient(env(), a.member);
    const booked = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    const { token } = await desk().ok(queryCheckinCode.path);
    // 45 minutes before: the window opens 30 minutes before the start
    expect(await m.call(memberSignIn.path, { token })).toMatchObject({
      status: 409,
      msg: MemberMsg.noClassToCheckIn,
    });
    const db = env().database.db;
    await db
      .updateTable('timetable')
      .set({ startTime: addMinutes(now(), 10), endTime: addMinutes(now(), 70) })
      .where('id', '=', session.id)
      .execute();
    expect(await m.ok(memberSignIn.path, { token })).toMatchObject({ tid: session.id });
    const r = await db.selectFrom('reservation').select('attendedTime').where('id', '=', booked.id).executeTakeFirst();
    expect(r!.attendedTime).not.toBeNull();
    expect(await m.call(memberSignIn.path, { token })).toMatchObject({
      status: 409,
      msg: MemberMsg.alreadyCheckedIn,
    });
    // once the class has started a member cannot cancel online (the desk still can)
    await db
      .updateTable('timetable')
      .set({ startTime: addMinutes(now(), -5), endTime: addMinutes(now(), 55) })
      .where('id', '=', session.id)
      .execute();
    expect(await m.call(memberCancelBooking.path, { id: booked.id })).toMatchObject({
      status: 409,
      msg: TimetableMsg.startedNoCancel,
    });
  });

  it('a member acts only on their own: another member’s booking, card, wait and another store are 404', async () => {
    const { session, a, b } = await scene({ seats: 1 });
    await desk().ok(updateBookingPolicy.path, { waitlist: 1 });
    const ma = await memberClient(env(), a.member);
    const mb = await memberClient(env(), b.member);
    const booked = await ma.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    expect(await mb.call(memberCancelBooking.path, { id: booked.id })).toMatchObject({
      status: 404,
      msg: Msg.notFound('预约'),
    });
    expect(await mb.call(memberBook.path, { tid: session.id, mcId: a.card.id })).toMatchObject({
      status: 404,
      msg: Msg.notFound('会员卡'),
    });
    // Session, card, rules and suspension are read together; the session is still the first refusal.
    expect(await mb.call(memberBook.path, { tid: 99_999_999, mcId: a.card.id })).toMatchObject({
      status: 404,
      msg: Msg.notFound('课程'),
    });
    const wait = await mb.ok(memberJoinWaitlist.path, { tid: session.id, mcId: b.card.id });
    expect(wait.position).toBe(1);
    expect((await mb.ok(memberTimetable.path, { fromDate: FUTURE, toDate: FUTURE }))[0].sessions).toContainEqual(
      expect.objectContaining({
        id: session.id,
        mine: { kind: 'waiting', id: wait.id, position: 1, cancelCost: null },
      }),
    );
    expect((await ma.call(memberLeaveWaitlist.path, { id: wait.id })).status).toBe(404);
    // a's cancel frees the seat: b is promoted in that transaction (booked with b's card)
    await ma.ok(memberCancelBooking.path, { id: booked.id });
    const bs = await mb.ok(memberMyBookings.path, { state: 'upcoming', page: 1 });
    expect(bs.list.map((x: { kind: string }) => x.kind)).toEqual(['booked']);
    // a member leaves their own wait
    const later = await ef().session({ courseId: session.courseId, teacherId: session.teacherId, reservableCount: 1 });
    await ma.ok(memberBook.path, { tid: later.id, mcId: a.card.id });
    const w2 = await mb.ok(memberJoinWaitlist.path, { tid: later.id, mcId: b.card.id });
    await mb.ok(memberLeaveWaitlist.path, { id: w2.id });
    expect(await mb.call(memberLeaveWaitlist.path, { id: w2.id })).toMatchObject({ status: 409 });
    // the desk's history names the member as the operator of their own booking
    const hist = await desk().ok(queryTimetableHistory.path, { tid: later.id, page: 1 });
    expect(hist.list[0]).toMatchObject({
      operateType: OperateType.USER_BOOKED,
      operator: `${a.member.name}（会员本人）`,
    });
    // another store's session and ids
    const theirs = new EngineFactory(env().other.factory);
    const ts = await theirs.scene();
    const tsession = await theirs.session({ courseId: ts.course.id, teacherId: ts.teacher.id });
    expect((await ma.call(memberBook.path, { tid: tsession.id, mcId: a.card.id })).status).toBe(404);
    expect((await ma.call(memberCardsForSession.path, { tid: tsession.id })).status).toBe(404);
    expect(JSON.stringify(await ma.ok(memberMyBookings.path, { state: 'past', page: 1 }))).not.toContain(b.member.name);
  });

  it("a member cancels only their own waiting pending: another's is 404 预约不存在 and stays as it was", async () => {
    const { e, session, a, b } = await scene();
    await e.setMode(1);
    const ma = await memberClient(env(), a.member);
    const mb = await memberClient(env(), b.member);
    const held = await mb.ok(memberBook.path, { tid: session.id, mcId: b.card.id });
    expect(held.kind).toBe('pending');
    const db = env().database.db;
    const row = () => db.selectFrom('pending').selectAll().where('id', '=', held.id).executeTakeFirstOrThrow();
    const trail = async () =>
      (
        await db.selectFrom('history').select('operateType').where('pendingId', '=', held.id).orderBy('id').execute()
      ).map((h) => h.operateType);
    const before = await row();
    for (const pendingId of [held.id, 99999999]) {
      expect(await ma.call(memberCancelPending.path, { pendingId })).toMatchObject({
        status: 404,
        msg: Msg.notFound('预约'),
      });
    }
    expect(await row()).toEqual(before);
    expect((await e.sessionRow(session.id)).realCount).toBe(1);
    expect(await trail()).toEqual([OperateType.USER_BOOKED]);
    // Their own: cancelled, the seat freed, history type 3 (the member cancelled); once.
    await mb.ok(memberCancelPending.path, { pendingId: held.id });
    expect((await row()).status).toBe(PendingStatus.CANCELLED);
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
    expect(await trail()).toEqual([OperateType.USER_BOOKED, OperateType.USER_CANCELLED]);
    expect(await mb.call(memberCancelPending.path, { pendingId: held.id })).toMatchObject({
      status: 409,
      msg: Msg.pendingNotWaiting,
    });
  });

  it('joining a queue refuses in one order: a session not live, then a card not theirs, then a suspension', async () => {
    const { e, s, session, a, b } = await scene({ seats: 1 });
    await desk().ok(updateBookingPolicy.path, { waitlist: 1, noShowLimit: 1, noShowSuspendDays: 7 });
    const ma = await memberClient(env(), a.member);
    const mb = await memberClient(env(), b.member);
    await ma.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
    const theirs = new EngineFactory(env().other.factory);
    const ts = await theirs.scene();
    const tsession = await theirs.session({ courseId: ts.course.id, teacherId: ts.teacher.id, reservableCount: 1 });
    const join = (tid: number, mcId: number) => mb.call(memberJoinWaitlist.path, { tid, mcId });
    const noSession = { status: 404, msg: Msg.notFound('课程') };
    const notTheirCard = { status: 404, msg: Msg.notFound('会员卡') };
    for (const tid of [99999999, tsession.id]) expect(await join(tid, a.card.id)).toMatchObject(noSession);
    expect(await join(session.id, a.card.id)).toMatchObject(notTheirCard);
    // b missed a class that started half an hour ago (a no-show): their online booking is suspended.
    await e.setMode(1);
    const missed = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(now(), -30),
      endTime: addMinutes(now(), 30),
    });
    await desk().ok(addGroupPending.path, { mid: b.member.id, tid: missed.id });
    const db = env().database.db;
    await db
      .updateTable('pending')
      .set({ status: PendingStatus.NO_SHOW, noShowFee: 0 })
      .where('timetableId', '=', missed.id)
      .execute();
    await e.setMode(0);
    const { suspendedUntil } = await desk().ok(memberPolicyStatus.path, { mid: b.member.id });
    expect(suspendedUntil).not.toBeNull();
    for (const mcId of [a.card.id, b.card.id]) expect(await join(99999999, mcId)).toMatchObject(noSession);
    expect(await join(session.id, a.card.id)).toMatchObject(notTheirCard);
    expect(await join(session.id, b.card.id)).toMatchObject({
      status: 409,
      msg: PolicyMsg.suspended(suspendedUntil),
    });
    expect(await db.selectFrom('waitlist').select('id').where('memberId', '=', b.member.id).execute()).toEqual([]);
    // The desk lifts it (an audited change of the member's), b queues.
    await desk().ok(liftMemberSuspension.path, { mid: b.member.id });
    expect((await desk().ok(memberPolicyStatus.path, { mid: b.member.id })).suspendedUntil).toBeNull();
    const entry = await db
      .selectFrom('auditLog')
      .innerJoin('auditTarget', 'auditTarget.auditId', 'auditLog.id')
      .select(['auditLog.call', 'auditTarget.type'])
      .where('auditLog.storeId', '=', env().storeId)
      .where('auditTarget.refId', '=', b.member.id)
      .where('auditLog.call', 'like', '%suspension%')
      .execute();
    expect(entry).toEqual([{ call: liftMemberSuspension.path, type: 'member' }]);
    expect(await join(session.id, b.card.id)).toMatchObject({ status: 200, data: { position: 1 } });
  });

  it("the members' page address: the desk's own by default, the store's public address once set", async () => {
    const first = await desk().ok(queryMemberPage.path);
    expect(first).toEqual({
      publicBaseUrl: '',
      url: `http://localhost:80/m/?store=${env().storeId}`,
      trialUrl: `http://localhost:80/m/?store=${env().storeId}&trial=1`,
    });
    const bad = await desk().call(updateMemberPage.path, { publicBaseUrl: 'yoga.example.com/path' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('http://');
    const set = await desk().ok(updateMemberPage.path, { publicBaseUrl: 'https://yoga.example.com/' });
    expect(set).toEqual({
      publicBaseUrl: 'https://yoga.example.com',
      url: `https://yoga.example.com/m/?store=${env().storeId}`,
      trialUrl: `https://yoga.example.com/m/?store=${env().storeId}&trial=1`,
    });
    const { url } = await desk().ok(queryCheckinCode.path);
    expect(url.startsWith(`https://yoga.example.com/m/?store=${env().storeId}&checkin=`)).toBe(true);
    await desk().ok(updateMemberPage.path, { publicBaseUrl: '' });
  });

  it('a member cookie opens no staff call, and a staff cookie no member call', async () => {
    const { a } = await scene();
    const m = await memberClient(env(), a.member);
    for (const call of allCalls) {
      if (call.auth === 'public') continue;
      const client = call.auth === 'member' ? desk() : m;
      const answer = await client.call(call.path, {});
      expect([call.path, answer.status, answer.msg]).toEqual([call.path, 401, Msg.notLoggedIn]);
    }
    await m.ok(memberLogout.path);
    expect((await m.call(memberMe.path)).status).toBe(401);
  });
});
