// The no-show job under SIGKILL: two processes run it at once over the same no-shows; one is killed
// at a random moment of its run, then again after a restart; a last run finishes. Every no-show is
// processed and charged exactly once (history, ledger, card balance) to the card it was booked with
// (each member also holds an older card the job must leave alone), nothing is missed, and the
// engine's invariants hold. Both databases (PostgreSQL when TEST_DATABASE_URL is set).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OperateType, PendingStatus } from '@studio/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Dialect, type DbHandle } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { inWriteTx } from '../../src/lib/write-queue.ts';
import { savePolicy } from '../../src/features/policy/service.ts';
import { addPending } from '../../src/features/timetable/public.ts';
import { storeScopeById } from '../../src/lib/store-scope.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { freshPgDatabase, makeLoadStore } from './scene.ts';
import { REPO_ROOT } from './server-process.ts';
import { invariantProblems } from './support.ts';
import { scratchDir } from '../scratch.ts';

const MEMBERS = 40;
const SESSIONS = 30;
/** After every class of the scene (they are in 2099): the job's store-local clock. */
const CLOCK = '2199-01-01 00:00:00';

function startJob(env: Record<string, string>): {
  proc: ChildProcess;
  done: Promise<number | null>;
  out: () => string;
} {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/hardening/no-show-child.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, JOB_CLOCK: CLOCK, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, done, out: () => out };
}

async function processed(db: DbHandle, storeId: number): Promise<number> {
  const r = await db.db
    .selectFrom('pending')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('storeId', '=', storeId)
    .where('status', '=', PendingStatus.NO_SHOW)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function suite(dialect: Dialect) {
  describe(`the no-show job killed mid-run [${dialect}]`, () => {
    const dir = scratchDir('studio-noshow-');
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('two instances, SIGKILL twice at random moments: each no-show charged once, none missed', async () => {
      let url: string | undefined;
      if (dialect === 'postgres') {
        const fresh = await freshPgDatabase(PG_URL!);
        drop = fresh.drop;
        url = fresh.url;
      }
      const file = path.join(dir, 'studio.db');
      const open = () => openDatabase(url ? { url, poolMax: 4 } : { file });
      const env: Record<string, string> = url ? { DATABASE_URL: url } : { SQLITE_FILE: file };
      const db = open();
      await migrateToLatest(db.db, dialect);
      // A sign-in-mode store whose policy charges no-shows; every member holds a seat of every class.
      const store = await makeLoadStore(db.db, {
        members: MEMBERS,
        balance: 1000,
        sessions: SESSIONS,
        seats: MEMBERS,
        mode: 1,
      });
      await savePolicy(db.db, store.storeId, { noShow: 'forfeit' });
      const scope = (await storeScopeById(db.db, store.storeId))!;
      // Every member books with a second card: their first (older, the first usable) is not to be charged.
      const booked = new Map<number, number>();
      for (const m of store.members) {
        booked.set(m.id, (await store.engine.f.memberCard(m.id, store.productId, { totalCount: 1000 })).id);
      }
      await inWriteTx(db.db, dialect, async (tx) => {
        for (const tid of store.sessions) {
          for (const m of store.members) {
            await addPending(tx, scope, {
              sessionId: tid,
              memberId: m.id,
              studentCount: 1,
              remark: null,
              operatorId: null,
              memberCardId: booked.get(m.id)!,
            });
          }
        }
      });
      const total = MEMBERS * SESSIONS;
      const kills: number[] = [];

      /** Kills `job` once `target` no-shows are processed (or it ended); answers the count then. */
      const killAt = async (job: ReturnType<typeof startJob>, target: number) => {
        while ((await processed(db, store.storeId)) < target && job.proc.exitCode === null) {
          await new Promise((r) => setTimeout(r, 5));
        }
        job.proc.kill('SIGKILL');
        await job.done;
        return processed(db, store.storeId);
      };
      const share = (from: number, lo: number, hi: number) =>
        from + Math.floor((total - from) * (lo + Math.random() * (hi - lo)));
      // Round 1: two instances at once, each killed at its own random moment.
      const a = startJob(env);
      const b = startJob(env);
      kills.push(await killAt(a, share(0, 0.05, 0.2)));
      kills.push(await killAt(b, share(0, 0.25, 0.45)));
      // Round 2: a restarted instance, killed again.
      kills.push(await killAt(startJob(env), share(kills[1], 0.1, 0.4)));
      // Each kill landed inside a run: work was left for the next.
      for (const k of kills) expect(k).toBeLessThan(total);
      // A last instance finishes what is left.
      const last = startJob(env);
      expect(await last.done, last.out()).toBe(0);
      expect(await processed(db, store.storeId)).toBe(total);

      // Exactly once: one 爽约 history row and one ledger charge per no-show; balances match.
      const trail = await db.db
        .selectFrom('history')
        .select(['pendingId'])
        .where('storeId', '=', store.storeId)
        .where('operateType', '=', OperateType.NO_SHOW)
        .execute();
      expect(trail.length).toBe(total);
      expect(new Set(trail.map((t) => t.pendingId)).size).toBe(total);
      const charges = await db.db
        .selectFrom('cardLedger')
        .select(['memberCardId', 'timetableId', 'amount'])
        .where('storeId', '=', store.storeId)
        .where('kind', '=', 'no_show')
        .execute();
      expect(charges.length).toBe(total);
      expect(new Set(charges.map((c) => `${c.memberCardId}:${c.timetableId}`)).size).toBe(total);
      const cards = await db.db
        .selectFrom('memberCard')
        .select(['id', 'usedCount'])
        .where('storeId', '=', store.storeId)
        .execute();
      const named = new Set(booked.values());
      expect(cards).toHaveLength(MEMBERS * 2);
      for (const c of cards) expect(Number(c.usedCount), `card ${c.id}`).toBe(named.has(c.id) ? SESSIONS : 0);
      expect(await invariantProblems(db.db, dialect)).toEqual([]);
      console.log(`no-show job [${dialect}]: ${total} no-shows, killed at ${kills.join(' and ')} processed`);
      await db.close();
    }, 240_000);
  });
}

suite('sqlite');
if (PG_URL) suite('postgres');
else if (REQUIRE_ALL) {
  describe('the no-show job killed mid-run [postgres]', () => {
    it('needs PostgreSQL', () => {
      throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set');
    });
  });
}
