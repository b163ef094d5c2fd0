// The waitlist under scheduled orderings: fast-check's scheduler decides in which order concurrent
// cancels, capacity raises, waitlist joins and leaves, desk bookings and cancels of promoted seats
// start and finish (RACE_RUNS orderings, default 40), in deduction mode 0 (promotion books and
// charges) and 1 (promotion holds a pending), on both databases. After each ordering: the engine's
// invariants hold (seats, ledger, waitCount, nobody both waiting and seated), nobody is promoted
// twice or past a free seat, and no seat is left free while someone who could take it still waits.
import { LIVE_PENDING, LIVE_RESERVATION, Msg, WaitMsg, WaitStatus } from '@studio/contract';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { savePolicy } from '../../src/features/policy/service.ts';
import { Client, describeEachDb } from '../harness.ts';
import { futureSlot, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { envelopeProblems, envInt, invariantProblems } from './support.ts';

const RUNS = envInt('RACE_RUNS', 40);
const SEED = envInt('FUZZ_SEED', 20261125);
const API = '/store/api';
/** Members 0-1 hold the two seats, 2-3 wait before the race, 4-5 may join during it, 6 books at the desk. */
const HOLDERS = [0, 1];
const EARLY = [2, 3];
const LATE = [4, 5];
const WALK_IN = 6;

type Op =
  | { kind: 'cancelHolder'; who: number }
  | { kind: 'raise'; seats: number }
  | { kind: 'join'; who: number }
  | { kind: 'leave'; who: number }
  | { kind: 'book' }
  | { kind: 'cancelPromoted'; who: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancelHolder' as const), who: fc.constantFrom(...HOLDERS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('raise' as const), seats: fc.integer({ min: 3, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('join' as const), who: fc.constantFrom(...LATE) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leave' as const), who: fc.constantFrom(...EARLY, ...LATE) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('book' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('cancelPromoted' as const), who: fc.constantFrom(...EARLY, ...LATE) }),
  },
);

describeEachDb('waitlist promotion under scheduled orderings', (env) => {
  const stores: { store: LoadStore; client: Client; mode: 0 | 1 }[] = [];

  beforeAll(async () => {
    const db = env().database.db;
    for (const mode of [0, 1] as const) {
      const store = await makeLoadStore(db, {
        members: 7,
        balance: 1000,
        sessions: RUNS,
        seats: 2,
        mode,
        firstHour: mode === 0 ? 700 : 900,
      });
      await savePolicy(db, store.storeId, { waitlist: 1 });
      const client = new Client(env().app);
      const r = await client.login(store.username, SCENE_PASSWORD);
      if (r.code !== 0) throw new Error(r.msg);
      stores.push({ store, client, mode });
    }
  });

  it(
    `${RUNS} orderings of cancels, capacity raises, joins, leaves and bookings promote each waiting member once, never past a seat`,
    async () => {
      let run = 0;
      const tally: Record<string, number> = {};
      // Two rounds of racing calls: the second finds the seats the first promoted into.
      const round = fc.array(opArb, { minLength: 3, maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), round, round, async (s, first, second) => {
          const i = run++;
          const { store, client, mode } = stores[i % 2];
          const tid = store.sessions[Math.floor(i / 2) % RUNS];
          const member = (k: number) => store.members[k];
          const db = env().database.db;
          const seen: string[] = [];
          const check = (why: string) => checkSession(tid, mode, why);
          const book = (k: number) =>
            client.call(
              `${API}${mode === 0 ? '/add/member/reservation' : '/add/member/group/pending'}`,
              mode === 0
                ? { mcId: member(k).card, tid, mid: member(k).id }
                : { mcId: member(k).card, tid, mid: member(k).id, studentCount: 1 },
            );
          const join = (k: number) =>
            client.call(`${API}/add/waitlist`, { mid: member(k).id, mcId: member(k).card, tid, studentCount: 1 });
          // Before the race: the two seats taken, two members waiting.
          for (const k of HOLDERS) {
            const r = await book(k);
            if (r.code !== 0) throw new Error(`setup booking: ${r.msg}`);
          }
          for (const k of EARLY) {
            const r = await join(k);
            if (r.code !== 0) throw new Error(`setup join: ${r.msg}`);
          }
          /** Cancels the member's seat of the session (a booking in mode 0, a pending in mode 1). */
          const cancelSeat = async (k: number) => {
            const id = member(k).id;
            if (mode === 0) {
              const r = await db
                .selectFrom('reservation')
                .select('id')
                .where('timetableId', '=', tid)
                .where('memberId', '=', id)
                .where('status', '=', 1)
                .executeTakeFirst();
              return r ? client.call(`${API}/cancel/reservation`, { id: r.id }) : null;
            }
            const p = await db
              .selectFrom('pending')
              .select('id')
              .where('timetableId', '=', tid)
              .where('memberId', '=', id)
              .where('status', '=', 1)
              .executeTakeFirst();
            return p ? client.call(`${API}/cancel/pending`, { pendingId: p.id }) : null;
          };
          const doOp = async (op: Op) => {
            let ans: Awaited<ReturnType<Client['call']>> | null = null;
            if (op.kind === 'cancelHolder' || op.kind === 'cancelPromoted') ans = await cancelSeat(op.who);
            else if (op.kind === 'raise') {
              const start = futureSlot((mode === 0 ? 700 : 900) + (Math.floor(i / 2) % RUNS));
              ans = await client.call(`${API}/update/timetable/reservable/count`, {
                id: tid,
                teacherId: store.teacherId,
                date: start.slice(0, 10),
                time: start.slice(11, 16),
                count: op.seats,
                areaId: store.areaId,
              });
            } else if (op.kind === 'join') ans = await join(op.who);
            else if (op.kind === 'leave') {
              const w = await db
                .selectFrom('waitlist')
                .select('id')
                .where('timetableId', '=', tid)
                .where('memberId', '=', member(op.who).id)
                .where('status', '=', WaitStatus.WAITING)
                .executeTakeFirst();
              if (w) ans = await client.call(`${API}/cancel/waitlist`, { id: w.id });
            } else ans = await book(WALK_IN);
            if (!ans) return;
            const problems = envelopeProblems({ status: ans.status, text: JSON.stringify(ans) });
            if (problems.length) throw new Error(`${op.kind}: ${problems.join('; ')} ${ans.msg}`);
            const outcome = `${op.kind} ${ans.code === 0 ? 'ok' : ans.msg}`;
            seen.push(outcome);
            tally[outcome] = (tally[outcome] ?? 0) + 1;
          };
          for (const ops of [first, second]) {
            const tasks = ops.map((op) => s.schedule(Promise.resolve(op)).then(doOp));
            await s.waitAll();
            await Promise.all(tasks);
            await check(`${s.report()}\n${seen.join('\n')}`);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
      console.log(`waitlist outcomes over ${RUNS} orderings [${env().dialect}]`, tally);
      for (const k of [
        'cancelHolder ok',
        'cancelPromoted ok',
        'raise ok',
        'join ok',
        'leave ok',
        `join ${WaitMsg.already}`,
      ]) {
        expect(tally[k] ?? 0, k).toBeGreaterThan(0);
      }
      expect((tally['book ok'] ?? 0) + (tally[`book ${Msg.sessionFull}`] ?? 0)).toBeGreaterThan(0);
    },
    Math.max(60_000, RUNS * 400),
  ); // the long run (RACE_RUNS=500) takes 50-100 s on two cores

  /** After a round: the invariants, nobody promoted twice or past a seat, no seat free while someone waits. */
  async function checkSession(tid: number, mode: 0 | 1, why: string) {
    const db = env().database.db;
    expect(await invariantProblems(db, env().dialect), why).toEqual([]);
    const session = await db
      .selectFrom('timetable')
      .select(['realCount', 'reservableCount', 'waitCount'])
      .where('id', '=', tid)
      .executeTakeFirstOrThrow();
    expect(session.realCount, why).toBeLessThanOrEqual(session.reservableCount);
    // Nobody promoted twice: at most one promoted wait per member, each naming its own seat.
    const waits = await db
      .selectFrom('waitlist')
      .select(['memberId', 'status', 'reservationId', 'pendingId'])
      .where('timetableId', '=', tid)
      .execute();
    const promoted = waits.filter((w) => w.status === WaitStatus.PROMOTED);
    // Each promotion names its own seat...
    const seats = promoted.map((w) => (mode === 0 ? `r${w.reservationId}` : `p${w.pendingId}`));
    expect(new Set(seats).size, why).toBe(promoted.length);
    // ...and nobody holds two seats from promotions. A member whose promoted seat was cancelled may
    // queue again (a new wait) and be promoted again: that earlier seat is no longer live.
    const live = new Set(
      mode === 0
        ? (
            await db
              .selectFrom('reservation')
              .select('id')
              .where('timetableId', '=', tid)
              .where('status', 'in', [...LIVE_RESERVATION])
              .execute()
          ).map((r) => `r${r.id}`)
        : (
            await db
              .selectFrom('pending')
              .select('id')
              .where('timetableId', '=', tid)
              .where('status', 'in', [...LIVE_PENDING])
              .execute()
          ).map((p) => `p${p.id}`),
    );
    const seated = promoted.filter((_w, i) => live.has(seats[i])).map((w) => w.memberId);
    expect(new Set(seated).size, why).toBe(seated.length);
    // No seat left free while someone who can take it waits (every card here passes the rules).
    if (session.waitCount > 0) expect(session.realCount, why).toBe(session.reservableCount);
  }
});
