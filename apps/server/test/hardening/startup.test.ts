// Starting instances: several at once on an empty PostgreSQL database (migrations and the demo
// seed run once, the others wait and start), and a second instance on one SQLite file (refused
// with a clear message; the first keeps serving).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/index.ts';
import { DEMO_ADMIN } from '../../src/ops/seed/index.ts';
import { sqliteInUseMessage } from '../../src/ops/startup.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { freshPgDatabase } from './scene.ts';
import { HttpClient, startServer, type ServerProcess } from './server-process.ts';
import { scratchDir } from '../scratch.ts';

const PASSWORD = 'startup-password-1';
const title = 'three instances started at once on an empty PostgreSQL database';

if (!PG_URL && !REQUIRE_ALL) {
  describe.skip(`${title} [postgres] (skipped: TEST_DATABASE_URL is not set)`, () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  describe(`${title} [postgres]`, () => {
    let db: DbHandle | undefined;
    let drop: (() => Promise<void>) | undefined;
    const servers: ServerProcess[] = [];

    beforeAll(() => {
      if (!PG_URL) throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set: the start-up suite cannot run');
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await db?.close();
      await drop?.();
    });

    it('all three start, one demo store is loaded, the admin logs in on each', async () => {
      const fresh = await freshPgDatabase(PG_URL!);
      drop = fresh.drop;
      const env = { DATABASE_URL: fresh.url, SEED: 'demo', ADMIN_PASSWORD: PASSWORD, PG_POOL_MAX: '4' };
      const started = await Promise.allSettled([0, 1, 2].map(() => startServer(env, 120_000)));
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual([
        'started',
        'started',
        'started',
      ]);
      db = openDatabase({ url: fresh.url, poolMax: 2 });
      const stores = await db.db.selectFrom('store').select('name').execute();
      expect(stores).toHaveLength(1);
      const admins = await db.db.selectFrom('staff').select('id').where('username', '=', DEMO_ADMIN).execute();
      expect(admins).toHaveLength(1);
      expect(servers.filter((s) => s.output().includes('已载入演示门店'))).toHaveLength(1);
      for (const s of servers) expect((await new HttpClient(s.url).login(DEMO_ADMIN, PASSWORD)).code).toBe(0);
    }, 180_000);
  });
}

describe('a second instance on the same SQLite file [sqlite]', () => {
  const dir = scratchDir('studio-lock-');
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is refused with a Chinese message while the first serves; after kill -9 of the first a new one starts', async () => {
    const env = { DATA_DIR: dir, SEED: 'demo', ADMIN_PASSWORD: PASSWORD };
    const first = await startServer(env);
    servers.push(first);
    const refusal = await startServer(env).then(
      (s) => (servers.push(s), 'started'),
      (err: Error) => err.message,
    );
    expect(refusal).toContain(sqliteInUseMessage(path.join(dir, 'studio.db')));
    expect((await new HttpClient(first.url).login(DEMO_ADMIN, PASSWORD)).code).toBe(0);
    // The lock dies with its process: no stale lock file blocks the next start.
    await first.stop('SIGKILL');
    const next = await startServer(env);
    servers.push(next);
    expect((await new HttpClient(next.url).login(DEMO_ADMIN, PASSWORD)).code).toBe(0);
  }, 120_000);
});
