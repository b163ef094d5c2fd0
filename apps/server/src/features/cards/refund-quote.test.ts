// The refund quote (issue 42, items 5 and 9) on SQLite and PostgreSQL: it counts only what was paid for
// the card (a transfer's fee is income), in integer fen with one rounding rule (不足 1 分舍去), checked
// against an independent formula over a grid; and its words: 售卡当天, a leave not yet begun or a
// booking not yet taken does not open a card, inside the cooling-off days never 已过冷静期.
import { CardMsg, transferMemberCard } from '@studio/contract';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type TestEnv } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { productRuleAmount } from './refund-quote.ts';

const API = '/store/api';
const QUOTE = `${API}/query/card/refund/quote`;
const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

/**
 * The product rule as a studio owner would work it out by hand, independently of `productRuleAmount`:
 * the refund in fen is (paid × left ÷ length) and (paid × fee ÷ 100) each with the fraction of a fen
 * dropped, the first less the second, never below 0. Long division on the decimal digits (strings), so
 * no floating point and no BigInt: the quotient of an exact integer division.
 */
function byHand(paid: number, left: number, length: number, fee: number) {
  const div = (a: number, b: number) => (a - (a % b)) / b; // exact: a < 2^53 in the grid
  const share = length > 0 ? div(paid * left, length) : 0;
  return Math.max(0, share - div(paid * fee, 100));
}

/** A count card product (`count` classes, `fee`% refund fee) sold at the desk for `paid` fen, with `used` classes used. */
async function soldCard(env: TestEnv, o: { paid: number; count: number; used: number; fee: number; daysAgo: number }) {
  const product = await env.factory.cardProduct({ refundFeePercent: o.fee });
  const member = await env.factory.member();
  const { id } = (await env.client.ok(`${API}/insert/member/card`, {
    mid: member.id,
    cardId: product.id,
    totalCount: o.count,
    payment: { amount: o.paid, method: 'cash', remark: null },
  })) as { id: number };
  // Classes used and the sale's day, set directly: the quote reads only the card's counts and its sale's day.
  const sold = `${addDays(today(), -o.daysAgo)} 10:00:00`;
  await env.database.db
    .updateTable('memberCard')
    .set({ usedCount: o.used, createdAt: sold })
    .where('id', '=', id)
    .execute();
  return { id, member };
}

describeEachDb('refund quote: only what was paid, in whole fen (issue 42, item 5)', (env) => {
  it('100 元 with 43 of 100 classes used, past the cooling-off days and no fee: 57.00 元, not 56.99', async () => {
    const { id } = await soldCard(env(), { paid: 10000, count: 100, used: 43, fee: 0, daysAgo: 30 });
    const q = await env().client.ok(QUOTE, { mcId: id });
    expect(q).toMatchObject({ rule: 'product_rule', paid: 10000, amount: 5700 });
    expect(q.detail).toContain('按比例 57.00 元');
    expect(q.detail).toContain('不足 1 分的部分舍去');
    expect(q.parts).toEqual([{ orderNo: null, provider: null, kind: 'desk', amount: 5700 }]);
  });

  it('equals the independent formula over a grid of prices, counts, uses and fees (the pure rule)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 100 }),
        (paid, count, usedRaw, fee) => {
          const used = usedRaw % (count + 1);
          expect(productRuleAmount({ paid, left: count - used, length: count, feePercent: fee }).amount).toBe(
            byHand(paid, count - used, count, fee),
          );
        },
      ),
      { numRuns: 5000 },
    );
    // the corners by name
    for (const [paid, count, used, fee] of [
      [10000, 100, 43, 0],
      [9999, 3, 1, 0],
      [1, 3, 1, 0],
      [10000, 7, 0, 33],
      [9_999_999, 997, 996, 1],
    ])
      expect(productRuleAmount({ paid, left: count - used, length: count, feePercent: fee }).amount).toBe(
        byHand(paid, count - used, count, fee),
      );
  });

  it('equals the independent formula through the quote call, on real cards', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 100 }),
        async (paid, count, usedRaw, fee) => {
          const used = usedRaw % (count + 1);
          const { id } = await soldCard(env(), { paid, count, used, fee, daysAgo: 30 });
          const q = await env().client.ok(QUOTE, { mcId: id });
          expect([q.rule, q.amount]).toEqual(['product_rule', byHand(paid, count - used, count, fee)]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a transfer fee (转卡手续费) is income, not paid for the card: the quote leaves it out', async () => {
    const { id } = await soldCard(env(), { paid: 50000, count: 10, used: 0, fee: 0, daysAgo: 0 });
    const to = await env().factory.member();
    await env().client.ok(transferMemberCard.path, {
      mcId: id,
      toMid: to.id,
      fee: 5000,
      method: 'wechat',
      futureBookings: 'keep',
    });
    const q = await env().client.ok(QUOTE, { mcId: id });
    expect(q).toMatchObject({ paid: 50000, amount: 50000, rule: 'product_rule', coolingOff: true });
    expect(q.detail).toContain('实付 500.00 元');
    await env().client.ok(`${API}/refund/member/card`, { id, amount: 50000, method: 'cash', remark: null });
    const more = await env().client.call(`${API}/refund/member/card`, { id, amount: 1, method: 'cash', remark: null });
    expect(more.status).toBe(409);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });
});

describeEachDb('refund quote: words a desk can explain (issue 42, item 9)', (env) => {
  /** A 30-day card (fee 10%) sold today at the desk for 1000.00 元, and its course. */
  async function scene() {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({
      product: { cardType: 1, validDays: 30, refundFeePercent: 10, leaveAllowed: 1, leaveTimes: 3, leaveDaysMax: 7 },
    });
    const member = await env().factory.member();
    const { id } = (await env().client.ok(`${API}/insert/member/card`, {
      mid: member.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: 100000, method: 'cash', remark: null },
    })) as { id: number };
    return { ...s, e, id };
  }

  it('sold today with a leave for next week: 售卡当天, in full, the desk may refund it', async () => {
    const s = await scene();
    await env().client.ok(`${API}/add/card/leave`, {
      mcId: s.id,
      fromDate: addDays(today(), 7),
      toDate: addDays(today(), 9),
      reason: '出差',
    });
    const desk = await staffClient(env(), 'desk');
    const q = await desk.ok(QUOTE, { mcId: s.id });
    expect(q).toMatchObject({ rule: 'cooling_off', amount: 100000, allowed: true, coolingOff: true, toCome: 0 });
    expect(q.detail).toMatch(/^售卡当天，在7天冷静期内，未上课、请假尚未开始、未转卡：全额退还实付 1000.00 元/);
    expect(q.detail).not.toContain('第0天');
    await desk.ok(`${API}/refund/member/card`, { id: s.id, amount: 100000, method: 'cash', remark: null });
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('a leave begun opens the card: inside the cooling-off days it says so, never 已过冷静期, and the desk is told why', async () => {
    const s = await scene();
    await env().client.ok(`${API}/add/card/leave`, {
      mcId: s.id,
      fromDate: today(),
      toDate: addDays(today(), 2),
      reason: '生病',
    });
    const desk = await staffClient(env(), 'desk');
    const q = await desk.ok(QUOTE, { mcId: s.id });
    expect(q).toMatchObject({ rule: 'product_rule', allowed: false, coolingOff: true });
    expect(q.detail).toMatch(/^售卡当天，在7天冷静期内，但已请假，不能全额退款，按卡种规则：/);
    expect(q.detail).not.toContain('已过');
    const byDesk = await desk.call(`${API}/refund/member/card`, { id: s.id, amount: 1, method: 'cash', remark: null });
    expect([byDesk.status, byDesk.msg]).toEqual([403, CardMsg.refundOpened]);
  });

  it('a booking not yet taken does not open the card: in full, but cancel the booking first', async () => {
    const s = await scene();
    const later = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(today(), 2)} 09:00:00`,
    });
    await env().client.ok(`${API}/add/member/reservation`, { tid: later.id, mcId: s.id, studentCount: 1 });
    const q = await env().client.ok(QUOTE, { mcId: s.id });
    expect(q).toMatchObject({ rule: 'cooling_off', amount: 100000, toCome: 1 });
    const refused = await env().client.call(`${API}/refund/member/card`, {
      id: s.id,
      amount: 100000,
      method: 'cash',
      remark: null,
    });
    expect([refused.status, refused.msg]).toEqual([409, CardMsg.refundOpenBookings]);
  });
});
