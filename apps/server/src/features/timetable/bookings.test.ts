import {
  addMemberReservation,
  BIG_TYPE_MONEY,
  CARD_TYPE_EXPIRES,
  cancelReservationCall,
  Msg,
  OperateType,
  PendingStatus,
  queryReservationList,
  queryTimetableHistory,
  TimetableMsg,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('booking with a card', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const book = (body: Record<string, unknown>) => env().client.call(addMemberReservation.path, body);
  afterEach(async () => {
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  async function bookable(o: Parameters<EngineFactory['scene']>[0] = {}, capacity = 10) {
    const e = ef();
    const scene = await e.scene(o);
    const session = await e.session({
      courseId: scene.course.id,
      teacherId: scene.teacher.id,
      reservableCount: capacity,
    });
    return { e, ...scene, session };
  }

  it('books: deducts perCount x studentCount, takes the seats, writes history and ledger', async () => {
    const { e, product, session } = await bookable({ product: { perCount: 2 } });
    const { member, card } = await e.memberWithCard(product.id, { card: { totalCount: 10 } });
    const a = await book({ mcId: card.id, tid: session.id, studentCount: 2, remark: '带孩子' });
    expect(a.code).toBe(0);
    expect((await e.cardRow(card.id)).usedCount).toBe(4);
    expect((await e.sessionRow(session.id)).realCount).toBe(2);
    const list = await env().client.ok(queryReservationList.path, { tid: session.id, page: 1 });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      memberId: member.id,
      memberName: member.name,
      memberMobile: member.mobile,
      cardName: product.cardName,
      studentCount: 2,
      usedCount: 4,
      remark: '带孩子',
      operateType: 2,
      status: 1,
    });
    expect(list.list[0].operator).toMatch(/^管理员/);
    const history = await env().client.ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(history.list[0]).toMatchObject({
      operateType: 2,
      usedCount: 4,
      studentCount: 2,
      cardName: product.cardName,
    });
    const ledger = await env()
      .database.db.selectFrom('cardLedger')
      .selectAll()
      .where('memberCardId', '=', card.id)
      .execute();
    expect(ledger.map((l) => [l.kind, Number(l.amount)])).toEqual([['deduct', 4]]);
  });

  it('charges money cards in fen with the same arithmetic', async () => {
    const { e, product, session } = await bookable({ product: { bigType: BIG_TYPE_MONEY, perCount: 3550 } });
    const { card } = await e.memberWithCard(product.id, { card: { totalCount: 10_000 } });
    expect((await book({ mcId: card.id, tid: session.id, studentCount: 2 })).code).toBe(0);
    expect((await e.cardRow(card.id)).usedCount).toBe(7100);
    const short = await e.memberWithCard(product.id, { card: { totalCount: 3549 } });
    const a = await book({ mcId: short.card.id, tid: session.id });
    expect([a.status, a.msg]).toEqual([409, Msg.cardBalance]);
  });

  it('refuses each card rule with its message and changes nothing', async () => {
    const { e, product, session } = await bookable();
    const other = await env().factory.cardProduct();
    const owner = await e.memberWithCard(product.id);
    const stranger = await env().factory.member();
    const cases: [Record<string, unknown>, string][] = [
      [{ mcId: owner.card.id, mid: stranger.id }, Msg.cardNotOwned],
      [{ mcId: (await e.memberWithCard(other.id)).card.id }, Msg.cardNotAllowed],
      [{ mcId: (await e.memberWithCard(product.id, { card: { frozen: 1 } })).card.id }, Msg.cardFrozen],
      [{ mcId: (await e.memberWithCard(product.id, { card: { totalCount: 0 } })).card.id }, Msg.cardBalance],
    ];
    for (const [body, msg] of cases) {
      const a = await book({ tid: session.id, ...body });
      expect([a.status, a.msg]).toEqual([409, msg]);
    }
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
  });

  it('refuses a card expired at the session start, accepts one expiring after it', async () => {
    const { e, session } = await bookable();
    const expiring = await env().factory.cardProduct({ cardType: CARD_TYPE_EXPIRES });
    await env()
      .database.db.insertInto('timetableCard')
      .values({ storeId: env().storeId, timetableId: session.id, cardId: expiring.id })
      .execute();
    const before = await e.memberWithCard(expiring.id, { card: { expireTime: `${FUTURE} 09:59:59` } });
    const a = await book({ mcId: before.card.id, tid: session.id });
    expect([a.status, a.msg]).toEqual([409, Msg.cardExpired]);
    const after = await e.memberWithCard(expiring.id, { card: { expireTime: `${FUTURE} 23:59:59` } });
    expect((await book({ mcId: after.card.id, tid: session.id })).code).toBe(0);
  });

  it('refuses when the class is full (409 课程人数已满)', async () => {
    const { e, product, session } = await bookable({}, 2);
    const a = await e.memberWithCard(product.id);
    const b = await e.memberWithCard(product.id);
    expect((await book({ mcId: a.card.id, tid: session.id })).code).toBe(0);
    const full = await book({ mcId: b.card.id, tid: session.id, studentCount: 2 });
    expect([full.status, full.msg]).toEqual([409, Msg.sessionFull]);
    expect((await e.cardRow(b.card.id)).usedCount).toBe(0);
    expect((await book({ mcId: b.card.id, tid: session.id })).code).toBe(0);
  });

  it('refuses a booking of a member already waiting to sign in to the session (one booking per member and session)', async () => {
    const { e, product, session } = await bookable();
    const m = await e.memberWithCard(product.id);
    // A pending kept from 签到后扣费 holds the member's seat (and counts in the session's seats).
    const db = env().database.db;
    await db
      .insertInto('pending')
      .values({
        storeId: env().storeId,
        timetableId: session.id,
        memberId: m.member.id,
        studentCount: 1,
        remark: null,
        status: PendingStatus.WAITING,
        operatorId: null,
        reservationId: null,
        memberCardId: null,
        createTime: '2026-01-01 00:00:00',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((p) =>
        db
          .insertInto('history')
          .values({
            storeId: env().storeId,
            timetableId: session.id,
            memberId: m.member.id,
            memberCardId: null,
            reservationId: null,
            pendingId: p.id,
            studentCount: 1,
            usedCount: 0,
            operateType: OperateType.ADMIN_BOOKED,
            operatorId: null,
            remark: null,
            createTime: '2026-01-01 00:00:00',
          })
          .execute(),
      );
    await db.updateTable('timetable').set({ realCount: 1 }).where('id', '=', session.id).execute();
    const a = await book({ mcId: m.card.id, tid: session.id });
    expect([a.status, a.msg]).toEqual([409, Msg.alreadyBooked]);
    expect((await e.cardRow(m.card.id)).usedCount).toBe(0);
    expect((await e.sessionRow(session.id)).realCount).toBe(1);
  });

  it('refuses a second booking of the same member (该会员已预约此课程)', async () => {
    const { e, product, session } = await bookable();
    const m = await e.memberWithCard(product.id);
    const second = await env().factory.memberCard(m.member.id, product.id);
    expect((await book({ mcId: m.card.id, tid: session.id })).code).toBe(0);
    const a = await book({ mcId: second.id, tid: session.id });
    expect([a.status, a.msg]).toEqual([409, Msg.alreadyBooked]);
  });

  it('refuses a session that has ended (课程已结束)', async () => {
    const e = ef();
    const { product, course, teacher } = await e.scene();
    const past = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2020-01-01 10:00:00' });
    // A card started before the class (one started after it is refused as not started yet).
    const { card } = await e.memberWithCard(product.id, { card: { activateTime: '2019-12-01 00:00:00' } });
    const a = await book({ mcId: card.id, tid: past.id });
    expect([a.status, a.msg]).toEqual([409, Msg.sessionStarted]);
  });

  it('applies the gender limit (2 all, 1 male, otherwise female)', async () => {
    for (const [limit, gender, ok] of [
      [1, 2, false],
      [1, 1, true],
      [0, 1, false],
      [0, 2, true],
      [2, 0, true],
    ] as const) {
      const { e, product, session } = await bookable({ course: { genderLimit: limit } });
      const { card } = await e.memberWithCard(product.id, { member: { gender } });
      const a = await book({ mcId: card.id, tid: session.id });
      expect(a.msg).toBe(ok ? '' : Msg.genderLimited);
    }
  });

  it('applies the age range limit in years and months at the session date', async () => {
    // 3 years 6 months to 6 years 0 months, session on 2099-06-01.
    const limit = { ageLimit: 1, syear: 3, smonth: 6, eyear: 6, emonth: 0 };
    for (const [birthday, ok] of [
      ['2095-12-01', true],
      ['2095-12-02', false],
      ['2093-06-01', true],
      ['2093-05-31', true],
      ['2093-04-30', false],
      [null, false],
    ] as const) {
      const { e, product, session } = await bookable({ course: limit });
      const { card } = await e.memberWithCard(product.id, { member: { birthday } });
      const a = await book({ mcId: card.id, tid: session.id });
      expect(a.msg).toBe(ok ? '' : Msg.ageLimited);
    }
  });

  it('applies the birth-date range limit', async () => {
    const limit = { ageLimit: 2, syear: 2090, smonth: 3, sday: 15, eyear: 2092, emonth: 1, eday: 10 };
    for (const [birthday, ok] of [
      ['2090-03-15', true],
      ['2090-03-14', false],
      ['2092-01-10', true],
      ['2092-01-11', false],
    ] as const) {
      const { e, product, session } = await bookable({ course: limit });
      const { card } = await e.memberWithCard(product.id, { member: { birthday } });
      const a = await book({ mcId: card.id, tid: session.id });
      expect(a.msg).toBe(ok ? '' : Msg.ageLimited);
    }
  });

  it('is refused in sign-in mode, telling staff to add a pending booking', async () => {
    const { e, product, session } = await bookable();
    const { card } = await e.memberWithCard(product.id);
    await e.setMode(1);
    try {
      const a = await book({ mcId: card.id, tid: session.id });
      expect([a.status, a.msg]).toEqual([409, TimetableMsg.useSignInBooking]);
      // The mode is checked before the session and the card (read in the same round trip).
      const unknown = await book({ mcId: 99_999_999, tid: 99_999_999 });
      expect([unknown.status, unknown.msg]).toEqual([409, TimetableMsg.useSignInBooking]);
    } finally {
      await e.setMode(0);
    }
  });

  it('validates the payload and keeps other stores out', async () => {
    const { e, product, session } = await bookable();
    const { card } = await e.memberWithCard(product.id);
    expect((await book({ mcId: 0, tid: session.id })).msg).toBe(Msg.fillAll);
    expect((await book({ tid: session.id })).msg).toBe(Msg.fillAll);
    expect((await book({ mcId: card.id, tid: session.id, mid: 0 })).msg).toBe(Msg.chooseMember);
    expect((await book({ mcId: card.id, tid: session.id, studentCount: 0 })).status).toBe(400);
    const foreign = await env().other.factory.member();
    const foreignCard = await env().other.factory.memberCard(foreign.id, (await env().other.factory.cardProduct()).id);
    const a = await book({ mcId: foreignCard.id, tid: session.id });
    expect([a.status, a.msg]).toEqual([404, '会员卡不存在']);
    const b = await env().other.client.call(addMemberReservation.path, { mcId: foreignCard.id, tid: session.id });
    expect([b.status, b.msg]).toEqual([404, '课程不存在']);
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
  });

  it('cancels: refunds once, frees the seats, history type 4; the second cancel is 409', async () => {
    const { e, product, session } = await bookable({ product: { perCount: 3 } });
    const { card } = await e.memberWithCard(product.id);
    await book({ mcId: card.id, tid: session.id, studentCount: 2 });
    const [r] = (await env().client.ok(queryReservationList.path, { tid: session.id, page: 1 })).list;
    expect((await env().client.call(cancelReservationCall.path, { id: r.reservationId })).code).toBe(0);
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    expect((await e.sessionRow(session.id)).realCount).toBe(0);
    const again = await env().client.call(cancelReservationCall.path, { id: r.reservationId });
    expect([again.status, again.msg]).toEqual([409, Msg.alreadyCancelled]);
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    const history = await env().client.ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
    expect(history.list.map((h: { operateType: number }) => h.operateType)).toEqual([4, 2]);
    const list = await env().client.ok(queryReservationList.path, { tid: session.id, page: 1 });
    expect(list.total).toBe(0);
    const unknown = await env().client.call(cancelReservationCall.path, { id: 999_999 });
    expect([unknown.status, unknown.msg]).toEqual([404, '预约不存在']);
  });

  it('does not let another store cancel a booking', async () => {
    const { e, product, session } = await bookable();
    const { card } = await e.memberWithCard(product.id);
    await book({ mcId: card.id, tid: session.id });
    const [r] = (await env().client.ok(queryReservationList.path, { tid: session.id, page: 1 })).list;
    const a = await env().other.client.call(cancelReservationCall.path, { id: r.reservationId });
    expect([a.status, a.msg]).toEqual([404, '预约不存在']);
    expect((await e.cardRow(card.id)).usedCount).toBe(1);
  });
});
