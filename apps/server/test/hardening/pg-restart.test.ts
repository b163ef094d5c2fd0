// PostgreSQL stopped and started again under load with three app instances on it: requests during
// the outage answer 503 数据库暂时不可用, no instance dies, every instance serves again once the
// database is back, without a restart, and the invariants hold. The database is a throwaway
// cluster of this test's own (never the shared server). RESTART_CYCLES (default 2) for the long run.
import { Msg } from '@studio/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { waitFor } from '../outbox.ts';
import { REQUIRE_ALL } from '../harness.ts';
import { postgresBinaries, ThrowawayCluster } from './pg-cluster.ts';
import { makeLoadStore, pick, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { HttpClient, startServer, type HttpAnswer, type ServerProcess } from './server-process.ts';
import { envInt, invariantProblems } from './support.ts';

const CYCLES = envInt('RESTART_CYCLES', 2);
const API = '/store/api';
const bin = postgresBinaries();
const title = 'PostgreSQL restarted under load on three instances';

if (!bin && !REQUIRE_ALL) {
  describe.skip(`${title} (skipped: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin to start a throwaway cluster)`, () => {
    it('needs initdb and pg_ctl', () => {});
  });
} else {
  describe(`${title} [postgres]`, () => {
    let cluster: ThrowawayCluster | undefined;
    let db: DbHandle | undefined;
    const servers: ServerProcess[] = [];
    let store: LoadStore;
    const clients: HttpClient[] = [];

    beforeAll(async () => {
      if (!bin) throw new Error('REQUIRE_ALL=1 but no PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
      cluster = await ThrowawayCluster.create(bin);
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query('create database studio');
      await admin.end();
      const url = cluster.url.replace(/\/postgres$/, '/studio');
      const env = { DATABASE_URL: url, SEED: 'empty', PG_POOL_MAX: '6' };
      servers.push(...(await Promise.all([0, 1, 2].map(() => startServer(env, 120_000)))));
      db = openDatabase({ url, poolMax: 2 });
      store = await makeLoadStore(db.db, { members: 30, balance: 1000, sessions: 20, seats: 8 });
      for (const s of servers) {
        const c = new HttpClient(s.url);
        const a = await c.login(store.username, SCENE_PASSWORD);
        if (a.code !== 0) throw new Error(`login failed: ${a.msg}`);
        clients.push(c);
      }
    }, 180_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await db?.close();
      await cluster?.destroy();
    });

    it(`stopped and started ${CYCLES} times under load: 503 meanwhile, no instance dies, all serve again`, async () => {
      const counts = { ok: 0, refused: 0, unavailable: 0 };
      const problems: string[] = [];
      let stop = false;
      const record = (what: string, a: HttpAnswer) => {
        if (a.code === 0) counts.ok += 1;
        else if (a.status === 503 && a.msg === Msg.dbUnavailable) counts.unavailable += 1;
        else if (a.status >= 400 && a.status < 500 && /[\u4e00-\u9fff]/.test(a.msg)) counts.refused += 1;
        else if (problems.length < 20) problems.push(`${what} -> ${a.status} ${a.code} ${a.msg}`);
      };
      const worker = async (i: number) => {
        while (!stop) {
          const c = clients[i % clients.length];
          const m = pick(store.members);
          const [what, body] =
            Math.random() < 0.5
              ? ['/add/member/reservation', { mcId: m.card, tid: pick(store.sessions), mid: m.id, studentCount: 1 }]
              : ['/query/timetable/by/date', { fromDate: store.firstDay, toDate: store.firstDay }];
          let a: HttpAnswer;
          try {
            a = await c.call(`${API}${what}`, body);
          } catch (err) {
            a = { status: 0, code: -1, data: null, msg: `no answer: ${(err as Error).message}` };
          }
          record(what, a);
        }
      };
      const load = Promise.all(Array.from({ length: 12 }, (_, i) => worker(i)));
      const everyoneServes = async () => {
        const answers = await Promise.all(
          clients.map((c) =>
            c.call(`${API}/query/timetable/by/date`, { fromDate: store.firstDay, toDate: store.firstDay }),
          ),
        );
        return answers.every((a) => a.code === 0);
      };
      try {
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          const ok = counts.ok;
          await waitFor(async () => counts.ok > ok + 20, 'the load to be served before the stop', 60_000);
          await cluster!.stop('fast');
          const down = counts.unavailable;
          await waitFor(async () => counts.unavailable > down + 20, 'requests to meet the outage', 60_000);
          await cluster!.start();
          await waitFor(everyoneServes, 'every instance to serve again', 60_000);
        }
      } finally {
        stop = true;
        await load;
      }
      console.log(`restart under load, ${CYCLES} cycles:`, counts);
      expect(problems).toEqual([]);
      expect(counts.unavailable).toBeGreaterThan(0);
      for (const s of servers) {
        expect(s.proc.exitCode).toBeNull();
        expect(s.proc.signalCode).toBeNull();
        expect(s.output()).not.toMatch(/"level":60|Unhandled|uncaught/i);
      }
      expect(await invariantProblems(db!.db, 'postgres')).toEqual([]);
    }, 300_000);
  });
}
