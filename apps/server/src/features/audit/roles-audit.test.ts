// Roles and the audit log, generated from the contract: every role on every store call (allowed, or
// 403 with nothing written), and every write call leaving an audit entry.
import { allCalls, declaresError, isWriteCall, MODULE_DEDUCTION_MODE, Msg } from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { basePayloads } from '../../../test/hardening/payloads.ts';
import { makeWorld, type World } from '../../../test/hardening/world.ts';
import { memberClient } from '../../../test/member-client.ts';
import { Client, describeEachDb, staffClient, TEST_PASSWORD, type TestEnv } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { purgeOldEntries } from './retention.ts';

const WRITTEN = [
  'member',
  'memberCard',
  'cardProduct',
  'course',
  'teacher',
  'area',
  'material',
  'timetable',
  'reservation',
  'pending',
  'history',
  'cardLedger',
  'fixTimetable',
  'storeModule',
  'storeSetting',
  'waitlist',
  'lead',
  'leadFollowUp',
  'referralReward',
  'leadTrial',
  'auditLog',
] as const;

/** Every row of a store as text (a refused call must leave it byte for byte). */
async function snapshot(db: Db, storeId: number): Promise<string> {
  const parts: string[] = [];
  for (const t of WRITTEN) {
    const rows = await db.selectFrom(t).selectAll().where('storeId', '=', storeId).execute();
    parts.push(
      `${t}:${rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n')}`,
    );
  }
  const posts = await db.selectFrom('post').selectAll().where('storeId', '=', storeId).execute();
  return `${parts.join('\n')}\n${JSON.stringify(posts)}`;
}

async function setMode(env: TestEnv, mode: 0 | 1 | undefined) {
  if (mode === undefined) return;
  await env.database.db
    .updateTable('storeModule')
    .set({ status: mode })
    .where('storeId', '=', env.storeId)
    .where('moduleId', '=', MODULE_DEDUCTION_MODE)
    .execute();
}

const storeCalls = allCalls.filter((c) => c.auth === 'store');

describeEachDb('roles and the audit log', (env) => {
  let world: World;
  beforeAll(async () => {
    world = await makeWorld(env().factory, '角色');
  });

  it('every store call declares its roles, managers may make every call', () => {
    expect(storeCalls.filter((c) => !c.roles?.length).map((c) => c.path)).toEqual([]);
    expect(storeCalls.filter((c) => !c.roles!.includes('manager')).map((c) => c.path)).toEqual([]);
  });

  for (const role of ['desk', 'teacher'] as const) {
    it(`role matrix: ${role} on every store call — allowed, or 403 with nothing written`, async () => {
      const e = env();
      const client = await staffClient(e, role, role === 'teacher' ? world.teacher : null);
      const problems: string[] = [];
      // Who sees what (issue 45 item 6): the store's people's mobiles, none of which may reach this role
      // whole but through a call naming it in fullMobiles (the member's page, a lead's follow-up).
      const people = await e.database.db
        .selectFrom('member')
        .select('mobile')
        .where('storeId', '=', e.storeId)
        .union(e.database.db.selectFrom('lead').select('mobile').where('storeId', '=', e.storeId))
        .execute();
      const mobiles = people.map((p) => p.mobile).filter((m) => /^1\d{10}$/.test(m));
      expect(mobiles.length).toBeGreaterThan(1);
      let scanned = 0;
      for (const call of storeCalls) {
        const entry = basePayloads[call.path];
        if (!entry) throw new Error(`add a base payload for ${call.path}`);
        await setMode(e, entry.mode);
        const body = entry.body(world);
        const before = await snapshot(e.database.db, e.storeId);
        const a = await client.call(call.path, body);
        const allowed = call.roles!.includes(role);
        // A 403 the call declares itself (not the role gate's) is its own rule on this payload: the desk
        // refunds whole cards within the cooling-off days, a top-up only a manager (issue 29).
        const ownRule = a.status === 403 && a.msg !== Msg.forbiddenRole && declaresError(call.errors ?? [], 403, a.msg);
        if (allowed && a.status === 403 && !ownRule)
          problems.push(`${call.path}: allowed for ${role} but 403 ${a.msg}`);
        if (allowed && a.code === 0 && !call.fullMobiles?.includes(role)) {
          const text = JSON.stringify(a.data);
          const shown = mobiles.filter((m) => text.includes(m));
          if (shown.length) problems.push(`${call.path}: shows ${role} whole mobiles ${shown.join(', ')}`);
          if (/"[A-Za-z]*[mM]obile":"1\d{2}\*{4}\d{4}"/.test(text)) scanned += 1;
        }
        if (!allowed) {
          if (a.status !== 403 || a.msg !== Msg.forbiddenRole) {
            problems.push(`${call.path}: not for ${role} but answered ${a.status} ${a.msg}`);
          }
          if ((await snapshot(e.database.db, e.storeId)) !== before) problems.push(`${call.path}: refused yet wrote`);
        }
      }
      await setMode(e, 0);
      expect(problems).toEqual([]);
      // The scan saw masked mobiles in the desk's answers (lists of members and bookings), not only
      // empty ones (the world's teacher teaches no booked class: privacy/masking.test.ts shows theirs).
      if (role === 'desk') expect(scanned).toBeGreaterThan(3);
    });
  }

  it("a teacher may not name another teacher's session", async () => {
    const e = env();
    const other = await e.factory.teacher({ name: '别的老师' });
    const mine = await staffClient(e, 'teacher', other.id);
    const problems: string[] = [];
    for (const call of storeCalls.filter((c) => c.teacherOwns)) {
      const entry = basePayloads[call.path]!;
      await setMode(e, entry.mode);
      const before = await snapshot(e.database.db, e.storeId);
      const a = await mine.call(call.path, entry.body(world));
      if (a.status !== 403 || a.msg !== Msg.forbiddenSession) problems.push(`${call.path}: ${a.status} ${a.msg}`);
      if ((await snapshot(e.database.db, e.storeId)) !== before) problems.push(`${call.path}: refused yet wrote`);
    }
    await setMode(e, 0);
    expect(problems).toEqual([]);
    // The calendar and the day's list hold their own sessions only (none here).
    const week = await mine.ok('/store/api/query/timetable/by/date', { fromDate: '2031-03-01', toDate: '2031-03-07' });
    expect(week.flatMap((d: { list: unknown[] }) => d.list)).toEqual([]);
    const day = await mine.ok('/store/api/query/today', { date: '2031-03-03' });
    expect(day.sessions).toEqual([]);
    const fresh = await makeWorld(e.factory, '老师看课');
    const theirs = await staffClient(e, 'teacher', fresh.teacher);
    const seen = await theirs.ok('/store/api/query/today', { date: '2031-03-03' });
    expect(seen.sessions.map((s: { id: number }) => s.id)).toContain(fresh.session);
    const ids = seen.sessions.map((s: { id: number }) => s.id);
    const teachers = await e.database.db.selectFrom('timetable').select('teacherId').where('id', 'in', ids).execute();
    expect(new Set(teachers.map((t) => t.teacherId))).toEqual(new Set([fresh.teacher]));
  });

  it('every write call leaves one audit entry naming the call, in the store, by its maker', async () => {
    const e = env();
    const db = e.database.db;
    const unproven: string[] = [];
    const problems: string[] = [];
    const writes = allCalls.filter((c) => isWriteCall(c) && c.auth !== 'public');
    for (const call of writes) {
      const entry = basePayloads[call.path];
      if (!entry) throw new Error(`add a base payload for ${call.path}`);
      const w = await makeWorld(e.factory, `审计${call.path.length}`);
      // The weekly template as one world leaves it: the earlier worlds' rows would fill it to its cap
      // (50), and the template calls would be refused for that instead of tried.
      await db.deleteFrom('fixTimetable').where('storeId', '=', e.storeId).where('id', '!=', w.fix).execute();
      // Nor does a bulk change wait on the same change made by an earlier test of this file (请勿重复操作
      // for some seconds: whether it still held depended on how long the tests between took).
      await db.deleteFrom('opLock').where('storeId', '=', e.storeId).execute();
      await setMode(e, entry.mode);
      let client: Client = e.client;
      if (call.auth === 'member') client = await memberOf(e, w);
      const body = call.path === '/api/auth/change/password' ? null : entry.body(w);
      const last = await db
        .selectFrom('auditLog')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      let a;
      if (body === null) {
        // One's own password: the staff member of this file changes it and back.
        a = await client.call(call.path, { oldPassword: TEST_PASSWORD, newPassword: 'changed2026pw' });
        await client.ok(call.path, { oldPassword: 'changed2026pw', newPassword: TEST_PASSWORD }).catch(() => null);
      } else {
        a = await client.call(call.path, body);
      }
      if (a.code !== 0) {
        unproven.push(`${call.path}: ${a.status} ${a.msg}`);
        const after = await db
          .selectFrom('auditLog')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow();
        if (Number(after.id ?? 0) !== Number(last.id ?? 0)) problems.push(`${call.path}: refused yet logged`);
        continue;
      }
      const made = await db
        .selectFrom('auditLog')
        .selectAll()
        .where('id', '>', Number(last.id ?? 0))
        .orderBy('id')
        .execute();
      const own = made.filter((m) => m.call === call.path);
      if (!own.length) problems.push(`${call.path}: no audit entry`);
      for (const m of own) {
        if (m.storeId !== e.storeId) problems.push(`${call.path}: entry of store ${m.storeId}`);
        if (call.auth === 'member' ? m.actorKind !== 'member' : m.actorKind !== 'staff' || m.staffId !== e.staffId) {
          problems.push(`${call.path}: entry by ${m.actorKind} ${m.staffId}`);
        }
        if (!m.summary) problems.push(`${call.path}: entry without a summary`);
      }
    }
    await setMode(e, 0);
    expect(problems).toEqual([]);
    // These base payloads are refused in a fresh world (they need a provider, a no-show, a late
    // cancel, a suspension, a member's own booking...): their success is not proven to write an
    // entry here (known gap, issue 14's note); a refused call wrote none (checked above by count).
    expect(unproven.map((u) => u.split(':')[0]).sort()).toEqual(
      [
        '/member/api/add/reservation',
        // 健康声明: a fresh world's member has not given the health consent (health.test.ts answers)
        '/member/api/add/my/health',
        '/member/api/cancel/pending',
        '/member/api/add/waitlist',
        '/member/api/cancel/waitlist',
        // a fresh store sells nothing online and has no payment provider (payment.test.ts buys)
        '/member/api/create/order',
        // 电子合同: the world's card has no contract (made as an import makes one), the store no SMS
        // provider (contracts/signing.test.ts signs, links and downloads)
        '/store/api/create/card/contract/link',
        '/store/api/sign/card/contract',
        '/store/api/download/card/contract',
        '/member/api/send/contract/code',
        '/member/api/sign/contract',
        // likewise the desk's 扫码收款 (desk-pay.test.ts takes a payment)
        '/store/api/create/pay/order',
        // a fresh store has no paid online order to refund (refund.test.ts refunds)
        '/store/api/refund/pay/order',
        // likewise nothing to reconcile (reconcile.test.ts runs days)
        '/store/api/run/pay/reconcile',
        '/member/api/sign/in',
        '/store/api/delete/teacher',
        '/store/api/delete/area',
        '/store/api/create/timetable/meeting',
        '/store/api/retry/timetable/meeting',
        '/store/api/cancel/timetable/online',
        '/store/api/send/timetable/picture',
        // 营销短信: a fresh store has no SMS provider (marketing.test.ts sends)
        '/store/api/send/marketing',
        '/store/api/update/store/booking/setting',
        '/store/api/waive/no/show',
        '/store/api/waive/late/cancel',
        '/store/api/lift/member/suspension',
        '/store/api/add/waitlist',
        // a fresh store's product is not shared (多人共享), so nobody is on a list (card-share.test.ts shares)
        '/store/api/add/card/share',
        '/store/api/delete/card/share',
        // a fresh store has no WeChat service account (reminders.test.ts sends and binds through the stand-in)
        '/store/api/send/notify/test',
        '/member/api/bind/wechat/openid',
        // needs a bulk change's entry: undo.test.ts checks the undo's own entry
        '/store/api/undo/bulk/change',
        // the world's card is not bound to its lesson type, its booking and session are of a group
        // class (lessons/booking.test.ts books, cancels, confirms and moves lessons)
        '/store/api/add/lesson',
        '/store/api/add/lesson/member',
        '/member/api/add/lesson',
        '/member/api/join/lesson',
        '/store/api/cancel/lesson',
        '/member/api/cancel/lesson',
        '/store/api/confirm/lesson',
        '/store/api/move/lesson',
        // likewise a lead's 私教体验课 needs a 1对1 lesson type (leads/lesson-trials.test.ts books one)
        '/store/api/insert/lead/trial/lesson',
        // the world's member has no pending request to delete their account (privacy.test.ts withdraws one)
        '/member/api/cancel/my/erasure',
        // likewise (lessons/series.test.ts books a series and checks its undoable entry)
        '/store/api/batch/add/lesson/series',
        // the world's reward waits to be granted (referral-reward.test.ts grants and undoes)
        '/store/api/undo/referral/reward',
      ].sort(),
    );
    expect(await checkInvariants(db, e.storeId)).toEqual([]);
  });

  it('keeps every entry by default; a retention of N days removes only older ones, with their targets', async () => {
    const db = env().database.db;
    const old = await db
      .insertInto('auditLog')
      .values({
        storeId: env().storeId,
        at: Date.now() - 40 * 24 * 3600 * 1000,
        actorKind: 'system',
        staffId: null,
        memberId: null,
        actorName: '系统',
        call: 'test/old',
        kind: 'system',
        target: '',
        summary: '四十天前',
        beforeJson: null,
        afterJson: null,
        undoJson: null,
        undoOf: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('auditTarget')
      .values({ auditId: old.id, storeId: env().storeId, type: 'member', refId: 1 })
      .execute();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('auditLog')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const all = await count();
    expect(await purgeOldEntries(db, 0)).toBe(0);
    expect(await count()).toBe(all);
    expect(await purgeOldEntries(db, 30)).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom('auditLog').select('id').where('id', '=', old.id).executeTakeFirst()).toBeUndefined();
    expect(
      await db.selectFrom('auditTarget').select('auditId').where('auditId', '=', old.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await count()).toBeGreaterThan(0);
  });

  it('no call changes or removes an entry, and the database refuses an UPDATE of one', async () => {
    const db = env().database.db;
    const one = await db.selectFrom('auditLog').select('id').where('storeId', '=', env().storeId).executeTakeFirst();
    expect(one).toBeDefined();
    await expect(
      db.updateTable('auditLog').set({ summary: '改过' }).where('id', '=', one!.id).execute(),
    ).rejects.toThrow();
    expect(allCalls.filter((c) => /audit/.test(c.path) && !/query|undo/.test(c.path)).map((c) => c.path)).toEqual([]);
  });
});

/** A member of the world, logged in on the members' channel with a desk code. */
async function memberOf(e: TestEnv, w: World): Promise<Client> {
  const m = await e.database.db
    .selectFrom('member')
    .select(['id', 'mobile'])
    .where('id', '=', w.member)
    .executeTakeFirstOrThrow();
  return memberClient(e, m);
}
