import {
  addGroupPending,
  addMemberReservation,
  BIG_TYPE_COUNT,
  BIG_TYPE_MONEY,
  cancelPendingCall,
  cancelReservationCall,
  cardAlertList,
  CARD_TYPE_EXPIRES,
  CARD_TYPE_NO_EXPIRY,
  PendingStatus,
  REPORT_MAX_DAYS,
  ReportMsg,
  inactiveMemberList,
  memberBook,
  memberCancelBooking,
  reportByCourse,
  reportByDay,
  reportBySlot,
  reportByTeacher,
  reportOverview,
  ReservationStatus,
  signInPendingCall,
  updateBookingPolicy,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, addMinutes, localDateTime, weekday } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { rng } from '../../../test/rng.ts';

const PAST = '2020-03-02'; // a Monday long ended: no-shows and late cancels happen there
const FUT = FUTURE; // 2099-06-01, a Monday

describeEachDb('reports (数据报表) and card alerts', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);

  /**
   * Two weeks of classes (one ended, one to come), two courses (count card, money card), two
   * teachers, members booking, cancelling, pending and signing in through the real calls. Sessions
   * of the ended week are booked while still in the future, then moved back (the engine refuses to
   * book ended classes), then cancelled (late) or left pending (no-shows).
   */
  let made: ReturnType<typeof makeScene> | undefined;
  /** The scene is made once per database and shared by the tests that read it. */
  const scene = () => (made ??= makeScene());
  async function makeScene() {
    const e = new EngineFactory(env().factory);
    const f = env().factory;
    const rand = rng(20261124);
    const t1 = await f.teacher({ name: '王老师' });
    const t2 = await f.teacher({ name: '李老师' });
    const countCard = await f.cardProduct({ cardName: '次卡', bigType: BIG_TYPE_COUNT, perCount: 1 });
    const moneyCard = await f.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000 });
    const yoga = await f.course({ name: '瑜伽', cardIds: [countCard.id] });
    const spin = await f.course({ name: '动感单车', cardIds: [moneyCard.id] });
    const members: { m: { id: number }; cc: { id: number }; mc: { id: number } }[] = [];
    for (let i = 0; i < 8; i++) {
      const m = await f.member({ name: `会员${i}` });
      const cc = await f.memberCard(m.id, countCard.id, { totalCount: 50 });
      const mc = await f.memberCard(m.id, moneyCard.id, { totalCount: 1_000_000 });
      members.push({ m, cc, mc });
    }
    const sessions: { id: number; course: typeof yoga; past: boolean; start: string }[] = [];
    for (const past of [true, false]) {
      for (let d = 0; d < 7; d++) {
        for (const hour of ['09:00', '18:30']) {
          if (rand() < 0.3) continue;
          const course = rand() < 0.5 ? yoga : spin;
          const futureStart = `${addDays(FUT, d)} ${hour}:00`;
          const s = await e.session({
            courseId: course.id,
            teacherId: rand() < 0.5 ? t1.id : t2.id,
            startTime: futureStart,
            reservableCount: 4 + Math.floor(rand() * 4),
          });
          sessions.push({ id: s.id, course, past, start: past ? `${addDays(PAST, d)} ${hour}:00` : futureStart });
        }
      }
    }
    // Mode 0 bookings: each member books some sessions with the card the course takes.
    const booked: { id: number; tid: number; past: boolean }[] = [];
    for (const s of sessions) {
      for (const { m, cc, mc } of members) {
        if (rand() < 0.6) continue;
        const card = s.course.id === yoga.id ? cc : mc;
        const row = await env().client.call(addMemberReservation.path, {
          mcId: card.id,
          tid: s.id,
          studentCount: rand() < 0.2 ? 2 : 1,
          remark: '',
        });
        if (row.code !== 0) continue; // full
        const r = await e.db
          .selectFrom('reservation')
          .select('id')
          .where('timetableId', '=', s.id)
          .where('memberId', '=', m.id)
          .where('status', '=', ReservationStatus.BOOKED)
          .executeTakeFirstOrThrow();
        booked.push({ id: r.id, tid: s.id, past: s.past });
      }
    }
    // Cancels of classes still to come are in time.
    for (const b of booked.filter((x) => !x.past))
      if (rand() < 0.25) await ok(cancelReservationCall.path, { id: b.id, confirmEnded: true });
    // Mode 1: pendings (one person each) on some sessions with seats left; some signed in, some cancelled.
    await e.setMode(1);
    const pendings: { id: number; past: boolean; mcId: number }[] = [];
    for (const s of sessions) {
      const { m, cc, mc } = members[Math.floor(rand() * members.length)];
      const res = await env().client.call(addGroupPending.path, { mid: m.id, tid: s.id, studentCount: 1, remark: '' });
      if (res.code !== 0) continue; // full, or already booked
      const p = await e.db
        .selectFrom('pending')
        .select('id')
        .where('timetableId', '=', s.id)
        .where('memberId', '=', m.id)
        .where('status', '=', PendingStatus.WAITING)
        .executeTakeFirstOrThrow();
      pendings.push({ id: p.id, past: s.past, mcId: s.course.id === yoga.id ? cc.id : mc.id });
    }
    for (const p of pendings) {
      const x = rand();
      if (x < 0.4) await ok(signInPendingCall.path, { pendingId: p.id, mcId: p.mcId, remark: '' });
      else if (x < 0.55) await ok(cancelPendingCall.path, { pendingId: p.id });
    }
    await e.setMode(0);
    // The ended week moves back in time; then some of its bookings are cancelled (late).
    for (const s of sessions.filter((x) => x.past)) {
      await e.db
        .updateTable('timetable')
        .set({ startTime: s.start, endTime: addMinutes(s.start, 60) })
        .where('id', '=', s.id)
        .execute();
    }
    for (const b of booked.filter((x) => x.past))
      if (rand() < 0.2) await ok(cancelReservationCall.path, { id: b.id, confirmEnded: true });
    // A deleted session and a session outside both weeks are never counted.
    const gone = await e.session({ courseId: yoga.id, teacherId: t1.id, startTime: `${addDays(FUT, 2)} 12:00:00` });
    await e.db.updateTable('timetable').set({ deleted: 1 }).where('id', '=', gone.id).execute();
    await e.session({ courseId: yoga.id, teacherId: t1.id, startTime: `${addDays(FUT, 9)} 12:00:00` });
    // Money received: two sales, a top-up and a refund (card sale records; written here as rows).
    const storeId = env().storeId;
    const pay = (kind: string, amount: number, createdAt: string, method = 'wechat', channel = 'desk') =>
      e.db
        .insertInto('cardPayment')
        .values({ storeId, memberCardId: members[0].cc.id, kind, amount, method, channel, createdAt })
        .execute();
    await pay('sale', 100_000, `${addDays(PAST, 1)} 10:00:00`);
    await pay('topup', 20_000, `${addDays(PAST, 6)} 23:59:59`);
    await pay('refund', 5_000, `${addDays(PAST, 3)} 10:00:00`, 'cash');
    await pay('sale', 77_700, `${addDays(PAST, 7)} 00:00:00`, 'alipay', 'online'); // the next week, online
    return { e, members };
  }

  /** The figures of a range, computed from raw rows without the server's queries. */
  async function independent(from: string, to: string) {
    const db = env().factory.db;
    const storeId = env().storeId;
    const now = localDateTime('Asia/Shanghai');
    const inRange = (t: string) => t.slice(0, 10) >= from && t.slice(0, 10) <= to;
    const sessions = (await db.selectFrom('timetable').selectAll().where('storeId', '=', storeId).execute()).filter(
      (t) => !t.deleted && inRange(t.startTime),
    );
    const ids = new Set(sessions.map((t) => t.id));
    const byId = new Map(sessions.map((t) => [t.id, t]));
    const reservations = (
      await db.selectFrom('reservation').selectAll().where('storeId', '=', storeId).execute()
    ).filter((r) => ids.has(r.timetableId));
    const pendings = (await db.selectFrom('pending').selectAll().where('storeId', '=', storeId).execute()).filter((p) =>
      ids.has(p.timetableId),
    );
    const products = new Map(
      (await db.selectFrom('cardProduct').selectAll().where('storeId', '=', storeId).execute()).map((p) => [p.id, p]),
    );
    const cards = await db.selectFrom('memberCard').selectAll().where('storeId', '=', storeId).execute();
    const cardProduct = new Map(cards.map((c) => [c.id, products.get(c.cardId)!]));
    const ledger = (await db.selectFrom('cardLedger').selectAll().where('storeId', '=', storeId).execute()).filter(
      (l) => l.timetableId !== null && ids.has(l.timetableId) && (l.kind === 'deduct' || l.kind === 'refund'),
    );
    const payments = (await db.selectFrom('cardPayment').selectAll().where('storeId', '=', storeId).execute()).filter(
      (p) => inRange(p.createdAt),
    );
    const members = await db.selectFrom('member').selectAll().where('storeId', '=', storeId).execute();
    const sum = (xs: number[]) => xs.reduce((a, b) => a + Number(b), 0);
    const signed = reservations.filter((r) => r.status === ReservationStatus.SIGNED_IN);
    const seats = sum(sessions.map((t) => t.reservableCount));
    const booked = sum(sessions.map((t) => t.realCount));
    const active = new Set([
      ...reservations.filter((r) => r.status !== ReservationStatus.CANCELLED).map((r) => r.memberId),
      ...pendings.filter((p) => p.status !== PendingStatus.CANCELLED).map((p) => p.memberId),
    ]);
    const overview = {
      sessions: sessions.length,
      seats,
      booked,
      fillRate: seats ? Math.round((booked / seats) * 10_000) / 10_000 : 0,
      signedIn: sum(signed.map((r) => r.studentCount)),
      noShows: sum(
        pendings
          .filter(
            (p) =>
              (p.status === PendingStatus.WAITING || p.status === PendingStatus.NO_SHOW) &&
              byId.get(p.timetableId)!.endTime <= now,
          )
          .map((p) => p.studentCount),
      ),
      lateCancels: reservations.filter(
        (r) =>
          r.status === ReservationStatus.CANCELLED &&
          (r.forfeited === 1 || r.cancelTime! >= byId.get(r.timetableId)!.startTime),
      ).length,
      countUsed: sum(
        ledger.filter((l) => cardProduct.get(l.memberCardId)!.bigType === BIG_TYPE_COUNT).map((l) => l.amount),
      ),
      moneyUsed: sum(
        ledger.filter((l) => cardProduct.get(l.memberCardId)!.bigType !== BIG_TYPE_COUNT).map((l) => l.amount),
      ),
      cardsSold: cards.filter((c) => inRange(c.createdAt)).length,
      moneyReceived: sum(payments.map((p) => (p.kind === 'refund' ? -p.amount : Number(p.amount)))),
      moneySplit: [...new Set(payments.map((p) => `${p.channel}|${p.method}`))].sort().map((key) => {
        const [channel, method] = key.split('|');
        const mine = payments.filter((p) => `${p.channel}|${p.method}` === key);
        return {
          channel,
          method,
          amount: sum(mine.map((p) => (p.kind === 'refund' ? -p.amount : Number(p.amount)))),
        };
      }),
      newMembers: members.filter((m) => inRange(m.createdAt)).length,
      activeMembers: active.size,
    };
    return { overview, sessions, signed };
  }

  it('agrees with a computation over the raw rows, for the ended week, the coming week and both', async () => {
    await scene();
    for (const [from, to] of [
      [PAST, addDays(PAST, 6)],
      [FUT, addDays(FUT, 6)],
      [FUT, addDays(FUT, 13)],
      [addDays(PAST, 2), addDays(PAST, 2)],
    ]) {
      const want = await independent(from, to);
      const got = await ok(reportOverview.path, { fromDate: from, toDate: to });
      expect(got, `${from}..${to}`).toEqual(want.overview);

      const courses = await ok<{ courseId: number; sessions: number; seats: number; booked: number }[]>(
        reportByCourse.path,
        { fromDate: from, toDate: to },
      );
      const courseIds = [...new Set(want.sessions.map((t) => t.courseId))];
      expect(courses.map((c) => c.courseId).sort()).toEqual(courseIds.sort());
      for (const c of courses) {
        const mine = want.sessions.filter((t) => t.courseId === c.courseId);
        expect([c.sessions, c.seats, c.booked]).toEqual([
          mine.length,
          mine.reduce((a, t) => a + t.reservableCount, 0),
          mine.reduce((a, t) => a + t.realCount, 0),
        ]);
      }

      const teachers = await ok<{ teacherId: number; sessions: number; booked: number; signedIn: number }[]>(
        reportByTeacher.path,
        { fromDate: from, toDate: to },
      );
      for (const t of teachers) {
        const mine = want.sessions.filter((s) => s.teacherId === t.teacherId);
        const mineIds = new Set(mine.map((s) => s.id));
        expect([t.sessions, t.booked, t.signedIn]).toEqual([
          mine.length,
          mine.reduce((a, s) => a + s.realCount, 0),
          want.signed.filter((r) => mineIds.has(r.timetableId)).reduce((a, r) => a + r.studentCount, 0),
        ]);
      }
      expect(teachers.reduce((a, t) => a + t.sessions, 0)).toBe(want.overview.sessions);

      const slots = await ok<{ weekday: number; hour: number; sessions: number; booked: number; seats: number }[]>(
        reportBySlot.path,
        { fromDate: from, toDate: to },
      );
      for (const c of slots) {
        const mine = want.sessions.filter(
          (s) => weekday(s.startTime.slice(0, 10)) === c.weekday && Number(s.startTime.slice(11, 13)) === c.hour,
        );
        expect([c.sessions, c.seats, c.booked]).toEqual([
          mine.length,
          mine.reduce((a, s) => a + s.reservableCount, 0),
          mine.reduce((a, s) => a + s.realCount, 0),
        ]);
      }
      expect(slots.reduce((a, c) => a + c.sessions, 0)).toBe(want.overview.sessions);

      const days = await ok<{ date: string; sessions: number; booked: number; signedIn: number }[]>(reportByDay.path, {
        fromDate: from,
        toDate: to,
      });
      expect(days[0].date).toBe(from);
      expect(days.at(-1)!.date).toBe(to);
      expect(days.reduce((a, d) => a + d.booked, 0)).toBe(want.overview.booked);
      expect(days.reduce((a, d) => a + d.signedIn, 0)).toBe(want.overview.signedIn);
    }
  });

  it('counts a member late cancel before the class (after the free-cancel time) as 迟到取消', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const start = addMinutes(localDateTime('Asia/Shanghai'), 90);
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: start });
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    const day = start.slice(0, 10);
    const before = (await ok(reportOverview.path, { fromDate: day, toDate: day })).lateCancels;
    await ok(updateBookingPolicy.path, { cancelMinutesBefore: 120, lateCancel: 'forfeit' });
    try {
      const m = await memberClient(env(), a.member);
      const booked = await m.ok(memberBook.path, { tid: session.id, mcId: a.card.id });
      await m.ok(memberCancelBooking.path, { id: booked.id });
    } finally {
      await ok(updateBookingPolicy.path, { cancelMinutesBefore: 0, lateCancel: 'refuse' });
    }
    expect((await ok(reportOverview.path, { fromDate: day, toDate: day })).lateCancels).toBe(before + 1);
  });

  it('counts what the scene made: no-shows and late cancels only in the ended week', async () => {
    await scene();
    const past = await ok(reportOverview.path, { fromDate: PAST, toDate: addDays(PAST, 6) });
    const future = await ok(reportOverview.path, { fromDate: FUT, toDate: addDays(FUT, 6) });
    expect(past.sessions).toBeGreaterThan(0);
    expect(past.noShows).toBeGreaterThan(0);
    expect(past.lateCancels).toBeGreaterThan(0);
    expect(future.noShows).toBe(0);
    expect(future.lateCancels).toBe(0);
    expect(past.countUsed + past.moneyUsed).toBeGreaterThan(0);
    // 100,000 + 20,000 - 5,000 fen in the ended week; the sale of the next Monday is not in it.
    expect(past.moneyReceived).toBe(115_000);
    expect(past.moneySplit).toEqual([
      { channel: 'desk', method: 'cash', amount: -5_000 },
      { channel: 'desk', method: 'wechat', amount: 120_000 },
    ]);
    expect(future.signedIn).toBeGreaterThan(0);
  });

  it('an empty range answers zeros, and the trend has every day', async () => {
    const o = await ok(reportOverview.path, { fromDate: '2031-01-01', toDate: '2031-01-31' });
    expect(o).toMatchObject({ sessions: 0, seats: 0, booked: 0, fillRate: 0, signedIn: 0, moneyReceived: 0 });
    const days = await ok<unknown[]>(reportByDay.path, { fromDate: '2031-01-01', toDate: '2031-01-31' });
    expect(days).toHaveLength(31);
    expect(await ok(reportByCourse.path, { fromDate: '2031-01-01', toDate: '2031-01-31' })).toEqual([]);
  });

  it('refuses bad ranges with Chinese messages', async () => {
    const call = (body: unknown) => env().client.call(reportOverview.path, body);
    const tooLong = await call({ fromDate: '2026-01-01', toDate: addDays('2026-01-01', REPORT_MAX_DAYS) });
    expect([tooLong.status, tooLong.msg]).toEqual([400, ReportMsg.rangeMax]);
    const full = await call({ fromDate: '2026-01-01', toDate: addDays('2026-01-01', REPORT_MAX_DAYS - 1) });
    expect(full.status).toBe(200);
    const reversed = await call({ fromDate: '2026-02-01', toDate: '2026-01-01' });
    expect([reversed.status, reversed.msg]).toEqual([400, '开始日期不能晚于结束日期']);
    const missing = await call({ fromDate: '2026-02-01' });
    expect([missing.status, missing.msg]).toEqual([400, '请选择日期']);
    const bad = await call({ fromDate: '2026-02-30', toDate: 5 });
    expect(bad.status).toBe(400);
  });

  it("never counts another store's sessions", async () => {
    await scene();
    const other = await env().other.client.ok(reportOverview.path, { fromDate: PAST, toDate: addDays(PAST, 6) });
    expect(other).toMatchObject({ sessions: 0, booked: 0, moneyReceived: 0, activeMembers: 0 });
    expect(await env().other.client.ok(cardAlertList.path, {})).toEqual([]);
  });

  it('card alerts: expiring, few classes left, little money left; not frozen, expired or healthy cards', async () => {
    const f = env().factory;
    const count = await f.cardProduct({ cardName: '十次卡', bigType: BIG_TYPE_COUNT, cardType: CARD_TYPE_EXPIRES });
    const money = await f.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, cardType: CARD_TYPE_EXPIRES });
    const forever = await f.cardProduct({ cardName: '永久卡', bigType: BIG_TYPE_COUNT, cardType: CARD_TYPE_NO_EXPIRY });
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const m = await f.member({ name: '提醒会员' });
    const soon = await f.memberCard(m.id, count.id, { totalCount: 20, expireTime: `${addDays(today, 5)} 23:59:59` });
    const later = await f.memberCard(m.id, count.id, { totalCount: 20, expireTime: `${addDays(today, 60)} 23:59:59` });
    const few = await f.memberCard(m.id, count.id, { totalCount: 10, usedCount: 8, expireTime: null });
    const both = await f.memberCard(m.id, count.id, {
      totalCount: 10,
      usedCount: 9,
      expireTime: `${addDays(today, 1)} 23:59:59`,
    });
    const poor = await f.memberCard(m.id, money.id, { totalCount: 50_000, usedCount: 45_000 });
    const rich = await f.memberCard(m.id, money.id, { totalCount: 50_000, usedCount: 0 });
    await f.memberCard(m.id, count.id, { totalCount: 10, usedCount: 9, frozen: 1 });
    await f.memberCard(m.id, count.id, { totalCount: 10, usedCount: 9, expireTime: `${addDays(today, -1)} 23:59:59` });
    const old = await f.memberCard(m.id, forever.id, { totalCount: 30, expireTime: `${addDays(today, 2)} 23:59:59` });

    const list = await ok<{ card: { id: number }; reasons: string[]; balance: number; member: { name: string } }[]>(
      cardAlertList.path,
      { days: 30, minCount: 2, minMoney: 10_000 },
    );
    const byCard = new Map(list.map((x) => [x.card.id, x]));
    expect([...byCard.keys()].sort((a, b) => a - b)).toEqual([soon.id, few.id, both.id, poor.id].sort((a, b) => a - b));
    expect(byCard.get(soon.id)!.reasons).toEqual(['expiring']);
    expect(byCard.get(few.id)!.reasons).toEqual(['lowCount']);
    expect(byCard.get(both.id)!.reasons).toEqual(['expiring', 'lowCount']);
    expect(byCard.get(poor.id)!).toMatchObject({ reasons: ['lowMoney'], balance: 5_000, member: { name: '提醒会员' } });
    expect(byCard.has(later.id) || byCard.has(rich.id) || byCard.has(old.id)).toBe(false);
    // The list is ordered by expiry, soonest first.
    expect(list[0].card.id).toBe(both.id);

    const wider = await ok<{ card: { id: number } }[]>(cardAlertList.path, { days: 90, minCount: 0, minMoney: 0 });
    expect(wider.map((x) => x.card.id).sort((a, b) => a - b)).toEqual(
      [soon.id, later.id, both.id].sort((a, b) => a - b),
    );
    const badDays = await env().client.call(cardAlertList.path, { days: -1 });
    expect([badDays.status, badDays.msg]).toEqual([400, ReportMsg.days]);
  });

  it('久未到店: members not seen for N days or never, not the new ones, not those who came lately', async () => {
    const e = new EngineFactory(env().factory);
    const f = env().factory;
    const s = await e.scene();
    const now = localDateTime('Asia/Shanghai');
    const daysAgo = (n: number) => `${addDays(now.slice(0, 10), -n)} 10:00:00`;
    const member = (name: string, createdAt = '2020-01-01 00:00:00') => f.member({ name, createdAt });
    const cardOf = (memberId: number) => f.memberCard(memberId, s.product.id, { totalCount: 20 });
    /** Books a class in the future, then moves it to `start` (the engine refuses ended classes). */
    const visit = async (mcId: number, start: string, cancel = false) => {
      const t = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 10:00:00` });
      await ok(addMemberReservation.path, { mcId, tid: t.id, studentCount: 1, remark: '' });
      if (cancel) {
        const r = await e.db
          .selectFrom('reservation')
          .select('id')
          .where('timetableId', '=', t.id)
          .executeTakeFirstOrThrow();
        await ok(cancelReservationCall.path, { id: r.id, confirmEnded: true });
      }
      if (start !== `${FUTURE} 10:00:00`) {
        await e.db
          .updateTable('timetable')
          .set({ startTime: start, endTime: addMinutes(start, 60) })
          .where('id', '=', t.id)
          .execute();
      }
    };
    const recent = await member('近期来过');
    await visit((await cardOf(recent.id)).id, daysAgo(10));
    const away = await member('四十天没来');
    await visit((await cardOf(away.id)).id, daysAgo(40));
    const never = await member('从没来过');
    const fresh = await member('新会员', `${addDays(now.slice(0, 10), -1)} 09:00:00`);
    const cancelled = await member('取消过');
    const cc = await cardOf(cancelled.id);
    await visit(cc.id, daysAgo(50));
    await visit(cc.id, daysAgo(5), true);
    const futureOnly = await member('只约了以后');
    await visit((await cardOf(futureOnly.id)).id, `${FUTURE} 10:00:00`);

    const list = await ok<{ member: { id: number }; lastVisit: string | null; liveCards: number }[]>(
      inactiveMemberList.path,
      { days: 30 },
    );
    const byId = new Map(list.map((x) => [x.member.id, x]));
    expect(byId.has(recent.id) || byId.has(fresh.id)).toBe(false);
    expect(byId.get(away.id)).toMatchObject({ lastVisit: daysAgo(40), liveCards: 1 });
    expect(byId.get(never.id)).toMatchObject({ lastVisit: null, liveCards: 0 });
    expect(byId.get(cancelled.id)!.lastVisit).toBe(daysAgo(50));
    expect(byId.get(futureOnly.id)!.lastVisit).toBeNull();
    // Never-seen members first, then the longest absent.
    const order = list.map((x) => x.member.id).filter((id) => [away.id, cancelled.id, never.id].includes(id));
    expect(order).toEqual([never.id, cancelled.id, away.id]);
    expect(
      byId.has(away.id) &&
        !(await ok<unknown[]>(inactiveMemberList.path, { days: 60 })).some(
          (x) => (x as { member: { id: number } }).member.id === away.id,
        ),
    ).toBe(true);
    const bad = await env().client.call(inactiveMemberList.path, { days: 0 });
    expect([bad.status, bad.msg]).toEqual([400, ReportMsg.inactiveDays]);
  });
});
