// The members' door (issue 32, items 1-3): anyone on the internet reaches /member/api/auth/*. Texts
// cost the studio money, a stranger must not lock a member out, and nothing tells members from
// strangers. Texts are counted where they arrive: at a local stand-in of the SMS provider.
import {
  createMemberLoginCode,
  LOGIN_CODE,
  memberChallenge,
  memberLogin,
  MemberMsg,
  memberSendCode,
  querySmsSetting,
  queryToday,
  updateSmsSetting,
} from '@studio/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { textsSettled } from '../../src/features/messaging/sms.ts';
import { addressMaker, ageCounters, solve, type Challenge } from '../public-door.ts';
import { describeEachDb } from '../harness.ts';
import { randomMobile } from '../factory.ts';
import { startSmsStandIn } from '../sms-stand-in.ts';

/** A fresh address of the documentation range, one per use (203.0.113.0/24 and beyond). */
const freshAddress = addressMaker(203, 0, 113);

describeEachDb("the members' door: texts, lock-outs, enumeration", (env) => {
  let standIn: Awaited<ReturnType<typeof startSmsStandIn>>;
  const desk = () => env().client;
  const db = () => env().database.db;

  beforeAll(async () => {
    standIn = await startSmsStandIn(env().app);
  });
  afterAll(() => standIn.close());
  beforeEach(async () => {
    await desk().ok(updateSmsSetting.path, { ...standIn.setting('tencent', 'tencent-secret-key-0123'), dailyCap: 500 });
    // each test starts with the door's counters empty (they are the database's, per key)
    await db().deleteFrom('loginCounter').execute();
  });

  const sendCode = (mobile: string, from: string, altcha?: string) =>
    env()
      .anon()
      .from(from)
      .call(memberSendCode.path, { storeId: env().storeId, mobile, ...(altcha ? { altcha } : {}) });
  const members = async (n: number) => {
    const list: { id: number; mobile: string }[] = [];
    for (let i = 0; i < n; i++) list.push(await env().factory.member());
    return list;
  };
  /** Texts that arrived at the stand-in since `before`, once every text handed off is sent. */
  const textsSince = async (before: number) => {
    await textsSettled();
    return standIn.received.slice(before);
  };
  const age = (prefix: string, ms: number) => ageCounters(db(), prefix, ms);

  it('a flood over 60 mobiles from one address sends 5 texts, then every request needs the challenge', async () => {
    const ms = await members(40);
    const mobiles = [...ms.map((m) => m.mobile), ...Array.from({ length: 20 }, randomMobile)];
    const before = standIn.received.length;
    const ip = freshAddress();
    const answers = [];
    for (const mobile of mobiles) answers.push(await sendCode(mobile, ip));
    const ok = answers.filter((a) => a.code === 0);
    expect(ok.length).toBe(LOGIN_CODE.freePerHour);
    expect(
      answers.slice(LOGIN_CODE.freePerHour).every((a) => a.status === 429 && a.msg === MemberMsg.needChallenge),
    ).toBe(true);
    // the five admitted were members (the first 40 mobiles): five texts, no more
    expect((await textsSince(before)).length).toBe(LOGIN_CODE.freePerHour);

    // an hour later five more; the day's twenty are the end of the free allowance
    for (let hour = 1; hour < LOGIN_CODE.freePerDay / LOGIN_CODE.freePerHour; hour++) {
      await age('mca:h:', 3600_000);
      for (let i = 0; i < LOGIN_CODE.freePerHour; i++) {
        expect((await sendCode(mobiles[hour * 5 + i], ip)).code).toBe(0);
      }
      expect((await sendCode(mobiles[hour * 5 + 5], ip)).msg).toBe(MemberMsg.needChallenge);
    }
    await age('mca:h:', 3600_000);
    expect(await sendCode(mobiles[30], ip)).toMatchObject({ status: 429, msg: MemberMsg.needChallenge });
    expect((await textsSince(before)).length).toBe(LOGIN_CODE.freePerDay);
  });

  it('a flood from 30 addresses is held by the store cap: exactly the cap in texts, then 429 for all, shown to the manager and in 今日', async () => {
    await desk().ok(updateSmsSetting.path, { ...standIn.setting('tencent'), dailyCap: 12 });
    const ms = await members(60);
    const before = standIn.received.length;
    const answers = await Promise.all(
      ms.map((m, i) => sendCode(m.mobile, `198.18.${Math.floor(i / 2)}.9`)), // two requests per address
    );
    await textsSettled();
    const texts = await textsSince(before);
    expect(texts.length).toBe(12);
    // every answer is code 0 until the cap is seen, then 429 in words; never a 5xx
    expect(answers.every((a) => a.code === 0 || (a.status === 429 && a.msg === MemberMsg.smsCapReached))).toBe(true);
    const setting = await desk().ok(querySmsSetting.path);
    expect(setting).toMatchObject({ dailyCap: 12, sentToday: 12, capReached: true });
    expect((await desk().ok(queryToday.path, {})).smsCapReached).toBe(true);
    expect(await sendCode(ms[0].mobile, freshAddress())).toMatchObject({ status: 429, msg: MemberMsg.smsCapReached });
    // the desk still gives codes (no text)
    expect((await desk().call(createMemberLoginCode.path, { memberId: ms[0].id })).code).toBe(0);
    await desk().ok(updateSmsSetting.path, { ...standIn.setting('tencent'), dailyCap: 500 });
    expect((await desk().ok(queryToday.path, {})).smsCapReached).toBe(false);
  });

  it('past the allowance a solved challenge lets a request through once; a replayed, forged or expired one is refused', async () => {
    const [m1, m2, m3] = await members(3);
    const ip = freshAddress();
    for (let i = 0; i < LOGIN_CODE.freePerHour; i++) await sendCode(randomMobile(), ip);
    expect((await sendCode(m1.mobile, ip)).msg).toBe(MemberMsg.needChallenge);

    const anon = env().anon().from(ip);
    const c = (await anon.ok(memberChallenge.path)) as Challenge;
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: LOGIN_CODE.challengeMaxNumber });
    expect(c.salt).toMatch(/expires=\d+/);
    const solved = solve(c);
    const before = standIn.received.length;
    expect((await sendCode(m1.mobile, ip, solved)).code).toBe(0);
    expect((await textsSince(before)).map((t) => t.mobile)).toEqual([`+86${m1.mobile}`]);
    // the same solution again (any mobile, any address): refused
    expect(await sendCode(m2.mobile, freshAddress(), solved)).toMatchObject({
      status: 400,
      msg: MemberMsg.badChallenge,
    });
    // a wrong number, a forged signature, garbage
    const c2 = (await anon.ok(memberChallenge.path)) as Challenge;
    expect(await sendCode(m2.mobile, ip, solve(c2, { number: c2.maxnumber + 1 }))).toMatchObject({
      status: 400,
      msg: MemberMsg.badChallenge,
    });
    expect(await sendCode(m2.mobile, ip, solve(c2, { signature: 'a'.repeat(64) }))).toMatchObject({ status: 400 });
    expect(await sendCode(m2.mobile, ip, 'bm90IGpzb24=')).toMatchObject({ status: 400, msg: MemberMsg.badChallenge });
    // an expired challenge: its expiry is in its signed salt, so one made 11 minutes ago is refused
    const old = (await anon.ok(memberChallenge.path)) as Challenge;
    const realNow = Date.now;
    Date.now = () => realNow() + LOGIN_CODE.challengeTtlMs + 60_000;
    try {
      expect(await sendCode(m3.mobile, ip, solve(old))).toMatchObject({ status: 400, msg: MemberMsg.badChallenge });
    } finally {
      Date.now = realNow;
    }
    expect((await textsSince(before)).length).toBe(1);
  });

  it('members and strangers get identical answers to a code request and to a wrong login', async () => {
    const [m] = await members(1);
    const stranger = randomMobile();
    const strip = (a: { status: number; code: number; msg: string; data: unknown }) => [
      a.status,
      a.code,
      a.msg,
      a.data,
    ];
    const ipA = freshAddress();
    const ipB = freshAddress();
    expect(strip(await sendCode(m.mobile, ipA))).toEqual(strip(await sendCode(stranger, ipB)));
    // at once again: the per-mobile minute holds for both
    const again = [await sendCode(m.mobile, ipA), await sendCode(stranger, ipB)];
    expect(strip(again[0])).toEqual([429, 429, MemberMsg.tooSoon, null]);
    expect(strip(again[1])).toEqual(strip(again[0]));
    // wrong logins: a member with a live code, a member without one, a stranger: one answer
    const login = (mobile: string) =>
      env().anon().from(freshAddress()).call(memberLogin.path, { storeId: env().storeId, mobile, code: '000000' });
    const [noCode] = await members(1);
    const answers = [await login(m.mobile), await login(noCode.mobile), await login(stranger)];
    for (const a of answers) expect(strip(a)).toEqual([401, 401, MemberMsg.badCode, null]);
  });

  it('a stranger cannot lock a member out: after a flood of requests and guesses the desk code still signs in', async () => {
    const [m] = await members(1);
    // a stranger uses up the member's texts of the day from many addresses...
    for (let i = 0; i < LOGIN_CODE.perDay + 3; i++) {
      await sendCode(m.mobile, freshAddress());
      await age('mc1:', LOGIN_CODE.gapMs + 1000);
    }
    expect(await sendCode(m.mobile, freshAddress())).toMatchObject({ status: 429, msg: MemberMsg.tooMany });
    // ...the desk still gives a code...
    const given = await desk().call(createMemberLoginCode.path, { memberId: m.id });
    expect(given.code).toBe(0);
    const code: string = given.data.code;
    // ...which five wrong guesses from each of three other addresses do not end
    const wrong = code === '000000' ? '111111' : '000000';
    for (let a = 0; a < 3; a++) {
      const ip = freshAddress();
      for (let i = 0; i < LOGIN_CODE.maxTries + 1; i++) {
        const r = await env()
          .anon()
          .from(ip)
          .call(memberLogin.path, { storeId: env().storeId, mobile: m.mobile, code: wrong });
        expect(r).toMatchObject({ status: 401, msg: MemberMsg.badCode });
      }
    }
    const mine = await env()
      .anon()
      .from(freshAddress())
      .call(memberLogin.path, { storeId: env().storeId, mobile: m.mobile, code });
    expect(mine.code, mine.msg).toBe(0);
  });

  it('31 wrong logins from one address: 30 answered 401, the 31st and later 429, in the database for every instance', async () => {
    const [m] = await members(1);
    const ip = freshAddress();
    const guess = (mobile: string, code: string, from = ip) =>
      env().anon().from(from).call(memberLogin.path, { storeId: env().storeId, mobile, code });
    const answers = [];
    for (let i = 0; i < LOGIN_CODE.loginPerAddress + 1; i++) {
      answers.push(await guess(randomMobile(), String(100000 + i)));
    }
    expect(answers.slice(0, LOGIN_CODE.loginPerAddress).every((a) => a.status === 401)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ status: 429, msg: MemberMsg.loginLocked });
    const row = await db()
      .selectFrom('loginCounter')
      .select('n')
      .where('key', '=', `mli:${ip}`)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(LOGIN_CODE.loginPerAddress);
    // even the right code is not checked from that address now; from another it is
    const { code } = await desk().ok(createMemberLoginCode.path, { memberId: m.id });
    expect(await guess(m.mobile, code)).toMatchObject({ status: 429, msg: MemberMsg.loginLocked });
    expect((await guess(m.mobile, code, freshAddress())).code).toBe(0);
    // fifteen minutes later the address may try again
    await age('mli:', LOGIN_CODE.loginWindowMs);
    expect((await guess(randomMobile(), '123456')).status).toBe(401);
  });
});
