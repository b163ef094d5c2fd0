// 转介绍奖励 (issue 44, item 5): a referred friend's first card (or first class: the store's setting)
// gives the referrer the store's reward once, on their card of the kind with its one ledger entry;
// none for oneself, an existing member or a mobile already referred (its first referrer only); two
// triggers at once on two instances reward once; a reward without a card waits (待发放) and is granted
// later; 撤销奖励 takes it back with a reversing entry; the invariant checker holds every step.
import {
  addMemberReservation,
  grantReferralReward,
  insertMemberCard,
  markAttendanceCall,
  memberReferral,
  memberTrialSignup,
  queryReferralRewardList,
  queryReferralSetting,
  ReferralMsg,
  undoReferralReward,
  updateReferralSetting,
  type ReferralReward,
  type ReferralSetting,
} from '@studio/contract';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { addressMaker } from '../../../test/public-door.ts';

const freshAddress = addressMaker(198, 51, 120);

describeEachDb('转介绍奖励: the referrer rewarded once', (env) => {
  const instances = moreInstances(env, 1);
  const db = () => env().database.db;
  const now = () => localDateTime('Asia/Shanghai');
  let countProduct: number;
  let periodProduct: number;
  let moneyProduct: number;

  beforeAll(async () => {
    const f = env().factory;
    countProduct = (await f.cardProduct({ cardName: '推荐次卡', perCount: 1 })).id;
    periodProduct = (await f.cardProduct({ cardName: '推荐期限卡', perCount: 0, cardType: 1 })).id;
    moneyProduct = (await f.cardProduct({ cardName: '推荐储值卡', bigType: 2, perCount: 100 })).id;
  });
  beforeEach(async () => {
    await db().deleteFrom('loginCounter').execute();
  });

  const setting = (s: Partial<ReferralSetting> = {}) =>
    env().client.ok(updateReferralSetting.path, { enabled: true, trigger: 'card', kind: 'lessons', amount: 3, ...s });
  /** A referrer holding a card of `productId` (a 期限卡 with an expiry), and their referral code. */
  async function referrer(productId = countProduct, card: Record<string, unknown> = {}) {
    const m = await env().factory.member({ name: `推荐人${randomMobile().slice(-4)}` });
    const c = await env().factory.memberCard(m.id, productId, { totalCount: 10, ...card });
    const { code } = await (await memberClient(env(), m)).ok(memberReferral.path);
    return { m, card: c, code: code as string };
  }
  const signUp = (mobile: string, ref: string) =>
    env().anon().from(freshAddress()).call(memberTrialSignup.path, {
      storeId: env().storeId,
      name: '好友',
      mobile,
      interests: '流瑜伽',
      preferredTimes: '周末',
      ref,
    });
  /** A friend signed up through `code`, then made a member at the desk. */
  async function friendOf(code: string) {
    const mobile = randomMobile();
    expect((await signUp(mobile, code)).code).toBe(0);
    const m = await env().factory.member({ name: `好友${mobile.slice(-4)}`, mobile, createdAt: now() });
    return m;
  }
  const sell = (mid: number, c = env().client) =>
    c.call(insertMemberCard.path, { mid, cardId: countProduct, totalCount: 10 });
  const cardRow = (id: number) =>
    db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const ledgerOf = (cardId: number, kind: string) =>
    db()
      .selectFrom('cardLedger')
      .select(['kind', 'amount', 'remark'])
      .where('memberCardId', '=', cardId)
      .where('kind', '=', kind)
      .execute();
  const rewardsOf = (referrerId: number) =>
    db().selectFrom('referralReward').selectAll().where('referrerMemberId', '=', referrerId).execute();
  const listed = async (id: number) =>
    ((await env().client.ok(queryReferralRewardList.path, { page: 1 })).list as ReferralReward[]).find(
      (r) => r.id === id,
    );
  const invariants = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  it('the setting: off until saved, validated in Chinese, saved and read back', async () => {
    const bad = await env().client.call(updateReferralSetting.path, {
      enabled: true,
      trigger: 'card',
      kind: 'lessons',
      amount: 0,
    });
    expect([bad.status, bad.msg]).toEqual([400, ReferralMsg.amount]);
    const tooMuch = await env().client.call(updateReferralSetting.path, {
      enabled: true,
      trigger: 'card',
      kind: 'lessons',
      amount: 101,
    });
    expect([tooMuch.status, tooMuch.msg]).toEqual([400, ReferralMsg.amountMax('lessons')]);
    await setting({ kind: 'money', amount: 5000 });
    expect(await env().client.ok(queryReferralSetting.path, {})).toEqual({
      enabled: true,
      trigger: 'card',
      kind: 'money',
      amount: 5000,
    });
  });

  it("a friend's first card: 3 classes on the referrer's card once, in its ledger; 撤销奖励 takes them back", async () => {
    await setting();
    const r = await referrer();
    const friend = await friendOf(r.code);
    expect((await sell(friend.id)).code).toBe(0);
    const [reward] = await rewardsOf(r.m.id);
    expect(reward).toMatchObject({ status: 'granted', kind: 'lessons', amount: 3, memberCardId: r.card.id });
    expect(Number((await cardRow(r.card.id)).totalCount)).toBe(13);
    expect(await ledgerOf(r.card.id, 'referral')).toEqual([
      { kind: 'referral', amount: 3, remark: `转介绍奖励：推荐好友 ${friend.name}（${friend.mobile}）` },
    ]);
    expect(await listed(reward.id)).toMatchObject({
      referrerName: r.m.name,
      friendName: friend.name,
      trigger: 'card',
      status: 'granted',
      cardName: '推荐次卡',
    });
    // a second card is no first card: nothing more
    expect((await sell(friend.id)).code).toBe(0);
    expect(await rewardsOf(r.m.id)).toHaveLength(1);
    expect(Number((await cardRow(r.card.id)).totalCount)).toBe(13);
    await invariants();

    // 撤销奖励: a reversing entry, the card as before; twice is refused
    expect((await env().client.call(undoReferralReward.path, { id: reward.id })).code).toBe(0);
    expect(Number((await cardRow(r.card.id)).totalCount)).toBe(10);
    expect((await ledgerOf(r.card.id, 'referral_undone')).map((e) => Number(e.amount))).toEqual([-3]);
    expect(await listed(reward.id)).toMatchObject({ status: 'undone' });
    const again = await env().client.call(undoReferralReward.path, { id: reward.id });
    expect([again.status, again.msg]).toEqual([409, ReferralMsg.notGranted]);
    expect(await ledgerOf(r.card.id, 'referral_undone')).toHaveLength(1);
    await invariants();
  });

  it('no reward for oneself, an existing member, or a mobile already referred (its first referrer only)', async () => {
    await setting();
    const r = await referrer();
    // oneself: the referrer signs up through their own link and buys
    expect((await signUp(r.m.mobile, r.code)).code).toBe(0);
    expect((await sell(r.m.id)).code).toBe(0);
    // an existing member through the link
    const existing = await env().factory.member({ name: '老会员' });
    expect((await signUp(existing.mobile, r.code)).code).toBe(0);
    expect((await sell(existing.id)).code).toBe(0);
    // a lead naming a referrer whose friend was a member before the referral: still none
    const before = await env().factory.member({ name: '早已是会员' });
    expect((await signUp(before.mobile, r.code)).code).toBe(0);
    await db()
      .updateTable('lead')
      .set({ referrerMemberId: r.m.id, source: '转介绍' })
      .where('mobile', '=', before.mobile)
      .execute();
    expect((await sell(before.id)).code).toBe(0);
    expect(await rewardsOf(r.m.id)).toEqual([]);
    expect(Number((await cardRow(r.card.id)).totalCount)).toBe(10);

    // a mobile already referred: a second referrer's link keeps the first, who alone is rewarded
    const second = await referrer();
    const mobile = randomMobile();
    expect((await signUp(mobile, r.code)).code).toBe(0);
    await db().deleteFrom('loginCounter').execute();
    expect((await signUp(mobile, second.code)).code).toBe(0);
    const friend = await env().factory.member({ name: '被推荐两次', mobile, createdAt: now() });
    expect((await sell(friend.id)).code).toBe(0);
    expect((await rewardsOf(r.m.id)).map((x) => x.friendMemberId)).toEqual([friend.id]);
    expect(await rewardsOf(second.m.id)).toEqual([]);
    await invariants();
  });

  it("a friend's first class, marked at once on two instances twice: one reward of 30 days on the referrer's 期限卡", async () => {
    await setting({ trigger: 'class', kind: 'days', amount: 30 });
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ course: { name: '推荐体验课' } });
    for (let round = 0; round < 3; round++) {
      // started today for a year (expiry = start + validity, as the checker holds)
      const today = now().slice(0, 10);
      const until = (days: number) => `${addDays(today, days)} 23:59:59`;
      const period = (days: number) => ({
        activateTime: `${today} 00:00:00`,
        validDays: days,
        expireTime: until(days),
      });
      const r = await referrer(periodProduct, period(365));
      // a shorter 期限卡 too: the reward goes on the one lasting longest
      const shorter = await env().factory.memberCard(r.m.id, periodProduct, period(100));
      const friend = await friendOf(r.code);
      const card = await env().factory.memberCard(friend.id, s.product.id, { totalCount: 10 });
      const reservations: number[] = [];
      for (let i = 0; i < 2 * instances.clients.length; i++) {
        const session = await e.session({
          courseId: s.course.id,
          teacherId: s.teacher.id,
          startTime: `2099-0${round + 1}-1${i} 10:00:00`,
        });
        await env().client.ok(addMemberReservation.path, { mcId: card.id, tid: session.id, studentCount: 1 });
        const row = await db()
          .selectFrom('reservation')
          .select('id')
          .where('timetableId', '=', session.id)
          .where('memberId', '=', friend.id)
          .executeTakeFirstOrThrow();
        reservations.push(row.id);
      }
      const answers = await Promise.all(
        reservations.map((id, i) =>
          instances.clients[i % instances.clients.length].call(markAttendanceCall.path, {
            reservationId: id,
            attended: 1,
          }),
        ),
      );
      expect(answers.map((a) => a.code)).toEqual(answers.map(() => 0));
      const rewards = await rewardsOf(r.m.id);
      expect(rewards).toMatchObject([{ status: 'granted', kind: 'days', amount: 30, memberCardId: r.card.id }]);
      expect((await cardRow(r.card.id)).expireTime).toBe(until(395));
      expect((await cardRow(r.card.id)).validDays).toBe(395);
      expect((await cardRow(shorter.id)).expireTime).toBe(until(100));
      expect(await ledgerOf(r.card.id, 'referral')).toHaveLength(1);
      if (round === 0) {
        // 撤销奖励: the days come off again
        expect((await env().client.call(undoReferralReward.path, { id: rewards[0].id })).code).toBe(0);
        expect((await cardRow(r.card.id)).expireTime).toBe(until(365));
        expect((await cardRow(r.card.id)).validDays).toBe(365);
      }
    }
    await invariants();
  });

  it('a referrer without a money card: the reward waits (待发放), then is granted once they hold one', async () => {
    await setting({ kind: 'money', amount: 5000 });
    const r = await referrer();
    const friend = await friendOf(r.code);
    expect((await sell(friend.id)).code).toBe(0);
    const [reward] = await rewardsOf(r.m.id);
    expect(reward).toMatchObject({ status: 'pending', memberCardId: null, ledgerId: null });
    expect(await listed(reward.id)).toMatchObject({ status: 'pending', cardName: null });
    const early = await env().client.call(grantReferralReward.path, { id: reward.id });
    expect([early.status, early.msg]).toEqual([409, ReferralMsg.noCard]);
    const undo = await env().client.call(undoReferralReward.path, { id: reward.id });
    expect([undo.status, undo.msg]).toEqual([409, ReferralMsg.notGranted]);
    await invariants();

    const money = await env().factory.memberCard(r.m.id, moneyProduct, { totalCount: 100_00 });
    expect((await env().client.call(grantReferralReward.path, { id: reward.id })).code).toBe(0);
    expect(Number((await cardRow(money.id)).totalCount)).toBe(150_00);
    expect(await listed(reward.id)).toMatchObject({ status: 'granted', cardName: '推荐储值卡', amount: 5000 });
    const twice = await env().client.call(grantReferralReward.path, { id: reward.id });
    expect([twice.status, twice.msg]).toEqual([409, ReferralMsg.notPending]);
    const missing = await env().client.call(grantReferralReward.path, { id: 999_999 });
    expect(missing.status).toBe(404);
    await invariants();
  });

  it('a reward the card has spent cannot be taken back; the invariant checker finds a reward without its entry', async () => {
    await setting({ amount: 2 });
    const r = await referrer(countProduct, { totalCount: 0 });
    const friend = await friendOf(r.code);
    expect((await sell(friend.id)).code).toBe(0);
    const [reward] = await rewardsOf(r.m.id);
    // the 2 classes used since (a class bought outside the engine: the card's use)
    await db().updateTable('memberCard').set({ usedCount: 2 }).where('id', '=', r.card.id).execute();
    const undo = await env().client.call(undoReferralReward.path, { id: reward.id });
    expect([undo.status, undo.msg]).toEqual([409, ReferralMsg.cannotTakeBack]);
    expect(await listed(reward.id)).toMatchObject({ status: 'granted' });
    await db().updateTable('memberCard').set({ usedCount: 0 }).where('id', '=', r.card.id).execute();
    // the checker: a reward whose entry is gone
    await db().updateTable('referralReward').set({ ledgerId: null }).where('id', '=', reward.id).execute();
    const problems = await checkInvariants(db(), env().storeId);
    expect(problems.some((p) => p.startsWith(`reward ${reward.id}: no referral entry`))).toBe(true);
    expect(problems.some((p) => p.includes('a referral entry of no reward'))).toBe(true);
    await db().updateTable('referralReward').set({ ledgerId: reward.ledgerId }).where('id', '=', reward.id).execute();
    await invariants();
  });
});
