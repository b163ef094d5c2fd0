import {
  bookLesson,
  CARD_TYPE_EXPIRES,
  insertCardProduct,
  insertMemberCard,
  refundMemberCard,
  ReportMsg,
  reportLessonOutstanding,
  saveLessonBookingSetting,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { addDays, localDateTime } from '../../lib/time.ts';

type Out = { asOf: string; total: { cards: number; lessons: number; value: number }; products: unknown[] };

/**
 * 预收款 as of a past date (issue 43 item 8): each pack as it was at the end of that day, rebuilt from
 * its ledger and payments — a pack sold after it not counted, a lesson consumed after it still owed, a
 * pack refunded after it still counted, a pack expired by then not counted; today's answer is the
 * same with or without the date.
 */
describeEachDb('lessons: 预收款 as of a date', (env) => {
  it('a pack sold, partly consumed, refunded and expired across dates: each date answers the packs as they were then', async () => {
    const f = env().factory;
    const c = env().client;
    const db = env().database.db;
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const day = (n: number) => addDays(today, n);
    await c.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    const pack = await c.ok<{ id: number }>(insertCardProduct.path, {
      cardName: '私教十节（截至）',
      bigType: 1,
      cardType: CARD_TYPE_EXPIRES,
      validDays: 365,
      perCount: 1,
      price: 1000_00,
      courseIds: [],
    });
    const teacher = await f.teacher();
    const type = await lessonType(f, { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    const sell = async () => {
      const m = await f.member();
      const { id } = await c.ok<{ id: number }>(insertMemberCard.path, {
        mid: m.id,
        cardId: pack.id,
        totalCount: 10,
        payment: { amount: 1000_00, method: 'wechat', remark: null },
      });
      return { mid: m.id, mcId: id };
    };
    /** Moves what a card's sale wrote (the card, its issue entry, its payment) to a past day. */
    const soldOn = async (mcId: number, date: string) => {
      const at = `${date} 10:00:00`;
      await db.updateTable('memberCard').set({ createdAt: at }).where('id', '=', mcId).execute();
      await db
        .updateTable('cardLedger')
        .set({ createdAt: at })
        .where('memberCardId', '=', mcId)
        .where('kind', '=', 'issue')
        .execute();
      await db
        .updateTable('cardPayment')
        .set({ createdAt: at })
        .where('memberCardId', '=', mcId)
        .where('kind', '=', 'sale')
        .execute();
    };
    let hour = 8;
    const consume = (x: { mid: number; mcId: number }) =>
      c.ok<{ id: number }>(bookLesson.path, {
        courseId: type.id,
        teacherId: teacher.id,
        date: day(2),
        time: `${String(hour++).padStart(2, '0')}:00`,
        members: [{ mid: x.mid, mcId: x.mcId }],
      });

    // A: sold 10 days ago, 2 lessons consumed 8 days ago, 1 more today.
    const a = await sell();
    await soldOn(a.mcId, day(-10));
    await consume(a);
    await consume(a);
    await db
      .updateTable('cardLedger')
      .set({ createdAt: `${day(-8)} 15:00:00` })
      .where('memberCardId', '=', a.mcId)
      .where('kind', '=', 'deduct')
      .execute();
    await consume(a);
    // B: sold today.
    await sell();
    // C: sold 10 days ago, refunded today.
    const cc = await sell();
    await soldOn(cc.mcId, day(-10));
    await c.ok(refundMemberCard.path, { id: cc.mcId, amount: 1000_00, method: 'wechat', remark: '退卡' });
    // D: sold 10 days ago, its end the day 4 days ago.
    const d = await sell();
    await soldOn(d.mcId, day(-10));
    await db
      .updateTable('memberCard')
      .set({ expireTime: `${day(-4)} 23:59:59` })
      .where('id', '=', d.mcId)
      .execute();

    const at = (date?: string) => c.ok<Out>(reportLessonOutstanding.path, date ? { date } : {});
    const mine = (o: Out) => o.products.filter((p) => (p as { productId: number }).productId === pack.id);
    const row = (cards: number, lessons: number, value: number) => [
      { productId: pack.id, cardName: '私教十节（截至）', cards, lessons, value },
    ];
    // 5 days ago: A with 8 left (its third lesson was consumed later), C (refunded later), D (not yet ended); B not sold.
    const past = await at(day(-5));
    expect(past.asOf).toBe(day(-5));
    expect(mine(past)).toEqual(row(3, 8 + 10 + 10, 800_00 + 1000_00 + 1000_00));
    // 3 days ago: D has ended.
    expect(mine(await at(day(-3)))).toEqual(row(2, 18, 1800_00));
    // 11 days ago: nothing sold yet.
    expect(mine(await at(day(-11)))).toEqual([]);
    // Today: A 7 left, B 10; C refunded, D ended. The same with the date as without it.
    const now = await at();
    expect(now.asOf).toBe(today);
    expect(mine(now)).toEqual(row(2, 17, 700_00 + 1000_00));
    expect(await at(today)).toEqual(now);
    // The whole store's total as of a date adds up its products.
    expect(past.total.lessons).toBe(past.products.reduce<number>((n, p) => n + (p as { lessons: number }).lessons, 0));

    // A date after today is refused in words; a date that does not exist too.
    const future = await c.call(reportLessonOutstanding.path, { date: day(1) });
    expect([future.status, future.msg]).toEqual([400, ReportMsg.asOfFuture]);
    const bad = await c.call(reportLessonOutstanding.path, { date: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('请选择截至日期');
  });
});
