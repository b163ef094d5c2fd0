// Races across three real server processes on one PostgreSQL database.
// RACE_SECONDS (default 10) sets the length of the mixed storm; 30+ for the long run.
import { Msg } from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { PG_URL, REQUIRE_ALL } from '../test/harness.ts';
import { mixedLoad, storm } from './load.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { HttpClient, startServer, type ServerProcess } from './server-process.ts';
import { envInt, invariantProblems } from './support.ts';

const SECONDS = envInt('RACE_SECONDS', 10);
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
      const env = { DATABASE_URL: fresh.url, SEED: 'empty', PG_POOL_MAX: '8' };
      servers.push(...(await Promise.all([0, 1, 2].map(() => startServer(env)))));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await db?.close();
      await drop?.();
    });

    it('200 concurrent bookings of a 10-seat session: exactly 10 succeed, 190 are told it is full', async () => {
      const store = await makeLoadStore(db.db, { members: 200, balance: 10, sessions: 1, seats: 10 });
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
      expect(ok.length).toBe(10);
      expect(full.length).toBe(190);
      const s = await db.db.selectFrom('timetable').select('realCount').where('id', '=', tid).executeTakeFirstOrThrow();
      expect(s.realCount).toBe(10);
      await check();
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
