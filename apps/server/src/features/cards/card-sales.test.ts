import {
  addMemberReservation,
  CardMsg,
  cardProductList,
  insertCardProduct,
  insertMemberCard,
  memberCardLedger,
  memberPayments,
  cardAlertList,
  reportOverview,
  refundMemberCard,
  topupMemberCard,
  updateMemberCardStatus,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

const money = { cardName: '储值卡', bigType: 2, cardType: 2, perCount: 5000, price: 100000 } as const;

describeEachDb('card sales, top-ups and refunds (money received)', (env) => {
  const ef = () => new EngineFactory(env().factory);

  /** A member and a money-card product the desk sells for 1,000.00 元. */
  async function sell(
    payment: Record<string, unknown> | undefined = { amount: 100000, method: 'wechat', remark: '开业活动' },
  ) {
    const { client, factory } = env();
    const member = await factory.member({ name: '王小美' });
    const { id: productId } = await client.ok(insertCardProduct.path, { ...money, totalCount: 120000, courseIds: [] });
    const { id } = await client.ok(insertMemberCard.path, {
      mid: member.id,
      cardId: productId,
      totalCount: 120000,
      ...(payment ? { payment } : {}),
    });
    return { member, productId, cardId: id as number };
  }
  const ledger = (id: number) => env().client.ok(memberCardLedger.path, { id });
  const payments = (mid: number) => env().client.ok(memberPayments.path, { mid });
  const card = (id: number) => ef().cardRow(id);

  it('keeps a product defaults for the issue form', async () => {
    const { client } = env();
    const { id } = await client.ok(insertCardProduct.path, {
      ...money,
      totalCount: 120000,
      validDays: 365,
      courseIds: [],
    });
    const list = await client.ok(cardProductList.path);
    expect(list.find((p: { id: number }) => p.id === id)).toMatchObject({ totalCount: 120000, validDays: 365 });
    const bad = await client.call(insertCardProduct.path, { ...money, validDays: 0, courseIds: [] });
    expect([bad.status, bad.msg]).toEqual([400, CardMsg.validDays]);
  });

  it('records the sale with its method and seller, on the ledger and the member payments', async () => {
    const { member, cardId } = await sell();
    const rows = await ledger(cardId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'issue',
      amount: 120000,
      remark: '开业活动',
      payment: { amount: 100000, method: 'wechat' },
      refunded: false,
    });
    expect(rows[0].operator).toBeTruthy();
    const list = await payments(member.id);
    expect(list).toEqual([
      expect.objectContaining({
        memberCardId: cardId,
        cardName: '储值卡',
        kind: 'sale',
        amount: 100000,
        method: 'wechat',
      }),
    ]);
    expect(list[0].staff).toBe(rows[0].operator);
  });

  it('validates the payment in Chinese', async () => {
    const { client, factory } = env();
    const m = await factory.member();
    const p = await factory.cardProduct();
    const noMethod = await client.call(insertMemberCard.path, {
      mid: m.id,
      cardId: p.id,
      totalCount: 10,
      expireTime: '2199-01-01',
      payment: { amount: 100 },
    });
    expect([noMethod.status, noMethod.msg]).toEqual([400, CardMsg.payMethod]);
    const bad = await client.call(insertMemberCard.path, {
      mid: m.id,
      cardId: p.id,
      totalCount: 10,
      expireTime: '2199-01-01',
      payment: { amount: -1, method: 'cash' },
    });
    expect([bad.status, bad.msg]).toEqual([400, '收款金额不能小于0']);
    const huge = await client.call(insertMemberCard.path, {
      mid: m.id,
      cardId: p.id,
      totalCount: 10,
      expireTime: '2199-01-01',
      payment: { amount: 1e15, method: 'cash' },
    });
    expect(huge.status).toBe(400);
    const count = await env().database.db.selectFrom('memberCard').select('id').where('memberId', '=', m.id).execute();
    expect(count).toEqual([]);
  });

  it('records a top-up payment and pays a top-up back once, from the balance', async () => {
    const { client } = env();
    const { member, cardId } = await sell();
    await client.ok(topupMemberCard.path, {
      id: cardId,
      amount: 50000,
      payment: { amount: 45000, method: 'cash', remark: '充500送50' },
    });
    const topup = (await ledger(cardId)).find((r: { kind: string }) => r.kind === 'topup');
    expect(topup).toMatchObject({ amount: 50000, payment: { amount: 45000, method: 'cash' }, refunded: false });
    expect((await card(cardId)).totalCount).toBe(170000);

    const tooMuch = await client.call(refundMemberCard.path, {
      id: cardId,
      topupId: topup.id,
      amount: 45001,
      method: 'cash',
    });
    expect([tooMuch.status, tooMuch.msg]).toEqual([409, CardMsg.refundTooMuch]);
    await client.ok(refundMemberCard.path, {
      id: cardId,
      topupId: topup.id,
      amount: 45000,
      method: 'cash',
      remark: '不想练了',
    });
    expect((await card(cardId)).totalCount).toBe(120000);
    const again = await client.call(refundMemberCard.path, {
      id: cardId,
      topupId: topup.id,
      amount: 0,
      method: 'cash',
    });
    expect([again.status, again.msg]).toEqual([409, CardMsg.topupRefunded]);
    expect((await card(cardId)).totalCount).toBe(120000);

    const rows = await ledger(cardId);
    expect(rows[0]).toMatchObject({ kind: 'topup_refund', amount: -50000, payment: { amount: 45000, method: 'cash' } });
    expect(rows.find((r: { id: number }) => r.id === topup.id).refunded).toBe(true);
    expect((await payments(member.id)).map((p: { kind: string; amount: number }) => [p.kind, p.amount])).toEqual([
      ['refund', 45000],
      ['topup', 45000],
      ['sale', 100000],
    ]);
    const issue = rows.find((r: { kind: string }) => r.kind === 'issue');
    const notTopup = await client.call(refundMemberCard.path, {
      id: cardId,
      topupId: issue.id,
      amount: 0,
      method: 'cash',
    });
    expect([notTopup.status, notTopup.msg]).toEqual([409, CardMsg.notTopup]);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('refuses to pay back a top-up the balance no longer holds', async () => {
    const { client } = env();
    const e = ef();
    const s = await e.scene({ product: { bigType: 1, perCount: 1, cardType: 2 } });
    const m = await env().factory.member();
    const { id: cardId } = await client.ok(insertMemberCard.path, { mid: m.id, cardId: s.product.id, totalCount: 0 });
    await client.ok(topupMemberCard.path, { id: cardId, amount: 2, payment: { amount: 200, method: 'alipay' } });
    const t1 = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 09:00:00` });
    await client.ok(addMemberReservation.path, { mcId: cardId, tid: t1.id, studentCount: 1, remark: '' });
    const topup = (await ledger(cardId)).find((r: { kind: string }) => r.kind === 'topup');
    const a = await client.call(refundMemberCard.path, {
      id: cardId,
      topupId: topup.id,
      amount: 200,
      method: 'alipay',
    });
    expect([a.status, a.msg]).toEqual([409, CardMsg.topupBalance]);
    expect((await card(cardId)).totalCount).toBe(2);
  });

  it('refunds a whole unused card; a booked one pays at most its quote, not while a class is to come; a refunded card is closed', async () => {
    const { client } = env();
    const { member, cardId } = await sell();
    await client.ok(refundMemberCard.path, { id: cardId, amount: 100000, method: 'wechat', remark: '七天无理由' });
    const c = await card(cardId);
    expect([c.totalCount, c.usedCount, c.refundedAt !== null]).toEqual([0, 0, true]);
    expect((await ledger(cardId))[0]).toMatchObject({ kind: 'card_refund', amount: -120000 });
    for (const [path, body] of [
      [topupMemberCard.path, { id: cardId, amount: 1 }],
      [updateMemberCardStatus.path, { id: cardId, frozen: 1 }],
      [refundMemberCard.path, { id: cardId, amount: 0, method: 'cash' }],
    ] as const) {
      const a = await client.call(path, body);
      expect([a.status, a.msg]).toEqual([409, CardMsg.refunded]);
    }
    const alerts = await client.ok(cardAlertList.path, { days: 365, minCount: 1000, minMoney: 1e9 });
    expect(alerts.map((a: { card: { id: number } }) => a.card.id)).not.toContain(cardId);
    expect((await payments(member.id))[0]).toMatchObject({ kind: 'refund', amount: 100000, method: 'wechat' });

    const e = ef();
    const s = await e.scene({ product: { bigType: 1, perCount: 1, cardType: 2 } });
    const { id: used } = await client.ok(insertMemberCard.path, {
      mid: member.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: 800, method: 'card' },
    });
    const t = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 10:00:00` });
    await client.ok(addMemberReservation.path, { mcId: used, tid: t.id, studentCount: 1, remark: '' });
    // Booked, not yet taken, right after the sale: not opened (issue 42, item 9), so the whole 8.00 元,
    // but the class to come keeps the card open.
    const above = await client.call(refundMemberCard.path, { id: used, amount: 801, method: 'card' });
    expect([above.status, above.msg]).toEqual([409, CardMsg.refundAboveQuote('8.00 元')]);
    const refused = await client.call(refundMemberCard.path, { id: used, amount: 800, method: 'card' });
    expect([refused.status, refused.msg]).toEqual([409, CardMsg.refundOpenBookings]);
    expect((await card(used)).refundedAt).toBeNull();
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('counts sales less refunds as money received in the report', async () => {
    const { client } = env();
    const { cardId } = await sell();
    await client.ok(topupMemberCard.path, { id: cardId, amount: 1000, payment: { amount: 1000, method: 'cash' } });
    const today = (
      await env().database.db.selectFrom('cardPayment').select('createdAt').executeTakeFirstOrThrow()
    ).createdAt.slice(0, 10);
    const before = await client.ok(reportOverview.path, { fromDate: today, toDate: today });
    const topup = (await ledger(cardId)).find((r: { kind: string }) => r.kind === 'topup');
    await client.ok(refundMemberCard.path, { id: cardId, topupId: topup.id, amount: 600, method: 'cash' });
    const after = await client.ok(reportOverview.path, { fromDate: today, toDate: today });
    expect(after.moneyReceived).toBe(before.moneyReceived - 600);
  });

  it('pays a top-up back once when two refunds race', async () => {
    const { client } = env();
    const { cardId } = await sell();
    await client.ok(topupMemberCard.path, { id: cardId, amount: 10000, payment: { amount: 10000, method: 'cash' } });
    const topup = (await ledger(cardId)).find((r: { kind: string }) => r.kind === 'topup');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.call(refundMemberCard.path, { id: cardId, topupId: topup.id, amount: 10000, method: 'cash' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.status).toBe(409);
    expect((await card(cardId)).totalCount).toBe(120000);
    const back = await env()
      .database.db.selectFrom('cardPayment')
      .select('id')
      .where('refundOf', '=', topup.id)
      .execute();
    expect(back).toHaveLength(1);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });
});
