// A lead converts (issue 44, item 4's hook): the first card sold to the member holding its mobile, at
// the desk or online, makes it 已成交 once, credited to its owner and source, with the card; a card
// bought twice the same minute on two instances converts it once; the invariant checker holds it.
import {
  insertCardProduct,
  insertLead,
  insertMemberCard,
  LeadMsg,
  updateLead,
  updateLeadOwner,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, moreInstances, staffClient, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { buyOnline, onlineStoreOfFile } from '../../../test/payment-support.ts';

describeEachDb('leads: a card sold converts its lead once', (env) => {
  const instances = moreInstances(env, 1);
  const s = onlineStoreOfFile(env, () => instances.apps);
  let productId: number;
  let seller: Client;
  let sellerId: number;
  const db = () => env().database.db;
  const leadRow = (id: number) => db().selectFrom('lead').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    const { client } = env();
    productId = (
      await client.ok(insertCardProduct.path, {
        cardName: '20次卡',
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 200000,
        totalCount: 20,
        courseIds: [],
      })
    ).id;
    seller = await staffClient(env(), 'desk');
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
  });

  /** A member with a lead of their mobile, owned by the seller, from 团购. */
  async function memberWithLead() {
    const m = await env().factory.member({ name: '潜客转会员' });
    const { id } = await seller.ok(insertLead.path, {
      name: m.name,
      mobile: m.mobile,
      source: '团购',
      ownerId: sellerId,
    });
    return { m, leadId: id as number };
  }
  const sell = (c: Client, mid: number) => c.call(insertMemberCard.path, { mid, cardId: productId, totalCount: 20 });

  it('a desk sale converts the lead, credited to its owner and source, once', async () => {
    const { m, leadId } = await memberWithLead();
    const first = await sell(env().client, m.id);
    expect(first.code).toBe(0);
    expect(await leadRow(leadId)).toMatchObject({
      stage: 'won',
      convertedCardId: first.data.id,
      convertedMemberId: m.id,
      convertedOwnerId: sellerId,
      convertedSource: '团购',
    });
    // The sale's audit entry names the lead.
    const named = await db()
      .selectFrom('auditTarget as t')
      .innerJoin('auditLog as a', 'a.id', 't.auditId')
      .select(['a.call', 'a.kind'])
      .where('t.type', '=', 'lead')
      .where('t.refId', '=', leadId)
      .where('a.call', '=', insertMemberCard.path)
      .execute();
    expect(named).toEqual([{ call: insertMemberCard.path, kind: 'card' }]);
    // A second card, and a reassignment since: the conversion stays the first card's and owner's.
    await env().client.ok(updateLeadOwner.path, { ids: [leadId], ownerId: null });
    expect((await sell(env().client, m.id)).code).toBe(0);
    expect(await leadRow(leadId)).toMatchObject({ convertedCardId: first.data.id, convertedOwnerId: sellerId });
    // A 已成交 lead keeps its mobile (its card went to the member of that mobile); its name may change.
    const edit = (mobile: string) =>
      env().client.call(updateLead.path, { id: leadId, name: '潜客改名', mobile, source: '团购' });
    const moved = await edit('13900000000');
    expect([moved.status, moved.msg]).toEqual([409, LeadMsg.mobileWon]);
    expect((await edit(m.mobile)).status).toBe(200);
    expect(await leadRow(leadId)).toMatchObject({ name: '潜客改名', mobile: m.mobile, stage: 'won' });
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('a member without a lead buys: no lead is made or converted', async () => {
    const m = await env().factory.member();
    const before = await db().selectFrom('lead').select(['id', 'stage']).orderBy('id').execute();
    expect((await sell(env().client, m.id)).code).toBe(0);
    expect(await db().selectFrom('lead').select(['id', 'stage']).orderBy('id').execute()).toEqual(before);
  });

  it('an online order converts the lead', async () => {
    const { m, leadId } = await memberWithLead();
    const me = await memberClient(env(), m);
    const { orderNo } = await buyOnline(me, { productId: s.product.id, method: 'wechat_native' });
    await s.wx.pay(orderNo);
    const order = await db()
      .selectFrom('payOrder')
      .selectAll()
      .where('orderNo', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(order.memberCardId).not.toBeNull();
    expect(await leadRow(leadId)).toMatchObject({
      stage: 'won',
      convertedCardId: order.memberCardId,
      convertedSource: '团购',
    });
  });

  it('a card bought twice the same minute on two instances (PostgreSQL; one on SQLite): one conversion', async () => {
    for (let round = 0; round < 8; round++) {
      const { m, leadId } = await memberWithLead();
      const answers = await Promise.all(instances.clients.flatMap((c) => [sell(c, m.id), sell(c, m.id)]));
      expect(answers.map((a) => a.code)).toEqual(answers.map(() => 0));
      const lead = await leadRow(leadId);
      expect(lead.stage).toBe('won');
      expect(answers.map((a) => a.data.id)).toContain(lead.convertedCardId);
      // Exactly one sale's entry names the lead.
      const naming = await db()
        .selectFrom('auditTarget')
        .select('auditId')
        .where('type', '=', 'lead')
        .where('refId', '=', leadId)
        .where('auditId', 'in', (eb) =>
          eb.selectFrom('auditLog').select('id').where('call', '=', insertMemberCard.path),
        )
        .execute();
      expect(naming).toHaveLength(1);
    }
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('the invariant checker finds a converted lead whose card was sold to someone else', async () => {
    const { m, leadId } = await memberWithLead();
    const other = await env().factory.member();
    const card = await sell(env().client, other.id);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
    await db()
      .updateTable('lead')
      .set({ stage: 'won', convertedCardId: card.data.id, convertedMemberId: m.id, convertedAt: '2031-03-03 10:00:00' })
      .where('id', '=', leadId)
      .execute();
    expect(await checkInvariants(db(), env().storeId)).toEqual([
      `lead ${leadId}: card ${card.data.id} held by member ${other.id}, not ${m.id}`,
    ]);
    await db().updateTable('lead').set({ convertedMemberId: other.id }).where('id', '=', leadId).execute();
    expect(await checkInvariants(db(), env().storeId)).toEqual([
      `lead ${leadId}: converted member ${other.id} is not the store's member of ${m.mobile}`,
    ]);
    // Put right (the suite's invariant check after each test holds again).
    await db()
      .updateTable('lead')
      .set({ stage: 'new', convertedCardId: null, convertedMemberId: null, convertedAt: null })
      .where('id', '=', leadId)
      .execute();
  });
});
