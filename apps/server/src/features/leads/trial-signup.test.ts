// 体验课报名 (issue 44, items 1 and 5): the public sign-up page behind the members' door (one
// address's flood of mobiles limited exactly as the code requests are, the store's hour, a solved
// challenge past them, one answer whatever the mobile), the lead it makes or merges into (线上报名,
// 已是会员), and the referral link: 转介绍 naming the member, none for oneself, a member or a
// mobile already a lead.
import {
  insertLead,
  LOGIN_CODE,
  memberChallenge,
  MemberMsg,
  memberReferral,
  memberTrialForm,
  memberTrialSignup,
  queryLeadList,
  TRIAL_SIGNUP,
  TrialMsg,
  type LeadRow,
} from '@studio/contract';
import { beforeEach, expect, it } from 'vitest';
import { addressMaker, ageCounters, solve, type Challenge } from '../../../test/public-door.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';

/** A fresh address of the documentation range, one per use (198.51.100.0/24 and beyond). */
const freshAddress = addressMaker(198, 51, 100);

describeEachDb('体验课报名: the public sign-up and referrals', (env) => {
  const db = () => env().database.db;
  beforeEach(async () => {
    // each test starts with the door's counters empty (they are the database's, per key)
    await db().deleteFrom('loginCounter').execute();
  });

  const form = (o: Record<string, unknown> = {}) => ({
    storeId: env().storeId,
    name: '林小姐',
    mobile: randomMobile(),
    interests: '流瑜伽',
    preferredTimes: '周末上午',
    ...o,
  });
  const signUp = (o: Record<string, unknown> = {}, from = freshAddress()) =>
    env().anon().from(from).call(memberTrialSignup.path, form(o));
  const leadOf = async (mobile: string): Promise<LeadRow | undefined> => {
    const page = await env().client.ok(queryLeadList.path, { scope: 'all', param: mobile, page: 1 });
    return (page.list as LeadRow[]).find((l) => l.mobile === mobile);
  };
  const leadCount = async () =>
    Number(
      (
        await db()
          .selectFrom('lead')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('storeId', '=', env().storeId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const age = (prefix: string, ms: number) => ageCounters(db(), prefix, ms);

  it('the page offers the store and its courses without a login; an unknown store is 404', async () => {
    const course = await env().factory.course({ name: '空中瑜伽' });
    const f = await env().anon().ok(memberTrialForm.path, { storeId: env().storeId });
    expect(f.interests).toContain(course.name);
    expect(typeof f.storeName).toBe('string');
    expect(await env().anon().call(memberTrialForm.path, { storeId: 999999 })).toMatchObject({
      status: 404,
      msg: '门店不存在',
    });
  });

  it('one address sending 100 mobiles: 5 leads, then every sign-up needs the challenge, as the code door', async () => {
    const members = [];
    for (let i = 0; i < 30; i++) members.push(await env().factory.member());
    const known = Array.from({ length: 20 }, randomMobile);
    for (const mobile of known) await env().client.ok(insertLead.path, { name: '老潜客', mobile, source: '电话' });
    const mobiles = [...members.map((m) => m.mobile), ...known, ...Array.from({ length: 50 }, randomMobile)];
    const before = await leadCount();
    const ip = freshAddress();
    const answers = [];
    for (const mobile of mobiles) answers.push(await signUp({ mobile }, ip));
    expect(answers.filter((a) => a.code === 0).length).toBe(LOGIN_CODE.freePerHour);
    expect(
      answers.slice(LOGIN_CODE.freePerHour).every((a) => a.status === 429 && a.msg === TrialMsg.needChallenge),
    ).toBe(true);
    // the five admitted were members' mobiles: five new leads (marked 已是会员), no more
    expect((await leadCount()) - before).toBe(LOGIN_CODE.freePerHour);
    for (const m of members.slice(0, LOGIN_CODE.freePerHour)) expect((await leadOf(m.mobile))?.memberId).toBe(m.id);
    expect(await leadOf(mobiles[LOGIN_CODE.freePerHour + 1])).toBeUndefined();

    // an hour later five more; the day's twenty end the free allowance
    for (let hour = 1; hour < LOGIN_CODE.freePerDay / LOGIN_CODE.freePerHour; hour++) {
      await age('tca:h:', 3600_000);
      for (let i = 0; i < LOGIN_CODE.freePerHour; i++) {
        expect((await signUp({ mobile: mobiles[hour * 5 + i] }, ip)).code).toBe(0);
      }
      expect((await signUp({ mobile: mobiles[hour * 5 + 5] }, ip)).msg).toBe(TrialMsg.needChallenge);
    }
    await age('tca:h:', 3600_000);
    expect(await signUp({ mobile: mobiles[40] }, ip)).toMatchObject({ status: 429, msg: TrialMsg.needChallenge });
    // past it, a solved challenge lets one sign-up through, once
    const c = (await env().anon().from(ip).ok(memberChallenge.path)) as Challenge;
    const solved = solve(c);
    expect((await signUp({ mobile: mobiles[60], altcha: solved }, ip)).code).toBe(0);
    expect(await signUp({ mobile: mobiles[61], altcha: solved }, ip)).toMatchObject({
      status: 400,
      msg: MemberMsg.badChallenge,
    });
    expect(await signUp({ mobile: mobiles[62], altcha: 'bm90IGpzb24=' }, ip)).toMatchObject({ status: 400 });
    expect((await leadOf(mobiles[60]))?.source).toBe('线上报名');
    expect(await leadOf(mobiles[61])).toBeUndefined();
    // the sign-ups did not spend the address's free code requests (their own counters)
    const rows = await db().selectFrom('loginCounter').select('key').where('key', 'like', 'mca:%').execute();
    expect(rows).toEqual([]);
  });

  it("the store's hour: past 30 sign-ups from many addresses each needs the challenge", async () => {
    const answers = [];
    for (let i = 0; i <= TRIAL_SIGNUP.storeFreePerHour; i++) answers.push(await signUp());
    expect(answers.slice(0, TRIAL_SIGNUP.storeFreePerHour).every((a) => a.code === 0)).toBe(true);
    expect(answers[TRIAL_SIGNUP.storeFreePerHour]).toMatchObject({ status: 429, msg: TrialMsg.needChallenge });
    // the refused request gave its address's allowance back: that address is not charged for it
    const c = (await env().anon().ok(memberChallenge.path)) as Challenge;
    expect((await signUp({ altcha: solve(c) })).code).toBe(0);
    await age('tcs:h:', 3600_000);
    expect((await signUp()).code).toBe(0);
  });

  it('a new mobile, a known lead and a member get identical answers, also when repeated at once', async () => {
    const m = await env().factory.member();
    const known = randomMobile();
    await env().client.ok(insertLead.path, { name: '老潜客', mobile: known, source: '电话' });
    const strip = (a: { status: number; code: number; msg: string; data: unknown }) => [
      a.status,
      a.code,
      a.msg,
      a.data,
    ];
    const fresh = randomMobile();
    const first = [
      await signUp({ mobile: fresh }),
      await signUp({ mobile: known }),
      await signUp({ mobile: m.mobile }),
    ];
    expect(strip(first[0])).toEqual([200, 0, '', null]);
    for (const a of first) expect(strip(a)).toEqual(strip(first[0]));
    const again = [
      await signUp({ mobile: fresh }),
      await signUp({ mobile: known }),
      await signUp({ mobile: m.mobile }),
    ];
    for (const a of again) expect(strip(a)).toEqual([429, 429, TrialMsg.tooSoon, null]);
    // the known lead kept its source and got the sign-up in its notes; the member's lead is 已是会员
    const k = await leadOf(known);
    expect(k).toMatchObject({ source: '电话', interests: '流瑜伽', preferredTimes: '周末上午' });
    expect(k?.notes).toContain('在线报名体验课');
    expect(await leadOf(fresh)).toMatchObject({ source: '线上报名', ownerId: null, stage: 'new', memberId: null });
    expect((await leadOf(m.mobile))?.memberId).toBe(m.id);
    // written by 系统 体验课报名 in the audit log
    const entry = await db()
      .selectFrom('auditLog as a')
      .innerJoin('auditTarget as t', 't.auditId', 'a.id')
      .select(['a.actorName', 'a.call', 'a.summary'])
      .where('t.type', '=', 'lead')
      .where('t.refId', '=', (await leadOf(fresh))!.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actorName: '体验课报名', call: memberTrialSignup.path });
  });

  it('bad input is a 400 in Chinese and writes nothing', async () => {
    const before = await leadCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, TrialMsg.name],
      [{ name: '王'.repeat(33) }, TrialMsg.nameLong],
      [{ mobile: '1380013800' }, '请输入正确的11位手机号'],
      [{ interests: '  ' }, TrialMsg.interest],
      [{ interests: '课'.repeat(201) }, TrialMsg.interestLong],
      [{ preferredTimes: '晚'.repeat(101) }, TrialMsg.timesLong],
    ];
    for (const [o, msg] of cases) expect(await signUp(o)).toMatchObject({ status: 400, msg });
    expect(await signUp({ storeId: 999999 })).toMatchObject({ status: 404, msg: '门店不存在' });
    expect(await leadCount()).toBe(before);
  });

  it('a referral link makes a 转介绍 lead naming the member; none for oneself, a member, a known mobile or a forged code', async () => {
    const referrer = await env().factory.member({ name: '推荐人甲' });
    const other = await env().factory.member({ name: '推荐人乙' });
    const phone = await memberClient(env(), referrer);
    const mine = await phone.ok(memberReferral.path);
    // stable, not the member's id, and a link to the store's sign-up page
    expect((await phone.ok(memberReferral.path)).code).toBe(mine.code);
    expect(mine.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(mine.code).not.toContain(String(referrer.id));
    expect(mine.url).toContain(`/m/?store=${env().storeId}&trial=1&ref=${mine.code}`);
    const theirs = await (await memberClient(env(), other)).ok(memberReferral.path);
    expect(theirs.code).not.toBe(mine.code);

    const friend = randomMobile();
    expect((await signUp({ mobile: friend, ref: mine.code })).code).toBe(0);
    expect(await leadOf(friend)).toMatchObject({
      source: '转介绍',
      referrerId: referrer.id,
      referrerName: '推荐人甲',
    });
    // already referred: another member's link later merges into the lead, the first referrer stays
    await age('tc1:', 60_000);
    expect((await signUp({ mobile: friend, ref: theirs.code })).code).toBe(0);
    expect(await leadOf(friend)).toMatchObject({ source: '转介绍', referrerId: referrer.id });

    // oneself: the lead is recorded (已是会员), not as a referral
    expect((await signUp({ mobile: referrer.mobile, ref: mine.code })).code).toBe(0);
    expect(await leadOf(referrer.mobile)).toMatchObject({
      source: '线上报名',
      referrerId: null,
      memberId: referrer.id,
    });
    // an existing member
    expect((await signUp({ mobile: other.mobile, ref: mine.code })).code).toBe(0);
    expect(await leadOf(other.mobile)).toMatchObject({ source: '线上报名', referrerId: null, memberId: other.id });
    // a mobile already a lead (到店)
    const walkIn = randomMobile();
    await env().client.ok(insertLead.path, { name: '到店客', mobile: walkIn, source: '到店' });
    expect((await signUp({ mobile: walkIn, ref: mine.code })).code).toBe(0);
    expect(await leadOf(walkIn)).toMatchObject({ source: '到店', referrerId: null });
    // a forged or altered code names nobody: a plain 线上报名, the same answer
    const forged = `${mine.code.slice(0, 21)}${mine.code.endsWith('A') ? 'B' : 'A'}`;
    for (const ref of [forged, 'x'.repeat(22), 'not-a-code']) {
      const mobile = randomMobile();
      expect((await signUp({ mobile, ref })).code).toBe(0);
      expect(await leadOf(mobile)).toMatchObject({ source: '线上报名', referrerId: null });
    }
  });
});
