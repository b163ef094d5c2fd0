// Commission on conversions (issue 44, item 4): a seller's setting gains an amount per lead (潜客) of
// theirs converted (已成交); the month's commission credits each conversion once, to the lead's owner
// when it converted (a pool lead: nobody), beside the rate on money received; a closed month keeps it.
import {
  insertCardProduct,
  insertLead,
  insertMemberCard,
  querySalesCommission,
  querySalesCommissionRateList,
  TeacherPayMsg,
  updateSalesCommissionRate,
  type CommissionRow,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { localDateTime } from '../../lib/time.ts';

const PAST = '2025-07';

describeEachDb('sales commission: per conversion', (env) => {
  let productId: number;
  let seller: Client;
  let sellerId: number;
  let managerId: number;
  const leads: number[] = [];
  let poolLead: number;
  const db = () => env().database.db;
  const thisMonth = () => localDateTime('Asia/Shanghai').slice(0, 7);
  const commission = (month: string) => env().client.ok<CommissionRow[]>(querySalesCommission.path, { month });
  const rowOf = (rows: CommissionRow[], staffId: number) => rows.find((r) => r.staffId === staffId);

  /** A member with a lead of their mobile (owned by `ownerId`, or in the pool), then a card sold to them by the manager. */
  async function convert(ownerId: number | null) {
    const m = await env().factory.member({ name: '成交潜客' });
    const { id } = await seller.ok<{ id: number }>(insertLead.path, {
      name: m.name,
      mobile: m.mobile,
      source: '团购',
      ownerId,
    });
    await env().client.ok(insertMemberCard.path, { mid: m.id, cardId: productId, totalCount: 20 });
    return { leadId: id, memberId: m.id };
  }

  beforeAll(async () => {
    const { client } = env();
    productId = (
      await client.ok<{ id: number }>(insertCardProduct.path, {
        cardName: '成交次卡',
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 100000,
        totalCount: 20,
        courseIds: [],
      })
    ).id;
    seller = await staffClient(env(), 'desk');
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
    managerId = (await client.ok<{ id: number }>('/api/auth/me')).id;
    await client.ok(updateSalesCommissionRate.path, { staffId: sellerId, rate: 5, perConversion: 3000 });
    const a = await convert(sellerId);
    const b = await convert(sellerId);
    leads.push(a.leadId, b.leadId);
    // A second card to a converted member: the lead converted once, no second conversion.
    await client.ok(insertMemberCard.path, { mid: a.memberId, cardId: productId, totalCount: 20 });
    poolLead = (await convert(null)).leadId;
  });

  it('credits each conversion once to the lead’s owner, at their per-conversion amount, beside the rate', async () => {
    const rows = await commission(thisMonth());
    const mine = rowOf(rows, sellerId)!;
    expect(mine.conversions.map((c) => [c.leadId, c.cardName])).toEqual([
      [leads[0], '成交次卡'],
      [leads[1], '成交次卡'],
    ]);
    expect([mine.perConversion, mine.conversionPay]).toEqual([3000, 6000]);
    // The seller sold nothing themselves (the manager did): their commission is the conversions'.
    expect([mine.sales, mine.commission]).toEqual([0, 6000]);
    // The pool lead's conversion is nobody's, nor the manager's who sold the cards.
    expect(rows.flatMap((r) => r.conversions).map((c) => c.leadId)).not.toContain(poolLead);
    expect(rowOf(rows, managerId)?.conversions ?? []).toEqual([]);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('the setting: listed, kept when only the rate changes, refused when negative', async () => {
    const list = async () =>
      (
        await env().client.ok<{ staffId: number; perConversion: number; rate: number }[]>(
          querySalesCommissionRateList.path,
        )
      ).find((r) => r.staffId === sellerId);
    expect(await list()).toMatchObject({ rate: 5, perConversion: 3000 });
    await env().client.ok(updateSalesCommissionRate.path, { staffId: sellerId, rate: 6 });
    expect(await list()).toMatchObject({ rate: 6, perConversion: 3000 });
    const bad = await env().client.call(updateSalesCommissionRate.path, {
      staffId: sellerId,
      rate: 6,
      perConversion: -1,
    });
    expect(`${bad.status} ${bad.msg}`).toBe(`400 ${TeacherPayMsg.perConversion}`);
    expect(await list()).toMatchObject({ rate: 6, perConversion: 3000 });
  });

  it('a closed month keeps its conversions at the amount of then; reopened, it counts the new amount', async () => {
    await db()
      .updateTable('lead')
      .set({ convertedAt: `${PAST}-15 10:00:00` })
      .where('id', 'in', leads)
      .execute();
    expect(rowOf(await commission(PAST), sellerId)).toMatchObject({ conversionPay: 6000, commission: 6000 });
    await env().client.ok('/store/api/close/sales/commission/month', { month: PAST });
    const closed = await commission(PAST);
    await env().client.ok(updateSalesCommissionRate.path, { staffId: sellerId, rate: 6, perConversion: 9900 });
    await db().updateTable('lead').set({ convertedOwnerId: managerId }).where('id', '=', leads[1]).execute();
    expect(await commission(PAST)).toEqual(closed);
    await env().client.ok('/store/api/reopen/sales/commission/month', { month: PAST, reason: '成交提成调整' });
    const live = await commission(PAST);
    expect(rowOf(live, sellerId)).toMatchObject({ conversionPay: 9900, commission: 9900 });
    expect(rowOf(live, managerId)?.conversions.map((c) => c.leadId)).toEqual([leads[1]]);
  });
});
