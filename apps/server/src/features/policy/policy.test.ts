import {
  addMemberReservation,
  cancelReservationCall,
  DEFAULT_POLICY,
  OperateType,
  PolicyMsg,
  queryBookingPolicy,
  queryTimetableHistory,
  queryTimetableInfo,
  updateBookingPolicy,
} from '@studio/contract';
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { runNoShows } from '../no-show/public.ts';
import { endClosedWaits } from '../waitlist/public.ts';
import { bookingRules, storesBookingRules } from './service.ts';

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
      [{ maxOpenBookings: 2.5 }, PolicyMsg.bookings],
      [{ maxOpenBookings: 101 }, '最多100节'],
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

describeEachDb('staff are not bound by the policy; their overrides are recorded', (env) => {
  it('books and cancels inside the members’ closed window, saying so on the session and in history', async () => {
    const { client } = env();
    const e = new EngineFactory(env().factory);
    const s = await e.scene();
    const { member, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    const startTime = addMinutes(localDateTime('Asia/Shanghai'), 60);
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime });
    // Without a policy nothing is noted.
    expect((await client.ok(queryTimetableInfo.path, { id: session.id })).memberRule).toEqual({
      booking: null,
      lateCancel: false,
    });
    await client.ok(updateBookingPolicy.path, { closeMinutesBefore: 120, cancelMinutesBefore: 180 });
    try {
      const info = await client.ok(queryTimetableInfo.path, { id: session.id });
      expect(info.memberRule).toEqual({ booking: PolicyMsg.closed(120), lateCancel: true });
      await client.ok(addMemberReservation.path, { mcId: card.id, tid: session.id, studentCount: 1, remark: '' });
      const r = await e.db
        .selectFrom('reservation')
        .select('id')
        .where('memberId', '=', member.id)
        .executeTakeFirstOrThrow();
      await client.ok(cancelReservationCall.path, { id: r.id });
      expect((await e.cardRow(card.id)).usedCount).toBe(0);
      const history = await client.ok(queryTimetableHistory.path, { tid: session.id, page: 1 });
      expect(
        history.list.map((h: { operateType: number; override: string | null }) => [h.operateType, h.override]),
      ).toEqual([
        [OperateType.ADMIN_CANCELLED, '越过预约规则：开课前180分钟内取消，已全额退回'],
        [OperateType.ADMIN_BOOKED, `越过预约规则：${PolicyMsg.closed(120)}`],
      ]);
    } finally {
      await client.ok(updateBookingPolicy.path, { closeMinutesBefore: 0, cancelMinutesBefore: 0 });
    }
  });
});

/** The database, and how many statements made through it read store settings or module statuses. */
function countingSettingReads(db: Db) {
  const reads = { n: 0 };
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      if (/"(storeSetting|storeModule)"/.test(JSON.stringify(args.node))) reads.n++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(counter) as Db, reads };
}

describeEachDb('booking rules (policy and deduction mode) of one store and of every store', (env) => {
  const resetPolicy = () => env().client.ok(updateBookingPolicy.path, DEFAULT_POLICY);

  it('answers each store its own rules, in one statement for all stores, as the one-store read does', async () => {
    const e = new EngineFactory(env().factory);
    await env().client.ok(updateBookingPolicy.path, { noShow: 'forfeit', waitlist: 1, waitlistCutoffMinutes: 30 });
    await e.setMode(1);
    try {
      const { db, reads } = countingSettingReads(env().database.db);
      const all = await storesBookingRules(db);
      expect(reads.n).toBe(1);
      expect(all.map((s) => s.id)).toEqual([...all.map((s) => s.id)].sort((a, b) => a - b));
      const mine = all.find((s) => s.id === env().storeId);
      const other = all.find((s) => s.id === env().other.storeId);
      expect(mine).toEqual({
        id: env().storeId,
        timezone: 'Asia/Shanghai',
        deductionMode: 1,
        policy: { ...DEFAULT_POLICY, noShow: 'forfeit', waitlist: 1, waitlistCutoffMinutes: 30 },
      });
      expect(other).toMatchObject({ deductionMode: 0, policy: DEFAULT_POLICY });
      for (const s of all) {
        const { id: _id, timezone: _tz, ...rules } = s;
        expect(rules, `store ${s.id}`).toEqual(await bookingRules(env().database.db, s.id));
      }
    } finally {
      await e.setMode(0);
      await resetPolicy();
    }
  });

  it('the waitlist and no-show jobs read every store’s rules in one statement per run', async () => {
    const e = new EngineFactory(env().factory);
    const o = new EngineFactory(env().other.factory);
    // Both stores watch no-shows in sign-in mode: before, each cost a policy and a mode read.
    for (const client of [env().client, env().other.client]) {
      await client.ok(updateBookingPolicy.path, { noShow: 'forfeit', waitlist: 1 });
    }
    await e.setMode(1);
    await o.setMode(1);
    try {
      const at = () => `${FUTURE} 12:00:00`;
      const { db, reads } = countingSettingReads(env().database.db);
      expect(await endClosedWaits(db, env().dialect, at)).toBe(0);
      expect(reads.n).toBe(1);
      reads.n = 0;
      expect(await runNoShows(db, env().dialect, at)).toBe(0);
      expect(reads.n).toBe(1);
    } finally {
      await e.setMode(0);
      await o.setMode(0);
      await resetPolicy();
      await env().other.client.ok(updateBookingPolicy.path, DEFAULT_POLICY);
    }
  });

  it('shows the desk the store’s deduction mode and what its policy tells members, from one read', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene();
    const session = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(localDateTime('Asia/Shanghai'), 60),
    });
    await env().client.ok(updateBookingPolicy.path, { closeMinutesBefore: 120 });
    await e.setMode(1);
    try {
      const info = await env().client.ok(queryTimetableInfo.path, { id: session.id });
      expect([info.deductionMode, info.memberRule]).toEqual([1, { booking: PolicyMsg.closed(120), lateCancel: false }]);
    } finally {
      await e.setMode(0);
      await resetPolicy();
    }
  });
});
