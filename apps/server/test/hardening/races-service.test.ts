import { Msg, PendingStatus } from '@studio/contract';
// Service-level races in one process: fast-check's scheduler picks the order in which concurrent
// calls start and finish (RACE_RUNS orderings, default 40), on both databases. In sign-in mode a
// member whose card holds one class races pendings with that card into two classes: the card never
// holds more pendings than it can pay at sign-in.
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { Client, describeEachDb } from '../harness.ts';
import { futureSlot, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { envelopeProblems, envInt, invariantProblems } from './support.ts';

const RUNS = envInt('RACE_RUNS', 40);
const SEED = envInt('FUZZ_SEED', 20261121);
const API = '/store/api';

type Op =
  | { kind: 'book' | 'cancel' | 'pending' | 'signIn' | 'cancelPending'; who: number }
  | { kind: 'delete' }
  | { kind: 'resize'; seats: number }
  | { kind: 'tightPending'; at: 0 | 1 };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('book' as const), who: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pending' as const), who: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('signIn' as const), who: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelPending' as const), who: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resize' as const), seats: fc.integer({ min: 1, max: 4 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('tightPending' as const), at: fc.constantFrom(0 as const, 1 as const) }),
  },
);

describeEachDb('service-level races under scheduled orderings', (env) => {
  let a: LoadStore;
  let b: LoadStore;
  let ca: Client;
  let cb: Client;
  /** Store B's second class of each ordering, for the pendings of a card holding one class. */
  const other: number[] = [];

  beforeAll(async () => {
    const db = env().database.db;
    a = await makeLoadStore(db, { members: 4, balance: 1000, sessions: RUNS + 1, seats: 3, firstHour: 100 });
    b = await makeLoadStore(db, { members: 4, balance: 1000, sessions: RUNS + 1, seats: 3, mode: 1, firstHour: 300 });
    for (let i = 0; i < RUNS; i++) {
      const s = await b.engine.session({
        courseId: b.courseId,
        teacherId: b.teacherId,
        startTime: futureSlot(600 + i),
        endTime: futureSlot(600 + i + 0.5),
        reservableCount: 3,
      });
      other.push(s.id);
    }
    ca = new Client(env().app);
    cb = new Client(env().app);
    for (const [c, s] of [
      [ca, a],
      [cb, b],
    ] as const) {
      const r = await c.login(s.username, SCENE_PASSWORD);
      if (r.code !== 0) throw new Error(r.msg);
    }
  });

  it(`${RUNS} orderings of book / cancel / pending / sign-in / delete / resize keep seats, balances and history exact`, async () => {
    let run = 0;
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(opArb, { minLength: 3, maxLength: 8 }), async (s, ops) => {
        const i = run++ % RUNS;
        const tidA = a.sessions[i];
        const tidB = b.sessions[i];
        const hour = 100 + i;
        const seen: string[] = [];
        // A member of store B whose card holds one class (sign-in mode: nothing charged until sign-in).
        const tight = await b.engine.memberWithCard(b.productId, { card: { totalCount: 1 } });
        // Before the race: members 0 and 1 hold seats on both sessions (3 seats on A, 3 on B).
        for (const [c, st, tid, p] of [
          [ca, a, tidA, '/add/member/reservation'],
          [cb, b, tidB, '/add/member/group/pending'],
        ] as const) {
          for (const m of st.members.slice(0, 2)) {
            const r = await c.call(`${API}${p}`, { mcId: m.card, mid: m.id, tid });
            if (r.code !== 0) throw new Error(`setup ${p}: ${r.msg}`);
          }
        }
        const doOp = async (op: Op) => {
          let path = '';
          let body: Record<string, unknown> = {};
          let client = ca;
          if (op.kind === 'delete') [path, body] = ['/cancel/timetable', { id: tidA }];
          else if (op.kind === 'tightPending') {
            client = cb;
            const tid = op.at === 0 ? tidB : other[i];
            [path, body] = ['/add/member/group/pending', { mid: tight.member.id, tid, mcId: tight.card.id }];
          } else if (op.kind === 'resize') {
            const start = futureSlot(hour);
            path = '/update/timetable/reservable/count';
            body = {
              id: tidA,
              teacherId: a.teacherId,
              date: start.slice(0, 10),
              time: start.slice(11, 16),
              count: op.seats,
              areaId: a.areaId,
            };
          } else if (op.kind === 'book') {
            const m = a.members[op.who];
            [path, body] = ['/add/member/reservation', { mcId: m.card, tid: tidA, mid: m.id }];
          } else if (op.kind === 'cancel') {
            const r = await env()
              .database.db.selectFrom('reservation')
              .select('id')
              .where('timetableId', '=', tidA)
              .where('memberId', '=', a.members[op.who].id)
              .executeTakeFirst();
            if (!r) return;
            [path, body] = ['/cancel/reservation', { id: r.id }];
          } else {
            client = cb;
            const m = b.members[op.who];
            if (op.kind === 'pending') [path, body] = ['/add/member/group/pending', { mid: m.id, tid: tidB }];
            else {
              const p = await env()
                .database.db.selectFrom('pending')
                .select('id')
                .where('timetableId', '=', tidB)
                .where('memberId', '=', m.id)
                .executeTakeFirst();
              if (!p) return;
              path = op.kind === 'signIn' ? '/sign/in/pending' : '/cancel/pending';
              body = op.kind === 'signIn' ? { pendingId: p.id, mcId: m.card } : { pendingId: p.id };
            }
          }
          const ans = await client.call(`${API}${path}`, body);
          const problems = envelopeProblems({ status: ans.status, text: JSON.stringify(ans) });
          if (problems.length) throw new Error(`${path} ${JSON.stringify(body)}: ${problems.join('; ')} ${ans.msg}`);
          const outcome = `${op.kind} ${ans.code === 0 ? 'ok' : ans.msg}`;
          seen.push(outcome);
          tally[outcome] = (tally[outcome] ?? 0) + 1;
        };
        const tasks = ops.map((op) => s.schedule(Promise.resolve(op)).then(doOp));
        await s.waitAll();
        await Promise.all(tasks);

        const problems = await invariantProblems(env().database.db, env().dialect);
        expect(problems, `${s.report()}\n${seen.join('\n')}`).toEqual([]);
        // The one-class card holds at most one pending waiting for sign-in, however the calls crossed.
        const held = await env()
          .database.db.selectFrom('pending')
          .select('timetableId')
          .where('memberCardId', '=', tight.card.id)
          .where('status', '=', PendingStatus.WAITING)
          .execute();
        expect(held.length, `${s.report()}\n${seen.join('\n')}`).toBeLessThanOrEqual(1);
        const session = await env()
          .database.db.selectFrom('timetable')
          .select(['realCount', 'reservableCount'])
          .where('id', '=', tidA)
          .executeTakeFirstOrThrow();
        expect(session.realCount).toBeLessThanOrEqual(session.reservableCount);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`outcomes over ${RUNS} orderings [${env().dialect}]`, tally);
    for (const k of [
      'book ok',
      `book ${Msg.sessionFull}`,
      'cancel ok',
      'pending ok',
      'signIn ok',
      'delete ok',
      'tightPending ok',
      `tightPending ${Msg.cardCommitted}`,
    ]) {
      expect(tally[k] ?? 0, k).toBeGreaterThan(0);
    }
  });
});
