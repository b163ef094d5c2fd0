import {
  BIG_TYPE_MONEY,
  bookLesson,
  cancelLesson,
  CARD_TYPE_NO_EXPIRY,
  insertCardProduct,
  insertMemberCard,
  insertTeacherHoursException,
  markAttendanceCall,
  refundMemberCard,
  reportLessonOutstanding,
  reportLessonPacks,
  reportLessons,
  reportLessonUtilisation,
  ReservationStatus,
  saveLessonBookingSetting,
  updateTeacherWeeklyHours,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, addMinutes, localDateTime, weekday } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { rng } from '../../../test/rng.ts';

type Span = [string, string];
/** The teachers' hours as the test declares them (the independent count works from these, not from the database). */
interface Hours {
  weekly: Record<number, Span[]>; // ISO weekday 1-7
  off: Record<string, Span | 'day'>;
  extra: Record<string, Span>;
}

const clock = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

describeEachDb('lesson reports (私教报表: lessons, utilisation, packs, 预收款)', (env) => {
  it('every figure equals an independent count over a seeded month of lessons, sales and refunds', async () => {
    const f = env().factory;
    const c = env().client;
    const e = new EngineFactory(f);
    const rand = rng(20261207);
    const now = localDateTime('Asia/Shanghai');
    const today = now.slice(0, 10);
    const from = addDays(today, -14);
    const to = addDays(today, 13);

    // Teachers and their hours (A: weekdays in two stretches; B: every day), with time off and extra hours.
    const tA = await f.teacher({ name: '王老师' });
    const tB = await f.teacher({ name: '李老师' });
    const hours = new Map<number, Hours>([
      [
        tA.id,
        {
          weekly: Object.fromEntries(
            [1, 2, 3, 4, 5].map((d) => [
              d,
              [
                ['09:00', '12:00'],
                ['14:00', '20:00'],
              ] as Span[],
            ]),
          ),
          off: { [addDays(today, 3)]: 'day', [addDays(today, -5)]: ['14:00', '16:00'] },
          extra: { [addDays(today, 5)]: ['07:00', '09:00'] },
        },
      ],
      [
        tB.id,
        {
          weekly: Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [d, [['08:00', '18:00']] as Span[]])),
          off: { [addDays(today, 6)]: ['12:00', '14:00'] },
          extra: {},
        },
      ],
    ]);
    for (const [teacherId, h] of hours) {
      const weekly = Object.entries(h.weekly).flatMap(([d, spans]) =>
        spans.map(([startTime, endTime]) => ({ weekday: Number(d), startTime, endTime })),
      );
      await c.ok(updateTeacherWeeklyHours.path, { teacherId, weekly });
      for (const [date, span] of Object.entries(h.off)) {
        const [startTime, endTime] = span === 'day' ? [null, null] : span;
        await c.ok(insertTeacherHoursException.path, { teacherId, date, kind: 'off', startTime, endTime });
      }
      for (const [date, [startTime, endTime]] of Object.entries(h.extra)) {
        await c.ok(insertTeacherHoursException.path, { teacherId, date, kind: 'extra', startTime, endTime });
      }
    }
    await c.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });

    // Products: two lesson packs, a 储值卡 that pays lessons, and a group-class card (not a pack).
    const product = (cardName: string, bigType = 1, perCount = 1) =>
      c.ok<{ id: number }>(insertCardProduct.path, {
        cardName,
        bigType,
        cardType: CARD_TYPE_NO_EXPIRY,
        perCount,
        price: 100_000,
        courseIds: [],
      });
    const pack = await product('私教十节');
    const smallPack = await product('小班七节');
    const money = await product('储值卡', BIG_TYPE_MONEY, 5000);
    const groupCard = await product('团课次卡');
    const group = await f.course({ name: '流瑜伽', cardIds: [groupCard.id] });
    const one = await lessonType(f, {
      cardIds: [pack.id, money.id],
      teachers: [
        { id: tA.id, level: 'senior' },
        { id: tB.id, level: 'junior' },
      ],
      prices: [
        { level: 'senior', price: 400_00 },
        { level: 'junior', price: 250_00 },
      ],
      course: { name: '私教1对1' },
    });
    const small = await lessonType(f, {
      kind: 'small_group',
      maxMembers: 4,
      cardIds: [smallPack.id, money.id],
      teachers: [{ id: tB.id }],
      prices: [{ level: '', price: 120_00 }],
      cancelCutoffMinutes: 30 * 24 * 60, // any cancel is late: the lesson is consumed
      course: { name: '普拉提小班' },
    });

    // Cards sold at the desk with what was paid (the test keeps its own record of the price).
    const paid = new Map<number, { paid: number; total: number; productId: number }>();
    const sell = async (productId: number, totalCount: number, amount: number) => {
      const m = await f.member();
      const { id } = await c.ok<{ id: number }>(insertMemberCard.path, {
        mid: m.id,
        cardId: productId,
        totalCount,
        payment: { amount, method: 'wechat', remark: null },
      });
      paid.set(id, { paid: amount, total: totalCount, productId });
      return { mid: m.id, mcId: id };
    };
    const packCards = [
      await sell(pack.id, 10, 3000_00),
      await sell(pack.id, 10, 2999_99),
      await sell(pack.id, 12, 3500_00),
    ];
    const smallCards = [
      await sell(smallPack.id, 7, 1000_00),
      await sell(smallPack.id, 7, 999_00),
      await sell(smallPack.id, 7, 1000_00),
    ];
    const moneyCards = [await sell(money.id, 5000_00, 4000_00)];
    const refunded = await sell(pack.id, 10, 2800_00);
    await c.ok(refundMemberCard.path, { id: refunded.mcId, amount: 2800_00, method: 'cash', remark: null });
    const expired = await sell(pack.id, 5, 1500_00);
    await f.db
      .updateTable('memberCard')
      .set({ expireTime: `${addDays(today, -1)} 23:59:59` })
      .where('id', '=', expired.mcId)
      .execute();
    await f.db.updateTable('cardProduct').set({ cardType: 1 }).where('id', '=', pack.id).execute();
    await sell(groupCard.id, 20, 2000_00);

    // Lessons over the next 13 days (some refused by clashes, which is fine), a group class, cancels.
    const times = ['07:30', '09:00', '10:30', '14:00', '15:30', '17:00', '19:00'];
    const lessonIds: number[] = [];
    for (let i = 0; i < 40; i++) {
      const date = addDays(today, 1 + Math.floor(rand() * 13));
      const time = times[Math.floor(rand() * times.length)];
      const isSmall = rand() < 0.35;
      const payer = rand() < 0.2 ? moneyCards : isSmall ? smallCards : packCards;
      const picked = [...payer].sort(() => rand() - 0.5).slice(0, isSmall ? 1 + Math.floor(rand() * 2) : 1);
      const res = await c.call(bookLesson.path, {
        courseId: isSmall ? small.id : one.id,
        teacherId: isSmall || rand() < 0.5 ? tB.id : tA.id,
        date,
        time,
        members: picked,
        outsideReason: rand() < 0.3 ? '会员只能这个时间' : undefined,
      });
      if (res.code === 0) lessonIds.push(res.data.id);
    }
    expect(lessonIds.length).toBeGreaterThan(10);
    await e.session({ courseId: group.id, teacherId: tA.id, startTime: `${addDays(today, 2)} 10:00:00` });
    await e.session({ courseId: group.id, teacherId: tB.id, startTime: `${addDays(today, -20)} 10:00:00` }); // outside
    const bookings = await f.db
      .selectFrom('reservation')
      .select(['id', 'timetableId'])
      .where('timetableId', 'in', lessonIds)
      .orderBy('id')
      .execute();
    for (const b of bookings) {
      const x = rand();
      if (x < 0.15) await c.ok(cancelLesson.path, { id: b.id });
      else if (x < 0.4) await c.ok(markAttendanceCall.path, { reservationId: b.id, attended: 1 });
    }
    // Half the lessons move two weeks back (taught: ended by now); same weekday, same hour.
    for (const id of lessonIds.filter((_, i) => i % 2 === 0)) {
      const s = await e.sessionRow(id);
      await f.db
        .updateTable('timetable')
        .set({ startTime: addMinutes(s.startTime, -14 * 1440), endTime: addMinutes(s.endTime, -14 * 1440) })
        .where('id', '=', id)
        .execute();
    }

    // The independent count: raw rows and the test's own records, none of the server's queries.
    const db = f.db;
    const storeId = env().storeId;
    const inRange = (t: string) => t.slice(0, 10) >= from && t.slice(0, 10) <= to;
    const courses = new Map(
      (await db.selectFrom('course').selectAll().where('storeId', '=', storeId).execute()).map((x) => [x.id, x]),
    );
    const teachers = new Map(
      (await db.selectFrom('teacher').selectAll().where('storeId', '=', storeId).execute()).map((x) => [x.id, x]),
    );
    const sessions = (await db.selectFrom('timetable').selectAll().where('storeId', '=', storeId).execute()).filter(
      (t) => !t.deleted && inRange(t.startTime),
    );
    const lessons = sessions.filter((t) => courses.get(t.courseId)!.kind !== 'group');
    const lessonById = new Map(lessons.map((t) => [t.id, t]));
    const sessionById = new Map(sessions.map((t) => [t.id, t]));
    const reservations = await db.selectFrom('reservation').selectAll().where('storeId', '=', storeId).execute();
    const ledger = (await db.selectFrom('cardLedger').selectAll().where('storeId', '=', storeId).execute()).filter(
      (l) => (l.kind === 'deduct' || l.kind === 'refund') && l.timetableId !== null && sessionById.has(l.timetableId),
    );
    const cardRows = new Map(
      (await db.selectFrom('memberCard').selectAll().where('storeId', '=', storeId).execute()).map((x) => [x.id, x]),
    );
    const share = (card: number, n: number) => {
      const p = paid.get(card)!;
      return p.productId === money.id ? n : Math.floor((p.paid * Math.max(0, Math.min(n, p.total))) / p.total);
    };

    // 1. Lessons by type and teacher.
    const want = new Map<string, Record<string, number | string>>();
    for (const t of lessons) {
      const k = `${t.courseId}-${t.teacherId}`;
      const row = want.get(k) ?? {
        courseId: t.courseId,
        courseName: courses.get(t.courseId)!.name,
        kind: courses.get(t.courseId)!.kind,
        teacherId: t.teacherId,
        teacherName: teachers.get(t.teacherId)!.name,
        lessons: 0,
        taught: 0,
        booked: 0,
        signedIn: 0,
        countUsed: 0,
        moneyUsed: 0,
        revenue: 0,
      };
      (row.lessons as number)++;
      if (t.endTime <= localDateTime('Asia/Shanghai')) (row.taught as number)++;
      (row.booked as number) += t.realCount;
      for (const r of reservations) {
        const came =
          r.status === ReservationStatus.SIGNED_IN ||
          (r.status === ReservationStatus.BOOKED && r.attendedTime !== null);
        if (r.timetableId === t.id && came) (row.signedIn as number) += r.studentCount;
      }
      want.set(k, row);
    }
    const perCardGroup = new Map<string, number>();
    for (const l of ledger) {
      const t = lessonById.get(l.timetableId!);
      if (!t) continue;
      const k = `${t.courseId}-${t.teacherId}|${l.memberCardId}`;
      perCardGroup.set(k, (perCardGroup.get(k) ?? 0) + Number(l.amount));
    }
    for (const [k, n] of perCardGroup) {
      const [group, card] = k.split('|');
      const row = want.get(group)!;
      if (paid.get(Number(card))!.productId === money.id) (row.moneyUsed as number) += n;
      else (row.countUsed as number) += n;
      (row.revenue as number) += share(Number(card), n);
    }
    const got = await c.ok<Record<string, unknown>[]>(reportLessons.path, { fromDate: from, toDate: to });
    const byKey = (xs: Record<string, unknown>[]) =>
      [...xs].sort((a, b) => `${a.courseId}-${a.teacherId}`.localeCompare(`${b.courseId}-${b.teacherId}`));
    expect(byKey(got)).toEqual(byKey([...want.values()]));
    expect(got.reduce((s, x) => s + (x.revenue as number), 0)).toBeGreaterThan(0);
    expect(got.some((x) => (x.taught as number) > 0 && (x.taught as number) < (x.lessons as number))).toBe(true);
    expect(got.some((x) => (x.signedIn as number) > 0)).toBe(true);

    // 2. Utilisation: minute by minute, from the hours the test declared.
    const working = (teacherId: number, date: string) => {
      const h = hours.get(teacherId)!;
      const minutes = new Array<boolean>(1440).fill(false);
      const mark = ([a, b]: Span, v: boolean) => {
        for (let m = clock(a); m < clock(b); m++) minutes[m] = v;
      };
      for (const s of h.weekly[weekday(date) || 7] ?? []) mark(s, true);
      if (h.extra[date]) mark(h.extra[date], true);
      const off = h.off[date];
      if (off === 'day') minutes.fill(false);
      else if (off) mark(off, false);
      return minutes;
    };
    const wantUse = new Map<string, Record<string, number | string>>();
    for (let date = from; date <= to; date = addDays(date, 1)) {
      const weekStart = addDays(date, -((weekday(date) + 6) % 7));
      for (const teacherId of [tA.id, tB.id]) {
        const work = working(teacherId, date);
        const own = sessions.filter((s) => s.teacherId === teacherId && s.startTime.startsWith(date));
        const busy = new Array<boolean>(1440).fill(false);
        let lessonMinutes = 0;
        for (const s of own) {
          const a = clock(s.startTime.slice(11));
          const b = s.endTime.startsWith(date) ? clock(s.endTime.slice(11)) : 1440;
          for (let m = a; m < b; m++) busy[m] = true;
          if (courses.get(s.courseId)!.kind !== 'group') lessonMinutes += b - a;
        }
        const workMinutes = work.filter(Boolean).length;
        if (!workMinutes && !own.length) continue;
        const k = `${teacherId}-${weekStart}`;
        const row = wantUse.get(k) ?? {
          teacherId,
          teacherName: teachers.get(teacherId)!.name,
          weekStart,
          workMinutes: 0,
          bookedMinutes: 0,
          lessonMinutes: 0,
        };
        (row.workMinutes as number) += workMinutes;
        (row.bookedMinutes as number) += work.filter((w, m) => w && busy[m]).length;
        (row.lessonMinutes as number) += lessonMinutes;
        wantUse.set(k, row);
      }
    }
    const use = await c.ok<Record<string, number | string>[]>(reportLessonUtilisation.path, {
      fromDate: from,
      toDate: to,
    });
    const rated = [...wantUse.values()]
      .filter((x) => (x.workMinutes as number) > 0 || (x.lessonMinutes as number) > 0)
      .map((x) => ({
        ...x,
        rate: Math.round(((x.bookedMinutes as number) / (x.workMinutes as number)) * 10_000) / 10_000,
      }));
    const useKey = (xs: Record<string, unknown>[]) =>
      [...xs].sort((a, b) => `${a.weekStart}-${a.teacherId}`.localeCompare(`${b.weekStart}-${b.teacherId}`));
    expect(useKey(use)).toEqual(useKey(rated));
    expect(use.some((x) => (x.bookedMinutes as number) > 0)).toBe(true);

    // 3. Packs sold and consumed (all cards were sold today, inside the range).
    const wantPacks = [pack.id, smallPack.id].map((productId) => {
      const cards = [...paid].filter(([, p]) => p.productId === productId);
      const usedPerCard = new Map<number, number>();
      for (const l of ledger) {
        if (paid.get(l.memberCardId)?.productId === productId) {
          usedPerCard.set(l.memberCardId, (usedPerCard.get(l.memberCardId) ?? 0) + Number(l.amount));
        }
      }
      const refundedHere = productId === pack.id ? 2800_00 : 0;
      return {
        productId,
        cardsSold: cards.length,
        lessonsSold: cards.reduce((s, [, p]) => s + p.total, 0),
        moneyReceived: cards.reduce((s, [, p]) => s + p.paid, 0) - refundedHere,
        lessonsUsed: [...usedPerCard.values()].reduce((s, n) => s + n, 0),
        usedValue: [...usedPerCard].reduce((s, [card, n]) => s + share(card, n), 0),
      };
    });
    const packs = await c.ok<Record<string, unknown>[]>(reportLessonPacks.path, { fromDate: from, toDate: to });
    expect(packs.map(({ cardName: _, teacherId: __, teacherLevel: ___, ...x }) => x)).toEqual(wantPacks);
    expect(packs.map((p) => p.cardName)).toEqual(['私教十节', '小班七节']);

    // 4. 预收款: live (not refunded, not expired) packs with lessons left, each left × its price.
    const outstanding = await c.ok<{
      asOf: string;
      total: Record<string, number>;
      products: Record<string, unknown>[];
    }>(reportLessonOutstanding.path, {});
    const wantOut = [pack.id, smallPack.id].map((productId) => {
      const live = [...paid].filter(([id, p]) => {
        const row = cardRows.get(id)!;
        return (
          p.productId === productId && id !== refunded.mcId && id !== expired.mcId && row.totalCount > row.usedCount
        );
      });
      const left = (id: number) => cardRows.get(id)!.totalCount - cardRows.get(id)!.usedCount;
      return {
        productId,
        cardName: productId === pack.id ? '私教十节' : '小班七节',
        cards: live.length,
        lessons: live.reduce((s, [id]) => s + left(id), 0),
        value: live.reduce((s, [id, p]) => s + Math.floor((p.paid * left(id)) / p.total), 0),
      };
    });
    expect(outstanding.asOf).toBe(today);
    expect(outstanding.products).toEqual(wantOut);
    expect(outstanding.total).toEqual({
      cards: wantOut[0].cards + wantOut[1].cards,
      lessons: wantOut[0].lessons + wantOut[1].lessons,
      value: wantOut[0].value + wantOut[1].value,
    });
    expect(outstanding.total.value).toBeGreaterThan(0);
  });

  it('a range over a year is refused in words, and a desk account may not read the reports', async () => {
    const bad = await env().client.call(reportLessons.path, { fromDate: '2026-01-01', toDate: '2027-06-01' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/最多366天/);
    const desk = await staffClient(env(), 'desk');
    for (const call of [reportLessons, reportLessonUtilisation, reportLessonPacks]) {
      expect((await desk.call(call.path, { fromDate: '2026-01-01', toDate: '2026-01-31' })).status).toBe(403);
    }
    expect((await desk.call(reportLessonOutstanding.path, {})).status).toBe(403);
  });
});
