// 转化漏斗 (issue 44, item 6): the funnel's numbers (in all, by source, by owner), its median days
// to the card and the lists behind them equal an independent count over a seeded month of leads,
// some made through the calls (follow-up, stage, a card sold at the desk), most written directly.
import {
  FUNNEL_STEPS,
  insertCardProduct,
  insertLead,
  insertLeadFollowUp,
  insertMemberCard,
  queryLeadFunnel,
  queryLeadFunnelList,
  ReportMsg,
  updateLeadStage,
  type FunnelCounts,
  type FunnelStep,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';

/** What the test knows of each lead it made: the credited owner (0: 公海), source, steps reached, days to card. */
interface Known {
  id: number;
  source: string;
  owner: number;
  steps: Set<FunnelStep>;
  days: number | null;
}

/** A small deterministic generator (the seed is fixed: the same month each run). */
function prng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s % n;
  };
}

/** The expected counts, counted plainly from what the test made. */
function expectedCounts(ls: Known[]): FunnelCounts {
  const days = ls.flatMap((l) => (l.days === null ? [] : [l.days])).sort((a, b) => a - b);
  const k = days.length;
  return {
    leads: ls.length,
    contacted: ls.filter((l) => l.steps.has('contacted')).length,
    trialBooked: ls.filter((l) => l.steps.has('trialBooked')).length,
    trialDone: ls.filter((l) => l.steps.has('trialDone')).length,
    converted: ls.filter((l) => l.steps.has('converted')).length,
    medianDays: k === 0 ? null : k % 2 ? days[(k - 1) / 2] : (days[k / 2 - 1] + days[k / 2]) / 2,
  };
}

describeEachDb('leads: the funnel equals an independent count', (env) => {
  const db = () => env().database.db;
  const range = { fromDate: '2030-01-01', toDate: '2030-01-31' };
  const known: Known[] = [];
  let deskId: number;
  let sellerId: number;
  let seller: Client;

  beforeAll(async () => {
    const { client, storeId } = env();
    const desk = await staffClient(env(), 'desk');
    deskId = (await desk.ok<{ id: number }>('/api/auth/me')).id;
    seller = await staffClient(env(), 'teacher', (await env().factory.teacher()).id);
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
    const owners = [deskId, sellerId, 0];
    const sources = ['到店', '电话', '团购'];
    const rnd = prng(44);

    // The month's 500 leads: 493 written directly, each with a fate (how far it went, and maybe
    // lost after), and 7 through the calls below.
    const fates: FunnelStep[][] = [
      [],
      ['contacted'],
      ['contacted', 'trialBooked'],
      ['contacted', 'trialBooked', 'trialDone'],
    ];
    const rows = [];
    for (let i = 0; i < 493; i++) {
      const day = `2030-01-${String(1 + rnd(31)).padStart(2, '0')}`;
      const at = `${day} ${String(8 + rnd(12)).padStart(2, '0')}:00:00`;
      const reach = fates[rnd(4)];
      const lost = reach.length > 0 && rnd(3) === 0;
      const owner = owners[rnd(3)];
      const source = sources[rnd(3)];
      const stage = lost ? 'lost' : (['new', 'contacted', 'trial_booked', 'trial_done'] as const)[reach.length];
      const then = `${addDays(day, 1)} 10:00:00`;
      rows.push({
        storeId,
        name: `种子${i}`,
        mobile: randomMobile(),
        source,
        interests: null,
        notes: null,
        preferredTimes: null,
        ownerId: owner || null,
        stage,
        lostReason: lost ? '不需要' : null,
        nextFollowUp: null,
        touchedAt: at,
        createdBy: null,
        createdAt: at,
        convertedCardId: null,
        convertedMemberId: null,
        convertedOwnerId: null,
        convertedSource: null,
        convertedAt: null,
        contactedAt: reach.includes('contacted') ? then : null,
        trialBookedAt: reach.includes('trialBooked') ? then : null,
        trialDoneAt: reach.includes('trialDone') ? then : null,
      });
      known.push({ id: 0, source, owner, steps: new Set<FunnelStep>(['leads', ...reach]), days: null });
    }
    const ids = await db().insertInto('lead').values(rows).returning('id').execute();
    ids.forEach((r, i) => (known[i].id = r.id));
    // Outside the range by a second on either side: not counted.
    for (const at of ['2029-12-31 23:59:59', '2030-02-01 00:00:00'])
      await db()
        .insertInto('lead')
        .values({ ...rows[0], name: '范围外', mobile: randomMobile(), createdAt: at, touchedAt: at })
        .execute();

    // 7 leads through the calls: followed up or staged by hand, then a card sold at the desk.
    const productId = (
      await client.ok(insertCardProduct.path, {
        cardName: '10次卡',
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 100000,
        totalCount: 10,
        courseIds: [],
      })
    ).id;
    for (let i = 0; i < 7; i++) {
      const m = await env().factory.member({ name: `成交${i}` });
      const source = sources[i % 3];
      const { id } = await seller.ok(insertLead.path, { name: m.name, mobile: m.mobile, source, ownerId: sellerId });
      const steps = new Set<FunnelStep>(['leads', 'contacted', 'converted']);
      if (i % 3 === 0) await seller.ok(insertLeadFollowUp.path, { leadId: id, way: 'visit', note: '到店看了' });
      if (i % 3 === 1) {
        // Straight to 已体验 by hand: 已联系 and 已约体验 are reached with it.
        await seller.ok(updateLeadStage.path, { id, stage: 'trial_done' });
        steps.add('trialBooked').add('trialDone');
      }
      // i % 3 === 2: a card bought with no follow-up at all still counts as contacted.
      expect((await client.call(insertMemberCard.path, { mid: m.id, cardId: productId, totalCount: 10 })).code).toBe(0);
      const days = [0, 3, 5, 8, 13, 21, 30][i];
      await db()
        .updateTable('lead')
        .set({ createdAt: `2030-01-01 09:00:00`, convertedAt: `${addDays('2030-01-01', days)} 18:00:00` })
        .where('id', '=', id)
        .execute();
      known.push({ id, source, owner: sellerId, steps, days });
    }
    // The manager reassigns a converted lead afterwards: still credited to the seller.
    await db().updateTable('lead').set({ ownerId: deskId }).where('id', '=', known.at(-1)!.id).execute();
  });

  it('counts each step, rates and median days in all, by source and by owner', async () => {
    const f = await env().client.ok(queryLeadFunnel.path, range);
    expect(f.total).toEqual(expectedCounts(known));
    expect(f.total.converted).toBe(7);
    expect(f.total.medianDays).toBe(8);
    const sources = [...new Set(known.map((l) => l.source))];
    expect(f.bySource.map((r: { source: string }) => r.source).sort()).toEqual(sources.sort());
    for (const r of f.bySource) {
      const { source, ...counts } = r;
      expect(counts).toEqual(expectedCounts(known.filter((l) => l.source === source)));
    }
    const owners = [...new Set(known.map((l) => l.owner))];
    expect(f.byOwner.map((r: { ownerId: number }) => r.ownerId).sort()).toEqual(owners.sort());
    for (const r of f.byOwner) {
      const { ownerId, ownerName, ...counts } = r;
      expect(counts).toEqual(expectedCounts(known.filter((l) => l.owner === ownerId)));
      if (ownerId === 0) expect(ownerName).toBe('公海');
    }
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('the leads behind each number are the ones counted', async () => {
    const { client } = env();
    for (const step of FUNNEL_STEPS) {
      const want = known.filter((l) => l.steps.has(step) && l.owner === sellerId && l.source === '电话');
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const p = await client.ok(queryLeadFunnelList.path, {
          ...range,
          step,
          ownerId: sellerId,
          source: '电话',
          page,
        });
        expect(p.total).toBe(want.length);
        ids.push(...p.list.map((l: { id: number }) => l.id));
        if (p.list.length < 20) break;
      }
      expect(ids.sort((a, b) => a - b)).toEqual(want.map((l) => l.id).sort((a, b) => a - b));
    }
    const pool = await client.ok(queryLeadFunnelList.path, { ...range, step: 'leads', ownerId: 0, page: 1 });
    expect(pool.total).toBe(known.filter((l) => l.owner === 0).length);
  });

  it('refuses a range past a year, or backwards, and a non-manager', async () => {
    const { client } = env();
    const long = await client.call(queryLeadFunnel.path, { fromDate: '2030-01-01', toDate: '2031-06-01' });
    expect([long.status, long.msg]).toEqual([400, ReportMsg.rangeMax]);
    const back = await client.call(queryLeadFunnel.path, { fromDate: '2030-02-01', toDate: '2030-01-01' });
    expect(back.status).toBe(400);
    expect((await seller.call(queryLeadFunnel.path, range)).status).toBe(403);
  });
});
