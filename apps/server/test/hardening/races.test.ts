// Races across three real server processes on one PostgreSQL database.
// RACE_SECONDS (default 10) sets the length of the mixed storm; 30+ for the long run.
import { MemberMsg, Msg } from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createStoreWithAdmin } from '../../src/features/store-admin/public.ts';
import { MAX_PER_ACCOUNT, MAX_PER_IP } from '../../src/auth/rate-limit.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { mixedLoad, storm } from './load.ts';
import { freshPgDatabase, futureSlot, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { HttpClient, startServer, type ServerProcess } from './server-process.ts';
import { envInt, invariantProblems } from './support.ts';

const SECONDS = envInt('RACE_SECONDS', 10);
const CROSS_ROUNDS = envInt('RACE_CROSS_ROUNDS', 15);
const title = 'races across three server processes on one PostgreSQL database';

if (!PG_URL && !REQUIRE_ALL) {
  describe.skip(`${title} (skipped: TEST_DATABASE_URL is not set; this suite needs PostgreSQL)`, () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  describe(title, () => {
    let db: DbHandle;
    let drop: (() => Promise<void>) | undefined;
    const servers: ServerProcess[] = [];

    async function clientsOf(store: LoadStore): Promise<HttpClient[]> {
      const out: HttpClient[] = [];
      for (const s of servers) {
        const c = new HttpClient(s.url);
        const a = await c.login(store.username, SCENE_PASSWORD);
        if (a.code !== 0) throw new Error(`login failed on ${s.url}: ${a.msg}`);
        out.push(c);
      }
      return out;
    }

    const check = async () => expect(await invariantProblems(db.db, 'postgres')).toEqual([]);

    beforeAll(async () => {
      if (!PG_URL) throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set: the race suite cannot run');
      const fresh = await freshPgDatabase(PG_URL);
      drop = fresh.drop;
      db = openDatabase({ url: fresh.url, poolMax: 4 });
      await migrateToLatest(db.db, 'postgres');
      // TRUST_PROXY: the login races name their client address in X-Forwarded-For.
      const env = { DATABASE_URL: fresh.url, SEED: 'empty', PG_POOL_MAX: '8', TRUST_PROXY: '1' };
      servers.push(...(await Promise.all([0, 1, 2].map(() => startServer(env)))));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await db?.close();
      await drop?.();
    });

    it('200 concurrent bookings of a 20-seat session (a class release): exactly 20 succeed, 180 are told it is full', async () => {
      const store = await makeLoadStore(db.db, { members: 200, balance: 10, sessions: 1, seats: 20 });
      const clients = await clientsOf(store);
      const tid = store.sessions[0];
      const t0 = performance.now();
      const answers = await storm(
        clients,
        '/add/member/reservation',
        store.members.map((m) => ({ mcId: m.card, tid, mid: m.id, studentCount: 1 })),
      );
      console.log(`200 concurrent bookings of one session over 3 instances: ${Math.round(performance.now() - t0)} ms`);
      const ok = answers.filter((a) => a.code === 0);
      const full = answers.filter((a) => a.status === 409 && a.msg === Msg.sessionFull);
      expect(ok.length).toBe(20);
      expect(full.length).toBe(180);
      const s = await db.db.selectFrom('timetable').select('realCount').where('id', '=', tid).executeTakeFirstOrThrow();
      expect(s.realCount).toBe(20);
      await check();
    });

    it("200 members booking a 10-seat class from the members' channel at once: exactly 10 succeed, 190 are told it is full", async () => {
      const store = await makeLoadStore(db.db, { members: 200, balance: 10, sessions: 1, seats: 10, firstHour: 500 });
      const desks = await clientsOf(store);
      const tid = store.sessions[0];
      // each member signs in on one of the instances with a code the desk gave them
      const rows = await db.db
        .selectFrom('member')
        .select(['id', 'mobile'])
        .where('storeId', '=', store.storeId)
        .execute();
      const mobileOf = new Map(rows.map((r) => [r.id, r.mobile]));
      // twenty at a time: every login reserves one of this address's 30 wrong-login slots until it
      // succeeds, so more than 30 at once from one address would be refused (the members' door)
      const members: { client: HttpClient; card: number }[] = [];
      for (let from = 0; from < store.members.length; from += 20) {
        const chunk = store.members.slice(from, from + 20);
        members.push(
          ...(await Promise.all(
            chunk.map(async (m, j) => {
              const i = from + j;
              const desk = desks[i % desks.length];
              const code = await desk.call('/store/api/create/member/login/code', { memberId: m.id });
              expect(code.code, code.msg).toBe(0);
              const client = new HttpClient(servers[(i + 1) % servers.length].url);
              const login = await client.loginMember(store.storeId, mobileOf.get(m.id)!, code.data.code);
              expect(login.code, login.msg).toBe(0);
              return { client, card: m.card };
            }),
          )),
        );
      }
      const t0 = performance.now();
      const answers = await Promise.all(
        members.map((m) => m.client.call('/member/api/add/reservation', { tid, mcId: m.card, studentCount: 1 })),
      );
      console.log(`200 members booking one 10-seat class over 3 instances: ${Math.round(performance.now() - t0)} ms`);
      const ok = answers.filter((a) => a.code === 0);
      const full = answers.filter((a) => a.status === 409 && a.msg === Msg.sessionFull);
      expect(ok.length).toBe(10);
      expect(full.length).toBe(190);
      const s = await db.db.selectFrom('timetable').select('realCount').where('id', '=', tid).executeTakeFirstOrThrow();
      expect(s.realCount).toBe(10);
      const history = await db.db
        .selectFrom('history')
        .select(['operateType', 'operatorId'])
        .where('timetableId', '=', tid)
        .execute();
      expect(history.map((h) => [h.operateType, h.operatorId])).toEqual(Array(10).fill([1, null]));
      await check();
    });

    it("a member's login over three instances: 31 wrong logins at once from one address answer 30 × 401 and 1 × 429; a desk code takes five of them", async () => {
      const store = await makeLoadStore(db.db, { members: 1, balance: 1, sessions: 0, seats: 1 });
      const desks = await clientsOf(store);
      const memberId = store.members[0].id;
      const m = await db.db.selectFrom('member').select('mobile').where('id', '=', memberId).executeTakeFirstOrThrow();
      // the desk is held to none of the door's limits: ten codes at once are ten codes
      const issued = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          desks[i % desks.length].call('/store/api/create/member/login/code', { memberId }),
        ),
      );
      expect(issued.filter((a) => a.code === 0).length).toBe(10);
      const newest = await db.db
        .selectFrom('memberLoginCode')
        .select(['id'])
        .where('memberId', '=', memberId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const codes = issued.map((a) => a.data.code as string);
      const wrong = ['000000', '111111', '222222'].find((c) => !codes.includes(c))!;
      // this address's wrong logins are counted in the database: 30 checked, whichever instance
      await db.db.deleteFrom('loginCounter').where('key', 'like', 'mli:%').execute();
      const tries = await Promise.all(
        Array.from({ length: 31 }, (_, i) =>
          new HttpClient(servers[i % servers.length].url).loginMember(store.storeId, m.mobile, wrong),
        ),
      );
      expect(tries.filter((a) => a.status === 401 && a.msg === MemberMsg.badCode).length).toBe(30);
      expect(tries.filter((a) => a.status === 429 && a.msg === MemberMsg.loginLocked).length).toBe(1);
      // of the thirty, five took a try of the newest desk code from this address; its row is untouched
      const perAddress = await db.db
        .selectFrom('loginCounter')
        .select(['key', 'n'])
        .where('key', 'like', `mct:${newest.id}:%`)
        .execute();
      expect(perAddress.map((r) => Number(r.n))).toEqual([5]);
      const row = await db.db
        .selectFrom('memberLoginCode')
        .select('tries')
        .where('id', '=', newest.id)
        .executeTakeFirstOrThrow();
      expect(row.tries).toBe(0);
    });

    it('200 concurrent bookings on one card with balance for 5: exactly 5 succeed, 195 are told the balance is short', async () => {
      const store = await makeLoadStore(db.db, { members: 1, balance: 5, sessions: 200, seats: 10, firstHour: 1000 });
      const clients = await clientsOf(store);
      const m = store.members[0];
      const t0 = performance.now();
      const answers = await storm(
        clients,
        '/add/member/reservation',
        store.sessions.map((tid) => ({ mcId: m.card, tid, mid: m.id, studentCount: 1 })),
      );
      console.log(`200 concurrent bookings on one card over 3 instances: ${Math.round(performance.now() - t0)} ms`);
      const ok = answers.filter((a) => a.code === 0);
      const short = answers.filter((a) => a.status === 409 && a.msg === Msg.cardBalance);
      expect(ok.length).toBe(5);
      expect(short.length).toBe(195);
      const card = await store.engine.cardRow(m.card);
      expect(card.usedCount).toBe(5);
      await check();
    });

    it(`locks in one order: one card booked into two sessions while both are resized and one deleted (${CROSS_ROUNDS} rounds)`, async () => {
      // Each round fires at once, over the three instances: the same card and four others booked
      // into sessions a and b, both resized up and down, a deleted (cancelling and refunding its
      // bookings, card by card). Bookings lock session then card; a delete locks the session, then
      // the cards it refunds; a resize locks the teacher, then the session. A lock taken out of
      // order would deadlock here (PostgreSQL aborts one side: a 500 and an error in the log).
      const firstHour = 6000;
      const store = await makeLoadStore(db.db, {
        members: 5,
        balance: 1000,
        sessions: CROSS_ROUNDS * 2,
        seats: 3,
        firstHour,
      });
      const clients = await clientsOf(store);
      const resize = (i: number, count: number) => {
        const start = futureSlot(firstHour + i);
        return {
          path: '/update/timetable/reservable/count',
          body: {
            id: store.sessions[i],
            teacherId: store.teacherId,
            date: start.slice(0, 10),
            time: start.slice(11, 16),
            count,
            areaId: store.areaId,
          },
        };
      };
      const answers: { path: string; status: number; code: number; msg: string }[] = [];
      for (let r = 0; r < CROSS_ROUNDS; r++) {
        const [a, b] = [store.sessions[2 * r], store.sessions[2 * r + 1]];
        const calls = [
          ...store.members.flatMap((m) =>
            [b, a].map((tid) => ({
              path: '/add/member/reservation',
              body: { mcId: m.card, tid, mid: m.id, studentCount: 1 },
            })),
          ),
          resize(2 * r + 1, 1),
          resize(2 * r, 2),
          resize(2 * r + 1, 5),
          resize(2 * r, 4),
          { path: '/cancel/timetable', body: { id: a } },
          // Every other round b goes too: two deletes refunding the same cards cross their orders.
          ...(r % 2 ? [{ path: '/cancel/timetable', body: { id: b } }] : []),
        ];
        const got = await Promise.all(
          calls.map((c, i) => clients[(i + r) % clients.length].call(`/store/api${c.path}`, c.body)),
        );
        got.forEach((g, i) => answers.push({ path: calls[i].path, status: g.status, code: g.code, msg: g.msg }));
      }
      const unexpected = answers.filter(
        (x) =>
          x.code !== 0 &&
          !(x.status === 409 && [Msg.sessionFull, Msg.capacityBelowBooked, Msg.cardBalance].includes(x.msg as never)) &&
          !(x.status === 404 && x.msg === '课程不存在'),
      );
      expect(unexpected).toEqual([]);
      const count = (path: string) => answers.filter((x) => x.path === path && x.code === 0).length;
      console.log(
        `cross-order storm over 3 instances, ${CROSS_ROUNDS} rounds: ${count('/add/member/reservation')} booked, ${count('/update/timetable/reservable/count')} resized, ${count('/cancel/timetable')} deleted`,
      );
      expect(count('/add/member/reservation')).toBeGreaterThan(0);
      expect(count('/cancel/timetable')).toBe(CROSS_ROUNDS + Math.floor(CROSS_ROUNDS / 2));
      await check();
      for (const s of servers) expect(s.output()).not.toMatch(/"level":(50|60)/);
    });

    it('waitlist over three instances: holders cancel, capacity rises and members join at once; nobody is promoted twice or past a seat', async () => {
      const firstHour = 9000;
      const store = await makeLoadStore(db.db, { members: 25, balance: 10, sessions: 1, seats: 5, firstHour });
      const clients = await clientsOf(store);
      const tid = store.sessions[0];
      await clients[0].call('/store/api/update/booking/policy', { waitlist: 1, waitlistCutoffMinutes: 0 });
      const [holders, early, late] = [store.members.slice(0, 5), store.members.slice(5, 15), store.members.slice(15)];
      await storm(
        clients,
        '/add/member/reservation',
        holders.map((m) => ({ mcId: m.card, tid, mid: m.id, studentCount: 1 })),
      );
      const joined = await storm(
        clients,
        '/add/waitlist',
        early.map((m) => ({ mcId: m.card, tid, mid: m.id, studentCount: 1 })),
      );
      expect(joined.filter((a) => a.code === 0).length).toBe(10);
      const booked = await db.db
        .selectFrom('reservation')
        .select(['id'])
        .where('timetableId', '=', tid)
        .where('status', '=', 1)
        .execute();
      const start = futureSlot(firstHour);
      const calls = [
        ...booked.map((r) => ({ path: '/cancel/reservation', body: { id: r.id } })),
        {
          path: '/update/timetable/reservable/count',
          body: {
            id: tid,
            teacherId: store.teacherId,
            date: start.slice(0, 10),
            time: start.slice(11, 16),
            count: 8,
            areaId: store.areaId,
          },
        },
        ...late.map((m) => ({ path: '/add/waitlist', body: { mcId: m.card, tid, mid: m.id, studentCount: 1 } })),
      ];
      const answers = await Promise.all(
        calls.map((c, i) => clients[i % clients.length].call(`/store/api${c.path}`, c.body)),
      );
      const unexpected = answers.filter((a) => a.code !== 0 && a.status !== 409);
      expect(unexpected).toEqual([]);
      const row = await db.db
        .selectFrom('timetable')
        .select(['realCount', 'reservableCount', 'waitCount'])
        .where('id', '=', tid)
        .executeTakeFirstOrThrow();
      const promoted = await db.db
        .selectFrom('waitlist')
        .select('memberId')
        .where('timetableId', '=', tid)
        .where('status', '=', 2)
        .execute();
      console.log(
        `waitlist storm over 3 instances: ${promoted.length} promoted, seats ${row.realCount}/${row.reservableCount}, ${row.waitCount} still waiting`,
      );
      expect(new Set(promoted.map((p) => p.memberId)).size).toBe(promoted.length);
      expect(row.realCount).toBeLessThanOrEqual(row.reservableCount);
      // A free seat and someone waiting never outlive the storm.
      expect(row.realCount === row.reservableCount || row.waitCount === 0).toBe(true);
      // The first ten in line came before anyone who joined during the storm.
      const early10 = new Set(early.map((m) => m.id));
      const firstPromoted = promoted.filter((p) => early10.has(p.memberId)).length;
      expect(firstPromoted).toBe(Math.min(promoted.length, 10));
      await check();
      for (const s of servers) expect(s.output()).not.toMatch(/"level":(50|60)/);
    });

    /** 100 logins at once spread over the three instances; answers counted by HTTP status. */
    async function loginStorm(body: (i: number) => { account: string; password: string }, ip: (i: number) => string) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const res = await fetch(`${servers[i % servers.length].url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(i) },
            body: JSON.stringify(body(i)),
          });
          return { status: res.status, msg: ((await res.json()) as { msg: string }).msg };
        }),
      );
      const byStatus: Record<number, number> = {};
      for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
      return byStatus;
    }

    it('100 wrong passwords for one account at once over three instances: only 10 are checked', async () => {
      await createStoreWithAdmin(db.db, {
        storeName: '登录竞争',
        admin: { username: 'race-login', password: 'right-password', name: '竞' },
      });
      const t0 = performance.now();
      const byStatus = await loginStorm(
        (i) => ({ account: 'race-login', password: `wrong-${i}` }),
        (i) => `10.50.${i}.1`,
      );
      console.log(`100 concurrent wrong logins over 3 instances: ${Math.round(performance.now() - t0)} ms`, byStatus);
      expect(byStatus).toEqual({ 401: MAX_PER_ACCOUNT, 429: 100 - MAX_PER_ACCOUNT });
    });

    it('100 logins from one address at once over three instances: only 30 are checked', async () => {
      const byStatus = await loginStorm(
        (i) => ({ account: `nobody-${i}`, password: 'x-password' }),
        () => '10.51.0.1',
      );
      expect(byStatus).toEqual({ 401: MAX_PER_IP, 429: 100 - MAX_PER_IP });
    });

    it(
      `a mixed book / cancel / sign-in / delete storm for ${SECONDS} s keeps every invariant`,
      async () => {
        const a = await makeLoadStore(db.db, { members: 60, balance: 1000, sessions: 30, seats: 5, firstHour: 3000 });
        const b = await makeLoadStore(db.db, {
          members: 40,
          balance: 1000,
          sessions: 15,
          seats: 4,
          mode: 1,
          firstHour: 4000,
        });
        const book = { store: a, clients: await clientsOf(a) };
        const signIn = { store: b, clients: await clientsOf(b) };
        const end = Date.now() + SECONDS * 1000;
        const stats = await mixedLoad({ book, signIn, workers: 24, until: () => Date.now() > end });
        console.log(`mixed storm over 3 instances, ${SECONDS} s: ${stats.calls} calls`, stats.counts);
        expect(stats.problems).toEqual([]);
        expect(stats.counts['book 0'] ?? 0).toBeGreaterThan(0);
        expect(stats.counts['cancel 0'] ?? 0).toBeGreaterThan(0);
        expect(stats.counts['signIn 0'] ?? 0).toBeGreaterThan(0);
        expect(stats.counts['delete 0'] ?? 0).toBeGreaterThan(0);
        await check();
        for (const s of servers) expect(s.output()).not.toMatch(/"level":(50|60)/);
      },
      60_000 + SECONDS * 2000,
    );
  });
}
