import { DEFAULT_POLICY, PolicyMsg, queryBookingPolicy, updateBookingPolicy } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../test/harness.ts';

describeEachDb('booking policy (预约规则) settings', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);
  const call = (body: unknown) => env().client.call(updateBookingPolicy.path, body);

  it('a store that never saved one gets the defaults, which limit nothing', async () => {
    expect(await ok(queryBookingPolicy.path, {})).toEqual(DEFAULT_POLICY);
  });

  it('saves only the fields given and keeps the others', async () => {
    await ok(updateBookingPolicy.path, { openDaysBefore: 7, lateCancel: 'forfeit' });
    await ok(updateBookingPolicy.path, { cancelMinutesBefore: 120, waitlist: 1 });
    expect(await ok(queryBookingPolicy.path, {})).toEqual({
      ...DEFAULT_POLICY,
      openDaysBefore: 7,
      lateCancel: 'forfeit',
      cancelMinutesBefore: 120,
      waitlist: 1,
    });
    // Another store's policy is its own.
    expect(await env().other.client.ok(queryBookingPolicy.path, {})).toEqual(DEFAULT_POLICY);
  });

  it('refuses bad values with the field’s message and writes nothing', async () => {
    const before = await ok(queryBookingPolicy.path, {});
    for (const [body, msg] of [
      [{ openDaysBefore: -1 }, PolicyMsg.days],
      [{ closeMinutesBefore: 1.5 }, PolicyMsg.minutes],
      [{ cancelMinutesBefore: '60' }, PolicyMsg.minutes],
      [{ lateCancel: 'maybe' }, PolicyMsg.lateCancel],
      [{ noShow: 'charge' }, PolicyMsg.noShow],
      [{ waitlist: 2 }, PolicyMsg.waitlist],
      [{ noShowLimit: -3 }, PolicyMsg.count],
      [{ openDaysBefore: 366 }, '最多365天'],
      [{ openDaysBefore: 3, waitlistCutoffMinutes: 1e9 }, '最多10080分钟'],
    ] as const) {
      const r = await call(body);
      expect([r.status, r.msg], JSON.stringify(body)).toEqual([400, msg]);
    }
    expect(await ok(queryBookingPolicy.path, {})).toEqual(before);
    const bad = await env().client.app.inject({
      method: 'POST',
      url: updateBookingPolicy.path,
      headers: { 'content-type': 'application/json', cookie: env().client.cookie! },
      payload: '{"openDaysBefore": 3,',
    });
    expect(bad.statusCode).toBe(400);
  });
});
