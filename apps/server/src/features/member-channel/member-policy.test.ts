// The store's booking policy holds a member in both deduction modes (预约即扣费 and 签到后扣费): a
// pending's cancel like a booking's, a card's bookings within what it can pay, a period card's open
// bookings, the booking window for the queue and for promotions. Staff are not held to it; where
// they go past it, history says so.
import {
  addGroupPending,
  addMemberReservation,
  addWaitlist,
  BIG_TYPE_MONEY,
  cancelPendingCall,
  cancelReservationCall,
  DEFAULT_POLICY,
  memberBook,
  memberCancelBooking,
  memberCancelPending,
  memberCardsForSession,
  memberJoinWaitlist,
  memberMyBookings,
  memberPolicyStatus,
  memberTimetable,
  Msg,
  OperateType,
  PendingStatus,
  PhaseMsg,
  PolicyMsg,
  queryBookingPolicy,
  queryTimetableHistory,
  ReservationStatus,
  TimetableMsg,
  updateBookingPolicy,
  waiveLateCancel,
  WaitStatus,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb, type Client } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { checkInvariants } from '../../../test/invariants.ts';

const now = () => localDateTime('Asia/Shanghai');

describeEachDb('members held to the booking policy in both deduction modes', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const desk = () => env().client;
  const db = () => env().database.db;
  const policy = (p: Record<string, unknown>) => desk().ok(updateBookingPolicy.path, p);
  afterEach(async () => {
    await policy(DEFAULT_POLICY);
    await ef().setMode(0);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** A course, a member holding one card of a product (a count card holding 10 by default), in `mode`. */
  async function scene(
    mode: 0 | 1,
    o: { product?: Record<string, unknown>; balance?: number; startTime?: string; seats?: number } = {},
  ) {
    const e = ef();
    await e.setMode(mode);
    const s = await e.scene({ product: { perCount: 1, cardType: 2, ...o.product } });
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: o.balance ?? 10 } });
    const session = (startTime = o.startTime ?? `${FUTURE} 10:00:00`, seats = o.seats ?? 5) =>
      e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime, reservableCount: seats });
    return { e, s, a, session, first: await session() };
  }
  /** The desk books a member with a card (a booking in mode 0, a pending in mode 1). */
  const deskBook = (mode: 0 | 1, m: { member: { id: number }; card: { id: number } }, tid: number) =>
    mode === 0
      ? desk().call(addMemberReservation.path, { mcId: m.card.id, tid, mid: m.member.id, studentCount: 1 })
      : desk().call(addGroupPending.path, { mcId: m.card.id, tid, mid: m.member.id, studentCount: 1 });
  /** The member cancels what they hold: their booking (mode 0) or pending (mode 1). */
  const cancelOwn = (mode: 0 | 1, m: Client, id: number) =>
    mode === 0 ? m.call(memberCancelBooking.path, { id }) : m.call(memberCancelPending.path, { pendingId: id });
  const moveSession = (id: number, startTime: string, endTime: string) =>
    db().updateTable('timetable').set({ startTime, endTime }).where('id', '=', id).execute();
  const usedOf = async (cardId: number) => (await ef().cardRow(cardId)).usedCount;
  /** What a member's booking or pending is: its row's status, its session's seats, its card's use, its trail. */
  async function stateOf(mode: 0 | 1, id: number, tid: number, cardId: number) {
    const row =
      mode === 0
        ? await db().selectFrom('reservation').select('status').where('id', '=', id).executeTakeFirstOrThrow()
        : await db().selectFrom('pending').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    const trail = await db()
      .selectFrom('history')
      .select('operateType')
      .where(mode === 0 ? 'reservationId' : 'pendingId', '=', id)
      .orderBy('id')
      .execute();
    return {
      status: row.status,
      seats: (await ef().sessionRow(tid)).realCount,
      used: await usedOf(cardId),
      trail: trail.map((h) => h.operateType),
    };
  }

  for (const mode of [0, 1] as const) {
    it(`[mode ${mode}] a member's cancel is refused after the free-cancel time, once the class started and after its end`, async () => {
      await policy({ cancelMinutesBefore: 120, lateCancel: 'refuse' });
      const { a, first } = await scene(mode, { startTime: addMinutes(now(), 30) });
      const m = await memberClient(env(), a.member);
      const held = await m.ok(memberBook.path, { tid: first.id, mcId: a.card.id });
      expect(held.kind).toBe(mode === 0 ? 'booked' : 'pending');
      const before = await stateOf(mode, held.id, first.id, a.card.id);
      expect(before).toEqual({
        status: mode === 0 ? ReservationStatus.BOOKED : PendingStatus.WAITING,
        seats: 1,
        used: mode === 0 ? 1 : 0,
        trail: [OperateType.USER_BOOKED],
      });
      // 30 minutes before the start, inside the 120 minutes late cancels are refused in.
      expect(await cancelOwn(mode, m, held.id)).toMatchObject({
        status: 409,
        code: 409,
        msg: PolicyMsg.lateCancelRefused(120),
      });
      // Started five minutes ago; ended a second ago.
      await moveSession(first.id, addMinutes(now(), -5), addMinutes(now(), 55));
      expect(await cancelOwn(mode, m, held.id)).toMatchObject({ status: 409, msg: TimetableMsg.startedNoCancel });
      await moveSession(first.id, addMinutes(now(), -61), addMinutes(now(), -1 / 60));
      expect(await cancelOwn(mode, m, held.id)).toMatchObject({ status: 409, msg: TimetableMsg.startedNoCancel });
      // Nothing changed: still held, seat taken, nothing refunded or charged, no cancel in history.
      expect(await stateOf(mode, held.id, first.id, a.card.id)).toEqual(before);
    });

    it(`[mode ${mode}] a late cancel under "forfeit" frees the seat and keeps the charge of one class, waivable by staff`, async () => {
      await policy({ cancelMinutesBefore: 120, lateCancel: 'forfeit' });
      const { a, first, session } = await scene(mode, { product: { perCount: 2 }, startTime: addMinutes(now(), 30) });
      const m = await memberClient(env(), a.member);
      // Before the cutoff a cancel is free, in both modes.
      const early = await session(`${FUTURE} 10:00:00`);
      const free = await m.ok(memberBook.path, { tid: early.id, mcId: a.card.id });
      expect((await cancelOwn(mode, m, free.id)).code).toBe(0);
      expect(await usedOf(a.card.id)).toBe(0);

      const held = await m.ok(memberBook.path, { tid: first.id, mcId: a.card.id });
      expect((await cancelOwn(mode, m, held.id)).code).toBe(0);
      // The seat is free; one class (2) is kept: mode 0 keeps the deduction, mode 1 charges the pending's card now.
      expect((await ef().sessionRow(first.id)).realCount).toBe(0);
      expect(await usedOf(a.card.id)).toBe(2);
      const late = await db()
        .selectFrom('reservation')
        .selectAll()
        .where('timetableId', '=', first.id)
        .where('memberId', '=', a.member.id)
        .executeTakeFirstOrThrow();
      expect([late.status, late.forfeited, Number(late.usedCount), late.memberCardId]).toEqual([
        ReservationStatus.CANCELLED,
        1,
        2,
        a.card.id,
      ]);
      if (mode === 1) {
        const p = await db().selectFrom('pending').selectAll().where('id', '=', held.id).executeTakeFirstOrThrow();
        expect([p.status, p.reservationId, late.pendingId]).toEqual([PendingStatus.CANCELLED, late.id, held.id]);
      }
      const trail = await db()
        .selectFrom('history')
        .select(['operateType', 'memberCardId', 'usedCount'])
        .where('timetableId', '=', first.id)
        .orderBy('id')
        .execute();
      expect(trail.map((h) => [h.operateType, h.memberCardId, Number(h.usedCount)])).toEqual([
        [OperateType.USER_BOOKED, mode === 0 ? a.card.id : null, mode === 0 ? 2 : 0],
        [OperateType.LATE_CANCEL, a.card.id, 2],
      ]);
      // The member sees one late cancel that kept 2; the desk sees it among the member's late cancels.
      const upcoming = await m.ok(memberMyBookings.path, { state: 'upcoming', page: 1 });
      const ofSession = upcoming.list.filter((b: { session: { id: number } }) => b.session.id === first.id);
      expect(ofSession).toEqual([expect.objectContaining({ kind: 'cancelled', state: '迟到取消，已扣除', amount: 2 })]);
      const status = await desk().ok(memberPolicyStatus.path, { mid: a.member.id });
      expect(status.lateCancels).toEqual([
        expect.objectContaining({ reservationId: late.id, fee: 2, waivedTime: null }),
      ]);
      // Waived with a reason: refunded once, on the ledger.
      await desk().ok(waiveLateCancel.path, { reservationId: late.id, reason: '会员临时加班，店长同意' });
      expect(await usedOf(a.card.id)).toBe(0);
      const ledger = await db()
        .selectFrom('cardLedger')
        .select(['kind', 'amount'])
        .where('reservationId', '=', late.id)
        .orderBy('id')
        .execute();
      // Mode 0: the booking's deduction, the late cancel keeping it, the waiver; mode 1: the charge at the cancel.
      expect(ledger.map((l) => [l.kind, Number(l.amount)])).toEqual(
        mode === 0
          ? [
              ['deduct', 2],
              ['late_cancel', 2],
              ['waive', -2],
            ]
          : [
              ['deduct', 2],
              ['waive', -2],
            ],
      );
    });

    it(`[mode ${mode}] a card's bookings never need more than its balance can pay: count and money cards`, async () => {
      const expected = mode === 0 ? Msg.cardBalance : Msg.cardCommitted;
      // A one-class card and twelve one-seat classes.
      const { a, session } = await scene(mode, { balance: 1, seats: 1 });
      const sessions = [];
      for (let h = 0; h < 12; h++) sessions.push(await session(`${FUTURE} ${String(8 + h).padStart(2, '0')}:00:00`));
      const m = await memberClient(env(), a.member);
      const answers = [];
      for (const s of sessions) answers.push(await m.call(memberBook.path, { tid: s.id, mcId: a.card.id }));
      expect(answers[0].code).toBe(0);
      for (const r of answers.slice(1)) expect([r.status, r.msg]).toEqual([409, expected]);
      const held = await db()
        .selectFrom(mode === 0 ? 'reservation' : 'pending')
        .select('timetableId')
        .where('memberId', '=', a.member.id)
        .where('status', '=', 1)
        .execute();
      expect(held.map((h) => h.timetableId)).toEqual([sessions[0].id]);
      expect(await usedOf(a.card.id)).toBe(mode === 0 ? 1 : 0);
      // The member's card picker says why; the desk is held to the card's balance too.
      const cards = await m.ok(memberCardsForSession.path, { tid: sessions[1].id });
      expect(cards).toEqual([expect.objectContaining({ id: a.card.id, usable: false, reason: expected })]);
      expect(await deskBook(mode, a, sessions[1].id)).toMatchObject({ status: 409, msg: expected });
      // Cancelled, the class is free to book again.
      await cancelOwn(mode, m, answers[0].data.id);
      expect((await m.call(memberBook.path, { tid: sessions[1].id, mcId: a.card.id })).code).toBe(0);

      // A money card: 50.00 holds one class of 30.00, not two.
      const money = await scene(mode, { product: { bigType: BIG_TYPE_MONEY, perCount: 30_00 }, balance: 50_00 });
      const other = await money.session(`${FUTURE} 12:00:00`);
      const mm = await memberClient(env(), money.a.member);
      expect((await mm.call(memberBook.path, { tid: money.first.id, mcId: money.a.card.id })).code).toBe(0);
      expect(await mm.call(memberBook.path, { tid: other.id, mcId: money.a.card.id })).toMatchObject({
        status: 409,
        msg: expected,
      });
    });

    it(`[mode ${mode}] a period card holds at most maxOpenBookings open bookings of a member; staff go past it, recorded`, async () => {
      // A fresh store's policy says 10.
      expect((await desk().ok(queryBookingPolicy.path, {})).maxOpenBookings).toBe(10);
      await policy({ maxOpenBookings: 2 });
      // A period card: nothing charged per class (期限卡).
      const { a, first, session } = await scene(mode, { product: { perCount: 0, cardName: '月卡' }, balance: 1 });
      const second = await session(`${FUTURE} 12:00:00`);
      const third = await session(`${FUTURE} 14:00:00`);
      const fourth = await session(`${FUTURE} 16:00:00`);
      const m = await memberClient(env(), a.member);
      const b1 = await m.ok(memberBook.path, { tid: first.id, mcId: a.card.id });
      await m.ok(memberBook.path, { tid: second.id, mcId: a.card.id });
      expect(await m.call(memberBook.path, { tid: third.id, mcId: a.card.id })).toMatchObject({
        status: 409,
        msg: PolicyMsg.tooManyOpen(2),
      });
      const cards = await m.ok(memberCardsForSession.path, { tid: third.id });
      expect(cards).toEqual([expect.objectContaining({ usable: false, reason: PolicyMsg.tooManyOpen(2) })]);
      // The desk books the third anyway: history records the override.
      expect((await deskBook(mode, a, third.id)).code).toBe(0);
      const history = await desk().ok(queryTimetableHistory.path, { tid: third.id, page: 1 });
      expect(history.list.map((h: { override: string | null }) => h.override)).toEqual([
        `越过预约规则：${PolicyMsg.tooManyOpen(2)}`,
      ]);
      // Three open now: one cancelled leaves two, still the most; a class that has ended is not open.
      await cancelOwn(mode, m, b1.id);
      expect((await m.call(memberBook.path, { tid: fourth.id, mcId: a.card.id })).msg).toBe(PolicyMsg.tooManyOpen(2));
      await moveSession(second.id, addMinutes(now(), -120), addMinutes(now(), -60));
      expect((await m.call(memberBook.path, { tid: fourth.id, mcId: a.card.id })).code).toBe(0);
      // Without a limit (0) nothing stops it.
      await policy({ maxOpenBookings: 0 });
      const fifth = await session(`${FUTURE} 18:00:00`);
      expect((await m.call(memberBook.path, { tid: fifth.id, mcId: a.card.id })).code).toBe(0);
    });

    it(`[mode ${mode}] a member joins a queue only inside the booking window`, async () => {
      await policy({ waitlist: 1, openDaysBefore: 2 });
      // A full class five days ahead: booking opens two days before.
      const { e, s, a, session } = await scene(mode, { seats: 1, startTime: addMinutes(now(), 5 * 24 * 60) });
      const holder = await e.memberWithCard(s.product.id);
      const ahead = await session();
      expect((await deskBook(mode, holder, ahead.id)).code).toBe(0);
      const m = await memberClient(env(), a.member);
      expect(await m.call(memberJoinWaitlist.path, { tid: ahead.id, mcId: a.card.id })).toMatchObject({
        status: 409,
        msg: PolicyMsg.notOpenYet(2),
      });
      const day = ahead.startTime.slice(0, 10);
      const shown = (await m.ok(memberTimetable.path, { fromDate: day, toDate: day }))[0].sessions;
      expect(shown.find((x: { id: number }) => x.id === ahead.id)).toMatchObject({
        waitlistOpen: false,
        // the timetable names the moment booking opens (two days before the start)
        phase: 'notOpen',
        reason: PhaseMsg.opensAt(addMinutes(ahead.startTime, -2 * 24 * 60)),
      });
      // A full class in 30 minutes: booking closes 60 minutes before.
      await policy({ openDaysBefore: 0, closeMinutesBefore: 60 });
      const soon = await session(addMinutes(now(), 30));
      expect((await deskBook(mode, holder, soon.id)).code).toBe(0);
      expect(await m.call(memberJoinWaitlist.path, { tid: soon.id, mcId: a.card.id })).toMatchObject({
        status: 409,
        msg: PolicyMsg.closed(60),
      });
      expect(await db().selectFrom('waitlist').select('id').where('memberId', '=', a.member.id).execute()).toEqual([]);
      // Inside the window the queue takes them.
      const open = await session(addMinutes(now(), 180));
      expect((await deskBook(mode, holder, open.id)).code).toBe(0);
      expect(await m.ok(memberJoinWaitlist.path, { tid: open.id, mcId: a.card.id })).toMatchObject({ position: 1 });
    });

    it(`[mode ${mode}] a promotion never books a member where they could not have booked`, async () => {
      await policy({ waitlist: 1 });
      const { e, s, a, session } = await scene(mode, { seats: 1 });
      const holder = await e.memberWithCard(s.product.id);
      const queued = await e.memberWithCard(s.product.id);
      const m = await memberClient(env(), a.member);
      /** A full class at `startTime`: the member queues themself, then another member at the desk. */
      const fullClass = async (startTime: string) => {
        const t = await session(startTime);
        expect((await deskBook(mode, holder, t.id)).code).toBe(0);
        await m.ok(memberJoinWaitlist.path, { tid: t.id, mcId: a.card.id });
        await desk().ok(addWaitlist.path, { tid: t.id, mid: queued.member.id, mcId: queued.card.id, studentCount: 1 });
        return t;
      };
      const freeSeat = async (tid: number) => {
        if (mode === 0) {
          const r = await db()
            .selectFrom('reservation')
            .select('id')
            .where('timetableId', '=', tid)
            .where('memberId', '=', holder.member.id)
            .executeTakeFirstOrThrow();
          await desk().ok(cancelReservationCall.path, { id: r.id });
        } else {
          const p = await db()
            .selectFrom('pending')
            .select('id')
            .where('timetableId', '=', tid)
            .where('memberId', '=', holder.member.id)
            .executeTakeFirstOrThrow();
          await desk().ok(cancelPendingCall.path, { pendingId: p.id });
        }
      };
      const waitOf = (tid: number, memberId: number) =>
        db()
          .selectFrom('waitlist')
          .select(['status', 'skipReason'])
          .where('timetableId', '=', tid)
          .where('memberId', '=', memberId)
          .executeTakeFirstOrThrow();
      const holds = async (tid: number, memberId: number) =>
        (
          await db()
            .selectFrom(mode === 0 ? 'reservation' : 'pending')
            .select('id')
            .where('timetableId', '=', tid)
            .where('memberId', '=', memberId)
            .where('status', '=', 1)
            .execute()
        ).length;

      // Queued in 30 minutes' time; then the store closes members' booking 60 minutes before. A seat
      // frees: the member is passed over with the reason (staff queued the next one: promoted).
      const soon = await fullClass(addMinutes(now(), 30));
      await policy({ closeMinutesBefore: 60 });
      await freeSeat(soon.id);
      expect(await waitOf(soon.id, a.member.id)).toEqual({
        status: WaitStatus.WAITING,
        skipReason: PolicyMsg.closed(60),
      });
      expect([await holds(soon.id, a.member.id), await holds(soon.id, queued.member.id)]).toEqual([0, 1]);

      // Queued five days ahead; then booking opens only two days before. A seat frees: not promoted.
      await policy({ closeMinutesBefore: 0 });
      const ahead = await fullClass(addMinutes(now(), 5 * 24 * 60));
      await policy({ openDaysBefore: 2 });
      await freeSeat(ahead.id);
      expect(await waitOf(ahead.id, a.member.id)).toEqual({
        status: WaitStatus.WAITING,
        skipReason: PolicyMsg.notOpenYet(2),
      });
      expect([await holds(ahead.id, a.member.id), await holds(ahead.id, queued.member.id)]).toEqual([0, 1]);
      expect(await usedOf(a.card.id)).toBe(0);
    });
  }

  it('two bookings of different classes with one card at once: the card holds one (sign-in mode)', async () => {
    const { a, first, session } = await scene(1, { balance: 1 });
    const second = await session(`${FUTURE} 12:00:00`);
    const m = await memberClient(env(), a.member);
    const answers = await Promise.all(
      [first, second].map((s) => m.call(memberBook.path, { tid: s.id, mcId: a.card.id })),
    );
    expect(answers.map((r) => r.code).sort()).toEqual([0, 409]);
    expect(answers.find((r) => r.code !== 0)!.msg).toBe(Msg.cardCommitted);
    const pendings = await db()
      .selectFrom('pending')
      .select('id')
      .where('memberId', '=', a.member.id)
      .where('status', '=', PendingStatus.WAITING)
      .execute();
    expect(pendings).toHaveLength(1);
  });
});
