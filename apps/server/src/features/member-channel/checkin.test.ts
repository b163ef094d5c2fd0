// 签到方式 (issue 32, item 9): a screen at the desk whose code changes every minute (the default), or
// a printed poster whose code changes every day. A photo of the screen stops working two minutes on.
import { memberBook, MemberMsg, memberSignIn, Msg, queryCheckinCode, updateCheckinMode } from '@studio/contract';
import { expect, it } from 'vitest';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { tokenFor } from './checkin.ts';

describeEachDb('self check-in: the screen code of the minute, or the poster code of the day', (env) => {
  /** Members each booked into a class starting in 20 minutes (inside the check-in window). */
  async function booked(n: number) {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const start = addMinutes(localDateTime('Asia/Shanghai'), 20);
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: start });
    const phones: Client[] = [];
    for (let i = 0; i < n; i++) {
      const m = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
      const p = await memberClient(env(), m.member);
      await p.ok(memberBook.path, { tid: session.id, mcId: m.card.id });
      phones.push(p);
    }
    return phones;
  }
  const secret = async () =>
    (
      await env()
        .database.db.selectFrom('storeSetting')
        .select('value')
        .where('storeId', '=', env().storeId)
        .where('key', '=', 'checkinSecret')
        .executeTakeFirstOrThrow()
    ).value;
  const minute = () => Math.floor(Date.now() / 60_000);
  /** Waits out the last 5 s of a minute, so that "this" and "the last" minute stay so for the next calls. */
  const awayFromMinuteEdge = async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((r) => setTimeout(r, left + 100));
  };

  it('screen (the default): this and the last minute are accepted, two minutes old is not, nor the day code', async () => {
    const [a, b, c, d] = await booked(4);
    await awayFromMinuteEdge();
    const shown = await env().client.ok(queryCheckinCode.path);
    expect(shown.mode).toBe('screen');
    // shown until the next minute begins (store time)
    expect(shown.expireTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/);
    const key = await secret();
    const storeId = env().storeId;
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    expect(await a.call(memberSignIn.path, { token: tokenFor(key, storeId, `m:${minute() - 2}`) })).toMatchObject({
      status: 400,
      msg: MemberMsg.badToken,
    });
    expect(await a.call(memberSignIn.path, { token: tokenFor(key, storeId, `d:${today}`) })).toMatchObject({
      status: 400,
      msg: MemberMsg.badToken,
    });
    expect((await a.call(memberSignIn.path, { token: shown.token })).code).toBe(0);
    await awayFromMinuteEdge();
    expect((await b.call(memberSignIn.path, { token: tokenFor(key, storeId, `m:${minute()}`) })).code).toBe(0);
    expect((await c.call(memberSignIn.path, { token: tokenFor(key, storeId, `m:${minute() - 1}`) })).code).toBe(0);
    // once per booking, whichever code
    expect(await b.call(memberSignIn.path, { token: tokenFor(key, storeId, `m:${minute()}`) })).toMatchObject({
      status: 409,
      msg: MemberMsg.alreadyCheckedIn,
    });
    // a reset (new secret) ends the shown code at once
    await env().client.ok(queryCheckinCode.path, { reset: true });
    expect((await d.call(memberSignIn.path, { token: shown.token })).status).toBe(400);
  });

  it('poster: the day code is accepted all day, a minute code is not; only a manager chooses the way', async () => {
    const [a, b] = await booked(2);
    const desk = await staffClient(env(), 'desk');
    expect(await desk.call(updateCheckinMode.path, { checkinMode: 'poster' })).toMatchObject({
      status: 403,
      msg: Msg.forbiddenRole,
    });
    expect(await env().client.call(updateCheckinMode.path, { checkinMode: 'door' })).toMatchObject({
      status: 400,
      msg: '请选择签到方式',
    });
    await env().client.ok(updateCheckinMode.path, { checkinMode: 'poster' });
    const shown = await desk.ok(queryCheckinCode.path);
    expect(shown.mode).toBe('poster');
    expect(shown.expireTime).toMatch(/ 00:00:00$/);
    const key = await secret();
    expect(await a.call(memberSignIn.path, { token: tokenFor(key, env().storeId, `m:${minute()}`) })).toMatchObject({
      status: 400,
      msg: MemberMsg.badToken,
    });
    expect((await a.call(memberSignIn.path, { token: shown.token })).code).toBe(0);
    await env().client.ok(updateCheckinMode.path, { checkinMode: 'screen' });
    expect((await b.call(memberSignIn.path, { token: shown.token })).status).toBe(400);
  });
});
