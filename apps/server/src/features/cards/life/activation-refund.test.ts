import { afterEach, expect, it, vi } from 'vitest';
import { addDays, localDateTime } from '../../../lib/time.ts';
import { EngineFactory } from '../../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type TestEnv } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';
import { memberClient } from '../../../../test/member-client.ts';

const API = '/store/api';
const DAY = 86_400_000;
const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

/** A product with its course, and a member; `product` overrides the product's fields. */
async function scene(env: TestEnv, product: Record<string, unknown>) {
  const e = new EngineFactory(env.factory);
  const s = await e.scene({ product: { cardType: 1, validDays: 30, ...product } });
  const member = await env.factory.member();
  const sell = (paid = 100000) =>
    env.client.ok(`${API}/insert/member/card`, {
      mid: member.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: paid, method: 'wechat', remark: null },
    }) as Promise<{ id: number }>;
  return { e, ...s, member, sell };
}

/** Moves the server's clock to `at` (the sessions of staff then start afresh: theirs would have expired). */
async function clockAt(env: TestEnv, at: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  await env.client.login(env.username);
}

const cardOf = (env: TestEnv, id: number) =>
  env.database.db
    .selectFrom('memberCard')
    .select(['activateTime', 'expireTime', 'validDays', 'totalCount', 'usedCount', 'refundedAt'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

afterEach(() => {
  vi.useRealTimers();
});

describeEachDb('activation (issue 29, item 2)', (env) => {
  it('starts a 首次上课开卡 card on the day of its first class; until then 未开卡 with the latest expiry', async () => {
    const s = await scene(env(), { activation: 'first_class', activateWithinDays: 20 });
    const t = today();
    const { id } = await s.sell();
    expect(await cardOf(env(), id)).toMatchObject({
      activateTime: null,
      validDays: 30,
      // not started: as if it starts on its last day to start (sale + 20)
      expireTime: `${addDays(t, 50)} 23:59:59`,
    });
    const info = await env().client.ok(`${API}/query/member/info`, { id: s.member.id });
    expect(info.cards[0]).toMatchObject({ activation: 'first_class', activateTime: null, activateBy: addDays(t, 20) });
    // the member books a class five days on: the card starts that day
    const later = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(t, 5)} 18:00:00`,
    });
    const sooner = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(t, 2)} 18:00:00`,
    });
    const phone = await memberClient(env(), s.member);
    await phone.ok('/member/api/add/reservation', { tid: later.id, mcId: id, studentCount: 1 });
    expect(await cardOf(env(), id)).toMatchObject({
      activateTime: `${addDays(t, 5)} 00:00:00`,
      expireTime: `${addDays(t, 35)} 23:59:59`,
    });
    // a second class does not move it again
    await env().client.ok(`${API}/add/member/reservation`, { tid: sooner.id, mcId: id, studentCount: 1 });
    expect((await cardOf(env(), id)).expireTime).toBe(`${addDays(t, 35)} 23:59:59`);
    const ledger = await env().client.ok(`${API}/query/member/card/ledger`, { id });
    expect(
      ledger.some((l: { kind: string; remark: string }) => l.kind === 'activate' && l.remark.includes(addDays(t, 5))),
    ).toBe(true);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('starts a card no later than its last day to start, and a 指定日期开卡 card on its date', async () => {
    const s = await scene(env(), { activation: 'first_class', activateWithinDays: 3 });
    const t = today();
    const { id } = await s.sell();
    const far = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(t, 10)} 09:00:00`,
    });
    await env().client.ok(`${API}/add/member/reservation`, { tid: far.id, mcId: id, studentCount: 1 });
    expect(await cardOf(env(), id)).toMatchObject({
      activateTime: `${addDays(t, 3)} 00:00:00`,
      expireTime: `${addDays(t, 33)} 23:59:59`,
    });
    const d = await scene(env(), { activation: 'date', activationDate: addDays(t, 14) });
    const dated = await d.sell();
    expect(await cardOf(env(), dated.id)).toMatchObject({
      activateTime: `${addDays(t, 14)} 00:00:00`,
      expireTime: `${addDays(t, 44)} 23:59:59`,
    });
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });
});

describeEachDb('refund quote (issue 29, item 3)', (env) => {
  it('refunds in full within the cooling-off days (day 7), at the desk, audited', async () => {
    const s = await scene(env(), { refundFeePercent: 10 });
    const { id } = await s.sell(88000);
    await clockAt(env(), Date.now() + 7 * DAY);
    const desk = await staffClient(env(), 'desk');
    const quote = await desk.ok(`${API}/query/card/refund/quote`, { mcId: id });
    expect(quote).toMatchObject({ amount: 88000, rule: 'cooling_off', paid: 88000, allowed: true });
    expect(quote.detail).toContain('售卡后第7天');
    const more = await desk.call(`${API}/refund/member/card`, { id, amount: 88001, method: 'wechat', remark: null });
    expect([more.status, more.msg]).toEqual([409, '退款金额不能超过应退金额 880.00 元']);
    await desk.ok(`${API}/refund/member/card`, { id, amount: 88000, method: 'wechat', remark: '冷静期退卡' });
    expect(await cardOf(env(), id)).toMatchObject({ totalCount: 0, refundedAt: expect.any(String) });
    const entry = await env()
      .database.db.selectFrom('auditLog')
      .select(['summary', 'actorName'])
      .where('storeId', '=', env().storeId)
      .where('call', 'like', '%refund/member/card')
      .executeTakeFirstOrThrow();
    expect(entry.summary).toMatch(/^退卡（冷静期全额退款），退款 880.00 元/);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('refunds by the product rule from day 8: the unused share less the fee, a manager only, a used card closed', async () => {
    const s = await scene(env(), { refundFeePercent: 10 });
    const t = today();
    const { id } = await s.sell(100000);
    // three classes taken tomorrow
    for (const hour of ['09', '11', '14']) {
      const c = await s.e.session({
        courseId: s.course.id,
        teacherId: s.teacher.id,
        startTime: `${addDays(t, 1)} ${hour}:00:00`,
      });
      await env().client.ok(`${API}/add/member/reservation`, { tid: c.id, mcId: id, studentCount: 1 });
    }
    // booked, not yet taken: the card is not opened (issue 42, item 9), but the bookings keep it open
    const early = await env().client.ok(`${API}/query/card/refund/quote`, { mcId: id });
    expect(early).toMatchObject({ rule: 'cooling_off', amount: 100000, coolingOff: true, toCome: 3 });
    expect(early.detail).toContain('售卡当天，在7天冷静期内');
    // a class still to come keeps the card open
    const open = await env().client.call(`${API}/refund/member/card`, {
      id,
      amount: 60000,
      method: 'cash',
      remark: null,
    });
    expect([open.status, open.msg]).toEqual([409, '该卡还有未上的课程预约，请先取消预约再退卡']);
    await clockAt(env(), Date.now() + 8 * DAY);
    const quote = await env().client.ok(`${API}/query/card/refund/quote`, { mcId: id });
    // paid 1000.00, 7 of 10 left: 700.00, less 10% of 1000.00: 600.00
    expect(quote).toMatchObject({ amount: 60000, rule: 'product_rule', paid: 100000, allowed: true });
    expect(quote.detail).toContain('已过7天冷静期');
    const desk = await staffClient(env(), 'desk');
    expect((await desk.ok(`${API}/query/card/refund/quote`, { mcId: id })).allowed).toBe(false);
    const byDesk = await desk.call(`${API}/refund/member/card`, { id, amount: 60000, method: 'cash', remark: null });
    expect([byDesk.status, byDesk.msg]).toEqual([403, '已过冷静期的退卡需要店长操作']);
    const more = await env().client.call(`${API}/refund/member/card`, {
      id,
      amount: 60001,
      method: 'cash',
      remark: null,
    });
    expect([more.status, more.msg]).toEqual([409, '退款金额不能超过应退金额 600.00 元']);
    await env().client.ok(`${API}/refund/member/card`, { id, amount: 60000, method: 'cash', remark: '按规则退卡' });
    expect(await cardOf(env(), id)).toMatchObject({ totalCount: 3, usedCount: 3, refundedAt: expect.any(String) });
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('a card sold on day 0 is in its cooling-off days on day 7 and past them on day 8, unopened', async () => {
    const s = await scene(env(), { refundFeePercent: 20 });
    const { id } = await s.sell(50000);
    const start = Date.now();
    await clockAt(env(), start + 7 * DAY);
    expect(await env().client.ok(`${API}/query/card/refund/quote`, { mcId: id })).toMatchObject({
      rule: 'cooling_off',
      amount: 50000,
    });
    await clockAt(env(), start + 8 * DAY);
    // unused: the whole share, less 20% of 500.00
    expect(await env().client.ok(`${API}/query/card/refund/quote`, { mcId: id })).toMatchObject({
      rule: 'product_rule',
      amount: 40000,
    });
  });
});
