// The backup drill: `npm run backup` of a store taking bookings (the real server, concurrent
// requests), `npm run restore` into a fresh database, then the invariants hold and every booking
// acknowledged before the backup started is there.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Dialect } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD } from '../../test/hardening/scene.ts';
import { HttpClient, REPO_ROOT, startServer } from '../../test/hardening/server-process.ts';
import { invariantProblems } from '../../test/hardening/support.ts';
import { PG_URL, REQUIRE_ALL } from '../../test/harness.ts';
import { scratchDir } from '../../test/scratch.ts';

const run = promisify(execFile);
const script = (name: string, args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', `scripts/${name}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
  });

const MEMBERS = 400;
const WORKERS = 16;

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  const title = `backup and restore drill [${dialect}]`;
  if (dialect === 'postgres' && !PG_URL && !REQUIRE_ALL) {
    describe.skip(`${title} (skipped: TEST_DATABASE_URL is not set)`, () => it('needs PostgreSQL', () => {}));
    continue;
  }
  describe(title, () => {
    const dir = scratchDir('studio-drill-');
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const d of drops) await d();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('backs up a store while it takes bookings and restores it whole into a fresh database', async () => {
      let url: string | undefined;
      let restoredUrl: string | undefined;
      if (dialect === 'postgres') {
        const [live, fresh] = await Promise.all([freshPgDatabase(PG_URL!), freshPgDatabase(PG_URL!)]);
        drops.push(live.drop, fresh.drop);
        url = live.url;
        restoredUrl = fresh.url;
      }
      const dataDir = path.join(dir, 'data');
      const liveFile = path.join(dataDir, 'studio.db');
      const db = openDatabase(url ? { url, poolMax: 4 } : { file: liveFile });
      await migrateToLatest(db.db, dialect);
      const store = await makeLoadStore(db.db, { members: MEMBERS, balance: 10, sessions: 20, seats: MEMBERS });
      await db.close();
      const env: Record<string, string> = url ? { DATABASE_URL: url } : { DATA_DIR: dataDir };
      const server = await startServer({ ...env, SEED: 'empty', ...(url ? { PG_POOL_MAX: '8' } : {}) });

      const acked = new Set<number>();
      let ackedBeforeBackup: Set<number> | undefined;
      let stop = false;
      try {
        const desk = new HttpClient(server.url);
        const login = await desk.login(store.username, SCENE_PASSWORD);
        expect(login.code, login.msg).toBe(0);
        // Each member books one session once, until the backup is done (or all have booked).
        let next = 0;
        const problems: string[] = [];
        const worker = async () => {
          while (!stop && next < store.members.length) {
            const i = next++;
            const m = store.members[i];
            const a = await desk.call('/store/api/add/member/reservation', {
              tid: store.sessions[i % store.sessions.length],
              mcId: m.card,
              mid: m.id,
              studentCount: 1,
            });
            if (a.code === 0) acked.add(m.id);
            else problems.push(`${a.status} ${a.msg}`);
          }
        };
        const load = Promise.all(Array.from({ length: WORKERS }, worker));
        // Start the backup once the load runs, with requests in flight.
        while (acked.size < 50 && next < store.members.length) await new Promise((r) => setTimeout(r, 5));
        ackedBeforeBackup = new Set(acked);
        const out = await script('db-backup.ts', ['--dir', path.join(dir, 'backups')], env);
        stop = true;
        await load;
        expect(problems).toEqual([]);
        expect(out.stdout).toContain('已备份');
      } finally {
        stop = true;
        await server.stop();
      }
      expect(server.proc.exitCode, server.output()).toBe(0);

      const files = fs.readdirSync(path.join(dir, 'backups'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(dialect === 'sqlite' ? /^studio-\d{8}-\d{6}\.db$/ : /^studio-\d{8}-\d{6}\.dump$/);
      const backupFile = path.join(dir, 'backups', files[0]);

      // The live database holds data: restoring over it is refused without --force.
      await expect(script('db-restore.ts', [backupFile], env)).rejects.toThrow(/--force/);

      const target = restoredUrl ?? path.join(dir, 'restored', 'studio.db');
      const restored = await script('db-restore.ts', [backupFile, '--target', target], {});
      expect(restored.stdout).toContain('已恢复');

      const back = openDatabase(restoredUrl ? { url: restoredUrl, poolMax: 2 } : { file: target });
      try {
        expect(await invariantProblems(back.db, dialect)).toEqual([]);
        const rows = await back.db
          .selectFrom('reservation')
          .innerJoin('timetable', 'timetable.id', 'reservation.timetableId')
          .select('reservation.memberId')
          .where('timetable.storeId', '=', store.storeId)
          .execute();
        const there = new Set(rows.map((r) => r.memberId));
        expect([...ackedBeforeBackup!].filter((id) => !there.has(id))).toEqual([]);
        // Nothing in the backup that was never acknowledged by the end of the load.
        expect([...there].filter((id) => !acked.has(id))).toEqual([]);
        // The restored database serves: it is migrated and the store's admin can log in.
        const again = await startServer(
          restoredUrl
            ? { DATABASE_URL: restoredUrl, SEED: 'empty' }
            : { DATA_DIR: path.dirname(target), SEED: 'empty' },
        );
        try {
          const c = new HttpClient(again.url);
          expect((await c.login(store.username, SCENE_PASSWORD)).code).toBe(0);
        } finally {
          await again.stop();
        }
      } finally {
        await back.close();
      }
    }, 240_000);
  });
}
