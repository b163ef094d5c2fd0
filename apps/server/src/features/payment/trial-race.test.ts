// 体验卡 once per member (issue 42), the race: the desk's 发卡 of a 体验卡 and the fulfilment of the
// member's paid 体验卡 order (closed here, paid late at WeChat) at the same instant. Each reads the
// once-per-member rule in its transaction; on PostgreSQL both could read before either wrote. Both
// lock the member's row first (db/locks.ts lockMember), so exactly one card results: the desk's sale
// (the order then 异常订单) or the order's (the desk refused, 409). Lined up on PostgreSQL (the test
// holds the member's row until both wait on it, so both would read before either writes) and free
// running many times on both databases.
import { insertMemberCard, PayMsg } from '@studio/contract';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { buyOnline, onlineStoreOfFile } from '../../../test/payment-support.ts';

const ROUNDS = Number(process.env.RACE_RUNS ?? 20);

describeEachDb('体验卡 once: the desk sells one while the member pays a closed 体验卡 order', (env) => {
  const s = onlineStoreOfFile(env);
  let trial: { id: number };
  const db = () => env().database.db;

  beforeAll(async () => {
    trial = await env().factory.cardProduct({
      cardName: '体验卡',
      totalCount: 1,
      onlineSale: 1,
      onlinePrice: 990,
      trial: 1,
    });
  });

  /** A member with a 体验卡 order closed here (its 15 minutes passed) that WeChat still lets them pay. */
  async function closedTrialOrder() {
    const m = await env().factory.member();
    const { orderNo } = await buyOnline(await memberClient(env(), m), { productId: trial.id, method: 'wechat_native' });
    await db()
      .updateTable('payOrder')
      .set({ status: 2, closedAt: localDateTime('Asia/Shanghai') })
      .where('orderNo', '=', orderNo)
      .execute();
    return { m, orderNo };
  }

  const sell = (mid: number) => env().client.call(insertMemberCard.path, { mid, cardId: trial.id, totalCount: 1 });

  /** Exactly one 体验卡: the desk's (the order 异常订单) or the order's (the desk refused). */
  async function oneCard(mid: number, orderNo: string, desk: { code: number; status?: number; msg: string }) {
    const cards = await db()
      .selectFrom('memberCard as mc')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select('mc.id')
      .where('mc.memberId', '=', mid)
      .where('p.trial', '=', 1)
      .execute();
    expect(cards).toHaveLength(1);
    const o = await db().selectFrom('payOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    if (desk.code === 0) {
      expect(o).toMatchObject({ status: 5, exceptionReason: PayMsg.trialOnce, memberCardId: null });
      return 'desk';
    }
    expect([desk.status, desk.msg]).toEqual([409, PayMsg.trialOnce]);
    expect(o).toMatchObject({ status: 1, memberCardId: cards[0].id });
    return 'order';
  }

  it('lined up (PostgreSQL): both wait on the member until both have started, then one card', async () => {
    if (env().dialect !== 'postgres') return;
    const won: string[] = [];
    for (let round = 0; round < 5; round++) {
      const { m, orderNo } = await closedTrialOrder();
      // The test holds the member's row: the desk's and the fulfilment's transactions both run up to it
      // (without the member's lock: past their reads, to the card's insert, whose foreign key waits).
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let holderPid = 0;
      let locked!: () => void;
      const taken = new Promise<void>((r) => (locked = r));
      const holder = db()
        .transaction()
        .execute(async (tx) => {
          holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0].pid;
          await sql`select id from member where id = ${m.id} for update`.execute(tx);
          locked();
          await held;
        });
      let desk: Promise<Awaited<ReturnType<typeof sell>>>;
      let paid: Promise<unknown>;
      try {
        await taken;
        desk = sell(m.id);
        paid = s.wx.pay(orderNo);
        const deadline = Date.now() + 15_000;
        for (;;) {
          // Waiting on the test's lock, or on one that waits on it (the second waits on the first's tuple lock).
          const { rows } = await sql<{ n: string }>`
            select count(*) as n from pg_stat_activity a
            where ${holderPid} = any(pg_blocking_pids(a.pid))
               or exists (select 1 from unnest(pg_blocking_pids(a.pid)) b where ${holderPid} = any(pg_blocking_pids(b)))`.execute(
            db(),
          );
          if (Number(rows[0].n) >= 2) break;
          if (Date.now() > deadline) throw new Error('the desk and the fulfilment did not both reach the member');
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        release();
        await holder;
      }
      const [answer] = await Promise.all([desk, paid]);
      won.push(await oneCard(m.id, orderNo, answer));
    }
    expect(won).toHaveLength(5);
  }, 120_000);

  it(`${ROUNDS} times at once: one 体验卡 each time`, async () => {
    const won: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const { m, orderNo } = await closedTrialOrder();
      const [desk] = await Promise.all([sell(m.id), s.wx.pay(orderNo)]);
      const w = await oneCard(m.id, orderNo, desk);
      won[w] = (won[w] ?? 0) + 1;
    }
    expect((won.desk ?? 0) + (won.order ?? 0)).toBe(ROUNDS);
  }, 120_000);
});
