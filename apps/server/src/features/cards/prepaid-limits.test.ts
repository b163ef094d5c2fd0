// Prepaid limits per city (issue 45, item 4): a store that chose 上海 2025 has every sale, top-up,
// online order (before it is created, and again when its payment arrives) and transfer in refused
// over a limit, with the rule and the figures in the message; cards sold before the limits are listed.
import {
  amountText,
  BIG_TYPE_MONEY,
  CARD_TYPE_EXPIRES,
  CARD_TYPE_NO_EXPIRY,
  insertMemberCard,
  memberCreateOrder,
  NO_PREPAID_LIMITS,
  PREPAID_RULE_SET_NAMES,
  PrepaidMsg,
  queryCardsOverPrepaidLimit,
  queryPayOrder,
  queryPrepaidLimitSetting,
  SHANGHAI_2025_LIMITS,
  topupMemberCard,
  transferMemberCard,
  updatePrepaidLimitSetting,
} from '@studio/contract';
import { beforeEach, expect, it } from 'vitest';
import { localDateTime, addMonths, daysBetween } from '../../lib/time.ts';
import { describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { onlineStoreOfFile } from '../../../test/payment-support.ts';

const SH = PREPAID_RULE_SET_NAMES.shanghai2025;
const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);
const pay = (amount: number) => ({ amount, method: 'cash', remark: null });

describeEachDb('prepaid limits per city (上海 2025)', (env) => {
  const s = onlineStoreOfFile(env);
  const more = moreInstances(env, 1);
  const db = () => env().database.db;
  const desk = () => env().client;

  const setRule = (ruleSet: string, custom = NO_PREPAID_LIMITS) =>
    desk().ok(updatePrepaidLimitSetting.path, { ruleSet, custom });
  beforeEach(() => setRule('shanghai2025'));

  const lessons = (o: Record<string, unknown> = {}) =>
    env().factory.cardProduct({ cardName: '私教课时卡', perCount: 1, price: 1_000_000, ...o });
  const membership = (validDays: number | null) =>
    env().factory.cardProduct({
      cardName: '年卡',
      perCount: 0,
      price: 300_000,
      cardType: validDays === null ? CARD_TYPE_NO_EXPIRY : CARD_TYPE_EXPIRES,
      validDays,
    });
  const money = () =>
    env().factory.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 5000, price: 100_000 });

  const sell = (mid: number, cardId: number, totalCount: number, paid?: number) =>
    desk().call(insertMemberCard.path, {
      mid,
      cardId,
      totalCount,
      ...(paid === undefined ? {} : { payment: pay(paid) }),
    });
  const cardRow = (a: { data: unknown }) =>
    db()
      .selectFrom('memberCard')
      .selectAll()
      .where('id', '=', (a.data as { id: number }).id)
      .executeTakeFirstOrThrow();
  const cardsOf = (mid: number) => db().selectFrom('memberCard').select('id').where('memberId', '=', mid).execute();

  it('answers the rule in force; the manager chooses it; bad limits are refused', async () => {
    expect(await desk().ok(queryPrepaidLimitSetting.path)).toMatchObject({
      ruleSet: 'shanghai2025',
      limits: SHANGHAI_2025_LIMITS,
    });
    const bad = await desk().call(updatePrepaidLimitSetting.path, {
      ruleSet: 'custom',
      custom: { ...NO_PREPAID_LIMITS, lessonsCount: 0 },
    });
    expect([bad.status, bad.msg]).toEqual([400, '次卡课时数上限至少为1']);
    const unknown = await desk().call(updatePrepaidLimitSetting.path, {
      ruleSet: 'beijing',
      custom: NO_PREPAID_LIMITS,
    });
    expect(unknown.status).toBe(400);
    await setRule('custom', { ...NO_PREPAID_LIMITS, moneyAmount: 100_000 });
    expect((await desk().ok(queryPrepaidLimitSetting.path)).limits).toEqual({
      ...NO_PREPAID_LIMITS,
      moneyAmount: 100_000,
    });
  });

  it('refuses a desk sale over each card limit, naming the limit and the figures, and writes nothing', async () => {
    const m = await env().factory.member();
    const cases: [Promise<{ id: number }>, number, number | undefined, string][] = [
      [
        lessons({ price: 2_500_000 }),
        20,
        2_500_000,
        PrepaidMsg.over(SH, '次卡（课时卡）单卡金额', yuan(2_000_000), yuan(2_500_000)),
      ],
      [lessons({ price: 100_000 }), 61, 100_000, PrepaidMsg.over(SH, '次卡（课时卡）课时数', '60节', '61节')],
      [money(), 600_000, 600_000, PrepaidMsg.over(SH, '储值卡单卡金额', yuan(500_000), yuan(600_000))],
      // Without a payment the product's price is what is prepaid.
      [
        env().factory.cardProduct({ cardName: '年卡', perCount: 0, price: 600_000, cardType: CARD_TYPE_NO_EXPIRY }),
        1,
        undefined,
        PrepaidMsg.over(SH, '期限卡（会员卡）单卡金额', yuan(500_000), yuan(600_000)),
      ],
    ];
    for (const [product, count, paid, msg] of cases) {
      const a = await sell(m.id, (await product).id, count, paid);
      expect([a.status, a.msg]).toEqual([409, msg]);
    }
    expect(await cardsOf(m.id)).toEqual([]);
  });

  it('holds a 期限卡 to 24 months from its start: a card of no end is refused, 24 months to the day is not', async () => {
    const m = await env().factory.member();
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const most = daysBetween(today, addMonths(today, 24));
    const forever = await sell(m.id, (await membership(null)).id, 1, 300_000);
    expect([forever.status, forever.msg]).toEqual([
      409,
      PrepaidMsg.over(SH, '期限卡（会员卡）有效期', `24个月（${most}天）`, '不限期'),
    ]);
    const long = await sell(m.id, (await membership(most + 1)).id, 1, 300_000);
    expect([long.status, long.msg]).toEqual([
      409,
      PrepaidMsg.over(SH, '期限卡（会员卡）有效期', `24个月（${most}天）`, `${most + 1}天`),
    ]);
    expect((await sell(m.id, (await membership(most)).id, 1, 300_000)).code).toBe(0);
  });

  it('counts what remains on earlier cards: a renewal over 20,000 元 in all is refused until the old card is used', async () => {
    const m = await env().factory.member();
    const first = await sell(m.id, (await lessons({ price: 1_500_000 })).id, 10, 1_500_000);
    expect(first.code, first.msg).toBe(0);
    const renewal = await lessons({ price: 600_000 });
    const refused = await sell(m.id, renewal.id, 10, 600_000);
    expect([refused.status, refused.msg]).toEqual([
      409,
      PrepaidMsg.memberTotal(SH, yuan(2_000_000), yuan(1_500_000), yuan(600_000)),
    ]);
    // Half of the first card used: 7,500 元 remain, 7,500 + 6,000 is within 20,000.
    await db()
      .updateTable('memberCard')
      .set({ usedCount: 5 })
      .where('id', '=', (first.data as { id: number }).id)
      .execute();
    expect((await sell(m.id, renewal.id, 10, 600_000)).code).toBe(0);
    // A card refunded or of another member does not count; the limits off, nothing is refused.
    await setRule('none');
    expect((await sell(m.id, (await lessons({ price: 2_500_000 })).id, 10, 2_500_000)).code).toBe(0);
  });

  it('refuses a top-up that takes a card or the member over a limit', async () => {
    const m = await env().factory.member();
    const product = await money();
    const sold = await sell(m.id, product.id, 400_000, 400_000);
    const id = (sold.data as { id: number }).id;
    const over = await desk().call(topupMemberCard.path, { id, amount: 150_000, payment: pay(150_000) });
    expect([over.status, over.msg]).toEqual([409, PrepaidMsg.over(SH, '储值卡单卡金额', yuan(500_000), yuan(550_000))]);
    // Without a payment a money card's amount is the money.
    const unpaid = await desk().call(topupMemberCard.path, { id, amount: 150_000 });
    expect(unpaid.status).toBe(409);
    expect((await desk().ok(topupMemberCard.path, { id, amount: 100_000, payment: pay(100_000) })) === null).toBe(true);
    const card = await db()
      .selectFrom('memberCard')
      .select('totalCount')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(card.totalCount)).toBe(500_000);
    // A 次卡 topped up past 60 lessons.
    const l = await sell(m.id, (await lessons({ price: 500_000 })).id, 50, 500_000);
    const more60 = await desk().call(topupMemberCard.path, {
      id: (l.data as { id: number }).id,
      amount: 11,
      payment: pay(110_000),
    });
    expect([more60.status, more60.msg]).toEqual([409, PrepaidMsg.over(SH, '次卡（课时卡）课时数', '60节', '61节')]);
  });

  it('refuses an online order before it is created, and a payment arriving over the limit makes it 异常订单', async () => {
    const m = await env().factory.member();
    const phone = await memberClient(env(), m);
    const big = await env().factory.cardProduct({
      cardName: '大额课时卡',
      perCount: 1,
      totalCount: 10,
      onlineSale: 1,
      onlinePrice: 2_100_000,
    });
    const refused = await phone.call(memberCreateOrder.path, { productId: big.id, method: 'wechat_native' });
    expect([refused.status, refused.msg]).toEqual([
      409,
      PrepaidMsg.over(SH, '次卡（课时卡）单卡金额', yuan(2_000_000), yuan(2_100_000)),
    ]);
    expect(await db().selectFrom('payOrder').select('id').where('memberId', '=', m.id).execute()).toEqual([]);

    // An order within the limits; meanwhile the desk sells a card that leaves no room; the payment arrives.
    const ok = await phone.call(memberCreateOrder.path, { productId: s.product.id, method: 'wechat_native' });
    expect(ok.code, ok.msg).toBe(0);
    const orderNo = (ok.data as { orderNo: string }).orderNo;
    expect((await sell(m.id, (await lessons({ price: 1_995_000 })).id, 10, 1_995_000)).code).toBe(0);
    await s.wx.pay(orderNo, { silent: true });
    expect((await desk().ok(queryPayOrder.path, { orderNo })).status).toBe('exception');
    const o = await db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    expect(o.exceptionReason).toBe(PrepaidMsg.memberTotal(SH, yuan(2_000_000), yuan(1_995_000), yuan(9900)));
    expect(o.memberCardId).toBeNull();
  });

  it('refuses a transfer in that takes the new holder over the total, counting what remains on the card', async () => {
    const [a, b] = [await env().factory.member(), await env().factory.member()];
    const given = await sell(a.id, (await lessons({ price: 800_000 })).id, 10, 800_000);
    expect((await sell(b.id, (await lessons({ price: 1_500_000 })).id, 10, 1_500_000)).code).toBe(0);
    const body = { mcId: (given.data as { id: number }).id, toMid: b.id, fee: 0, futureBookings: 'keep' };
    const refused = await desk().call(transferMemberCard.path, body);
    expect([refused.status, refused.msg]).toEqual([
      409,
      PrepaidMsg.memberTotal(SH, yuan(2_000_000), yuan(1_500_000), yuan(800_000)),
    ]);
    // Used down to 4 of 10: 3,200 元 remain on it, 15,000 + 3,200 fits.
    await db().updateTable('memberCard').set({ usedCount: 6 }).where('id', '=', body.mcId).execute();
    expect((await desk().call(transferMemberCard.path, body)).code).toBe(0);
  });

  it('lists the cards sold before the limits that are over them, and why', async () => {
    await setRule('none');
    const m = await env().factory.member({ name: '老会员' });
    const big = await sell(m.id, (await lessons({ price: 2_500_000, cardName: '百节卡' })).id, 100, 2_500_000);
    await setRule('shanghai2025');
    const { ruleSet, list } = await desk().ok(queryCardsOverPrepaidLimit.path);
    expect(ruleSet).toBe('shanghai2025');
    expect(list.find((c: { mcId: number }) => c.mcId === (big.data as { id: number }).id)).toEqual({
      mcId: (big.data as { id: number }).id,
      memberId: m.id,
      memberName: '老会员',
      cardName: '百节卡',
      kind: 'lessons',
      createdAt: expect.any(String),
      over: [
        `次卡（课时卡）单卡金额不超过${yuan(2_000_000)}，本次${yuan(2_500_000)}`,
        '次卡（课时卡）课时数不超过60节，本次100节',
        `会员预付合计剩余${yuan(2_500_000)}，超过${yuan(2_000_000)}`,
      ],
    });
  });

  it('the invariant checker finds a card sold over the limits after they took effect', async () => {
    await setRule('none');
    const m = await env().factory.member();
    const big = await sell(m.id, (await lessons({ price: 2_500_000 })).id, 10, 2_500_000);
    await setRule('shanghai2025');
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
    // As if the limits had been set before that sale.
    const row = await db()
      .selectFrom('storeSetting')
      .select('value')
      .where('storeId', '=', env().storeId)
      .where('key', '=', 'prepaid-limits')
      .executeTakeFirstOrThrow();
    const setAt = (since: string) =>
      db()
        .updateTable('storeSetting')
        .set({ value: JSON.stringify({ ...JSON.parse(row.value), since }) })
        .where('storeId', '=', env().storeId)
        .where('key', '=', 'prepaid-limits')
        .execute();
    await setAt('2020-01-01 00:00:00');
    try {
      const problems = await checkInvariants(db(), env().storeId);
      expect(problems).toContainEqual(
        expect.stringContaining(`card ${(big.data as { id: number }).id}: sold ${(await cardRow(big)).createdAt}`),
      );
    } finally {
      await setAt(JSON.parse(row.value).since);
    }
  });

  it('two sales at once to one member, each within the total and together over it: exactly one', async () => {
    const rounds = env().dialect === 'postgres' ? 6 : 3;
    for (let round = 0; round < rounds; round++) {
      const m = await env().factory.member();
      const product = await lessons({ price: 1_200_000 });
      const clients = more.clients.length > 1 ? more.clients : [desk(), desk()];
      const answers = await Promise.all(
        clients
          .slice(0, 2)
          .map((c) =>
            c.call(insertMemberCard.path, { mid: m.id, cardId: product.id, totalCount: 10, payment: pay(1_200_000) }),
          ),
      );
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      expect(answers.find((a) => a.code !== 0)).toMatchObject({
        status: 409,
        msg: PrepaidMsg.memberTotal(SH, yuan(2_000_000), yuan(1_200_000), yuan(1_200_000)),
      });
      expect(await cardsOf(m.id)).toHaveLength(1);
    }
  });
});
