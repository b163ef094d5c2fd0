// /healthz, /readyz and /metrics: who may read them, what they say, on SQLite and PostgreSQL.
import { Msg } from '@studio/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Dialect } from '../db/index.ts';
import { makeLoadStore, SCENE_PASSWORD, type LoadStore } from '../../test/hardening/scene.ts';
import { startRepeating } from '../lib/jobs.ts';
import { enqueue } from '../outbox/index.ts';
import { Client, freshDatabase, PG_URL, REQUIRE_ALL, type App } from '../../test/harness.ts';
import { HealthMsg, readinessCheck } from './health.ts';
import { MetricsMsg } from './metrics.ts';

const TOKEN = 'metrics-token-for-tests';

/** The value of one sample line of a Prometheus text (`name{labels}` exactly as printed). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  const title = `operators' endpoints [${dialect}]`;
  if (dialect === 'postgres' && !PG_URL && !REQUIRE_ALL) {
    describe.skip(`${title} (skipped: TEST_DATABASE_URL is not set)`, () => it('needs PostgreSQL', () => {}));
    continue;
  }
  describe(title, () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let app: App;
    let store: LoadStore;
    let desk: Client;

    const get = (url: string, o: { from?: string; headers?: Record<string, string> } = {}) =>
      app.inject({ method: 'GET', url, remoteAddress: o.from ?? '127.0.0.1', headers: o.headers ?? {} });

    beforeAll(async () => {
      database = await freshDatabase(dialect);
      const config = {
        ...loadConfig({ LOG_LEVEL: 'silent', METRICS_TOKEN: TOKEN } as NodeJS.ProcessEnv),
        webDist: '/nonexistent',
        memberDist: '/nonexistent',
      };
      app = await buildApp({ config, database, logger: false });
      await app.ready();
      store = await makeLoadStore(database.db, { members: 3, balance: 5, sessions: 1, seats: 1 });
      desk = new Client(app);
      const login = await desk.login(store.username, SCENE_PASSWORD);
      expect(login.code, login.msg).toBe(0);
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await database?.close();
      await database?.drop();
    });

    it('/healthz answers anyone with an envelope, /readyz says ready on a migrated database', async () => {
      const h = await get('/healthz', { from: '203.0.113.9' });
      expect(h.statusCode).toBe(200);
      expect(h.json()).toEqual({ code: 0, data: { status: 'ok' }, msg: '' });
      const r = await get('/readyz', { from: '203.0.113.9' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ code: 0, data: { status: 'ready' }, msg: '' });
    });

    it('/readyz is 503 while migrations are pending and when the database does not answer within the time-out', async () => {
      const bare =
        dialect === 'sqlite' ? openDatabase({ file: ':memory:' }) : openDatabase({ url: PG_URL!, poolMax: 1 });
      try {
        if (dialect === 'sqlite') expect(await readinessCheck(bare)()).toBe(HealthMsg.migrationsPending);
        // The only connection is held: the check gives up after its time-out.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        const holding = bare.db.connection().execute(() => held);
        expect(await readinessCheck(bare, 200)()).toBe(HealthMsg.notReady);
        release();
        await holding;
      } finally {
        await bare.close();
      }
    });

    it('/metrics: loopback or the bearer token; others get 403 / 401 with a Chinese message', async () => {
      const far = await get('/metrics', { from: '203.0.113.9' });
      expect(far.statusCode).toBe(403);
      expect(far.json()).toMatchObject({ code: 403, data: null, msg: MetricsMsg.forbidden });
      // a local reverse proxy forwarding an outside request is not "this machine"
      const proxied = await get('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.statusCode).toBe(403);
      const wrong = await get('/metrics', { from: '203.0.113.9', headers: { authorization: 'Bearer nope' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: 401, data: null, msg: MetricsMsg.badToken });
      const token = await get('/metrics', { from: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(token.statusCode).toBe(200);
      expect((await get('/metrics', { from: '::1' })).statusCode).toBe(200);
    });

    it('/metrics counts requests by route pattern, booking outcomes, the pool, the outbox and jobs', async () => {
      const [a, b] = store.members;
      const tid = store.sessions[0];
      const booked = await desk.call('/store/api/add/member/reservation', { tid, mcId: a.card, studentCount: 1 });
      expect(booked.code, booked.msg).toBe(0);
      const full = await desk.call('/store/api/add/member/reservation', { tid, mcId: b.card, studentCount: 1 });
      expect(full.msg).toBe(Msg.sessionFull);
      await get('/no/such/page/12345');
      await enqueue(database.db, store.storeId, 'test.topic', 'k', { x: 1 });
      const stop = startRepeating({
        what: `ops test job ${dialect}`,
        log: { warn: () => {} },
        run: () => Promise.reject(new Error('boom')),
        everyMs: 3600_000,
      });
      await stop();

      const res = await get('/metrics');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.body;
      const route = 'route="/store/api/add/member/reservation",method="POST"';
      expect(sample(text, `http_requests_total{${route},status="200"}`)).toBe(1);
      expect(sample(text, `http_requests_total{${route},status="409"}`)).toBe(1);
      expect(sample(text, `http_request_duration_seconds_count{${route},status="200"}`)).toBe(1);
      expect(text).toContain('route="(unmatched)"');
      expect(text).not.toContain('/no/such/page');
      expect(sample(text, 'studio_booking_outcomes_total{outcome="booked"}')).toBe(1);
      expect(sample(text, 'studio_booking_outcomes_total{outcome="refused"}')).toBe(1);
      expect(sample(text, 'studio_booking_outcomes_total{outcome="waitlist_promoted"}')).toBe(0);
      expect(sample(text, 'studio_db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'studio_db_pool_connections{state="waiting"}')).toBe(0);
      expect(sample(text, 'studio_outbox_depth')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'studio_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, `studio_job_runs_total{job="ops test job ${dialect}"}`)).toBe(1);
      expect(sample(text, `studio_job_failures_total{job="ops test job ${dialect}"}`)).toBe(1);
      expect(text).toContain('process_cpu_seconds_total');
    });
  });
}
