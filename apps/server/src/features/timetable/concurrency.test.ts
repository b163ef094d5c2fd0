import {
  addMemberReservation,
  cancelReservationCall,
  cancelTimetable,
  Msg,
  queryReservationList,
  updateTimetable,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type DbHandle } from '../../db/index.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { Client, describeEachDb, PG_URL, tally, type Answer, type App, type TestEnv } from '../../../test/harness.ts';

/**
 * The three races of issue 3, sending every request at once through `clients` (round robin):
 * one app instance, or two instances sharing one PostgreSQL schema.
 */
function races(env: () => TestEnv, clients: () => Client[], pgOnly = false) {
  const skip = (ctx: { skip: () => void }) => {
    if (pgOnly && env().dialect !== 'postgres') ctx.skip();
  };
  const ef = () => new EngineFactory(env().factory);
  const pick = (i: number) => clients()[i % clients().length];

  it('50 parallel bookings for 5 free seats: exactly 5 succeed, 45 are told the class is full', async (ctx) => {
    skip(ctx);
    const e = ef();
    const { teacher, course, product } = await e.scene();
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, reservableCount: 5 });
    const cards = await Promise.all(Array.from({ length: 50 }, () => e.memberWithCard(product.id)));
    const answers = await Promise.all(
      cards.map(({ card }, i) => pick(i).call(addMemberReservation.path, { mcId: card.id, tid: s.id })),
    );
    expect(tally(answers)).toEqual({ ok: 5, [`409 ${Msg.sessionFull}`]: 45 });
    expect((await e.sessionRow(s.id)).realCount).toBe(5);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('20 parallel bookings on one card with balance for 3: exactly 3 succeed', async (ctx) => {
    skip(ctx);
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: 2 } });
    const { card } = await e.memberWithCard(product.id, { card: { totalCount: 7 } });
    const sessions = [];
    for (let i = 0; i < 20; i++) {
      const hour = String((i % 12) + 8).padStart(2, '0');
      sessions.push(
        await e.session({
          courseId: course.id,
          teacherId: teacher.id,
          startTime: `2099-07-${10 + Math.floor(i / 12)} ${hour}:00:00`,
        }),
      );
    }
    const answers = await Promise.all(
      sessions.map((s, i) => pick(i).call(addMemberReservation.path, { mcId: card.id, tid: s.id })),
    );
    expect(tally(answers)).toEqual({ ok: 3, [`409 ${Msg.cardBalance}`]: 17 });
    expect((await e.cardRow(card.id)).usedCount).toBe(6);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('20 parallel cancels of one booking: one refund, 19 conflicts', async (ctx) => {
    skip(ctx);
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: 3 } });
    const s = await e.session({ courseId: course.id, teacherId: teacher.id });
    const { card } = await e.memberWithCard(product.id);
    await env().client.ok(addMemberReservation.path, { mcId: card.id, tid: s.id, studentCount: 2 });
    const [r] = (await env().client.ok(queryReservationList.path, { tid: s.id, page: 1 })).list;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pick(i).call(cancelReservationCall.path, { id: r.reservationId })),
    );
    expect(tally(answers)).toEqual({ ok: 1, [`409 ${Msg.alreadyCancelled}`]: 19 });
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    const refunds = await env()
      .database.db.selectFrom('cardLedger')
      .select('amount')
      .where('reservationId', '=', r.reservationId)
      .where('kind', '=', 'refund')
      .execute();
    expect(refunds.map((x) => Number(x.amount))).toEqual([-6]);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });

  it('mixed traffic (bookings, cancels, a delete, capacity edits) never errors and keeps the invariants', async (ctx) => {
    skip(ctx);
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: 2 } });
    const sessions: Awaited<ReturnType<EngineFactory['session']>>[] = [];
    for (let i = 0; i < 3; i++) {
      sessions.push(
        await e.session({
          courseId: course.id,
          teacherId: teacher.id,
          startTime: `2099-08-0${i + 1} 10:00:00`,
          reservableCount: 8,
        }),
      );
    }
    const cards = await Promise.all(
      Array.from({ length: 20 }, () => e.memberWithCard(product.id, { card: { totalCount: 5 } })),
    );
    // A first wave of bookings gives the cancels something to cancel.
    await Promise.all(
      cards
        .slice(0, 10)
        .map(({ card }) => env().client.call(addMemberReservation.path, { mcId: card.id, tid: sessions[0].id })),
    );
    const booked = (await env().client.ok(queryReservationList.path, { tid: sessions[0].id, page: 1 })).list as {
      reservationId: number;
    }[];
    const calls: Promise<Answer>[] = [];
    cards.forEach(({ card }, i) => {
      for (const s of sessions) calls.push(pick(i).call(addMemberReservation.path, { mcId: card.id, tid: s.id }));
    });
    booked.forEach((r, i) => calls.push(pick(i).call(cancelReservationCall.path, { id: r.reservationId })));
    calls.push(pick(1).call(cancelTimetable.path, { id: sessions[1].id }));
    for (const count of [2, 6, 8]) {
      calls.push(
        pick(count).call(updateTimetable.path, {
          id: sessions[2].id,
          teacherId: teacher.id,
          date: '2099-08-03',
          time: '10:00',
          count,
        }),
      );
    }
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.every((a) => a.code === 0 || [404, 409].includes(a.status))).toBe(true);
    expect(await checkInvariants(env().database.db)).toEqual([]);
  });
}

describeEachDb('concurrency: one app instance', (env) => {
  races(env, () => [env().client]);
});

describeEachDb('concurrency: two app instances on one database', (env) => {
  let second: { app: App; database: DbHandle } | undefined;
  let clients: Client[] = [];
  beforeAll(async () => {
    if (env().dialect !== 'postgres') return;
    const database = openDatabase({ url: PG_URL, schema: env().database.schema, poolMax: 30 });
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
    const app = await buildApp({ config, database, validateResponses: true, logger: false });
    await app.ready();
    second = { app, database };
    const c2 = new Client(app);
    expect((await c2.login(env().username)).code).toBe(0);
    clients = [env().client, c2];
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });
  // PostgreSQL only: on SQLite one process holds the one connection, so there is no second instance.
  races(env, () => clients, true);
});
