import { insertCardProduct, insertMemberCard, memberCardLedger, topupMemberCard } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('a card ledger reads in time order', (env) => {
  it('newest first by when each entry happened, not by when it was written; one moment in the order written', async () => {
    const { client, factory, database } = env();
    const member = await factory.member({ name: '顺序' });
    const { id: productId } = await client.ok(insertCardProduct.path, {
      cardName: '十次卡',
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 88000,
      totalCount: 10,
      courseIds: [],
    });
    const { id } = await client.ok(insertMemberCard.path, { mid: member.id, cardId: productId, totalCount: 10 });
    await client.ok(topupMemberCard.path, { id, amount: 5 });
    await client.ok(topupMemberCard.path, { id, amount: 3 });
    await client.ok(topupMemberCard.path, { id, amount: 2 });
    const written = (await client.ok(memberCardLedger.path, { id })) as { id: number; amount: number }[];
    const [issue, first, second, third] = [...written].sort((a, b) => a.id - b.id);
    // entries written in one order about moments in another (as a booking made earlier, recorded later)
    const at = async (entry: { id: number }, createdAt: string) =>
      database.db.updateTable('cardLedger').set({ createdAt }).where('id', '=', entry.id).execute();
    await at(issue, '2026-03-01 09:00:00');
    await at(first, '2026-03-05 10:00:00');
    await at(second, '2026-03-02 10:00:00');
    await at(third, '2026-03-02 10:00:00');

    const rows = (await client.ok(memberCardLedger.path, { id })) as { id: number; createdAt: string }[];
    expect(rows.map((r) => r.id)).toEqual([first.id, third.id, second.id, issue.id]);
    expect(rows.map((r) => r.createdAt.slice(0, 16))).toEqual([
      '2026-03-05 10:00',
      '2026-03-02 10:00',
      '2026-03-02 10:00',
      '2026-03-01 09:00',
    ]);
  });
});
