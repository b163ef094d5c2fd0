/**
 * Server memory under a long mixed load: the real server (`apps/server/src/main.ts`, a child
 * process on a temp SQLite file, or on PostgreSQL when BENCH_DATABASE_URL is set) is measured
 * (RSS from /proc) at start, after a warm-up and every 10 s of a mixed load (bookings, cancels,
 * calendar weeks, pendings and sign-ins, a few deletes) from 12 concurrent clients.
 *   node --import tsx bench/memory.ts    (MEMORY_MINUTES=2, MEMORY_WARMUP_SECONDS=30; 10 minutes for the long run)
 * Prints the RSS figures and the growth after warm-up (target: at most 10 %).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { mixedLoad, type LoadStats } from '../apps/server/test/hardening/load.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD } from '../apps/server/test/hardening/scene.ts';
import { HttpClient, startServer } from '../apps/server/test/hardening/server-process.ts';

const MINUTES = Number(process.env.MEMORY_MINUTES ?? 2);
const WARMUP_S = Number(process.env.MEMORY_WARMUP_SECONDS ?? 30);
const SAMPLE_MS = 10_000;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function run(label: string, pgBase: string | undefined) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const fresh = pgBase ? await freshPgDatabase(pgBase) : undefined;
  const handle = openDatabase(fresh ? { url: fresh.url, poolMax: 4 } : { file: path.join(dir, 'studio.db') });
  await migrateToLatest(handle.db, handle.dialect);
  const a = await makeLoadStore(handle.db, { members: 200, balance: 1_000_000, sessions: 300, seats: 20 });
  const b = await makeLoadStore(handle.db, {
    members: 100,
    balance: 1_000_000,
    sessions: 100,
    seats: 10,
    mode: 1,
    firstHour: 1000,
  });
  await handle.close();
  const server = await startServer(
    fresh
      ? { DATABASE_URL: fresh.url, SEED: 'empty', LOG_LEVEL: 'warn' }
      : { DATA_DIR: dir, SEED: 'empty', LOG_LEVEL: 'warn' },
  );
  const pid = server.proc.pid!;
  const login = async (username: string) => {
    const c = new HttpClient(server.url);
    if ((await c.login(username, SCENE_PASSWORD)).code !== 0) throw new Error('login failed');
    return c;
  };
  try {
    const atStart = rssMiB(pid);
    const book = { store: a, clients: [await login(a.username)] };
    const signIn = { store: b, clients: [await login(b.username)] };
    const phase = async (ms: number, onSample?: () => void): Promise<LoadStats> => {
      const end = Date.now() + ms;
      const timer = onSample ? setInterval(onSample, SAMPLE_MS) : undefined;
      try {
        return await mixedLoad({ book, signIn, workers: 12, deleteRate: 0.002, until: () => Date.now() > end });
      } finally {
        if (timer) clearInterval(timer);
      }
    };
    await phase(WARMUP_S * 1000);
    const afterWarmup = rssMiB(pid);
    const samples: number[] = [];
    const stats = await phase(MINUTES * 60_000, () => samples.push(rssMiB(pid)));
    const atEnd = rssMiB(pid);
    const peak = Math.max(afterWarmup, atEnd, ...samples);
    const growth = ((atEnd - afterWarmup) / afterWarmup) * 100;
    // Right after warm-up RSS still holds uncollected garbage: also measure from the lowest sample.
    const low = Math.min(afterWarmup, ...samples);
    const drift = ((atEnd - low) / low) * 100;
    const rate = Math.round(stats.calls / (MINUTES * 60));
    console.log(`${label}: RSS at start ${atStart} MiB, after ${WARMUP_S} s warm-up ${afterWarmup} MiB`);
    console.log(
      `  after ${MINUTES} min of mixed load (${stats.calls} calls, ${rate}/s): ${atEnd} MiB, peak ${peak} MiB`,
    );
    console.log(`  samples every ${SAMPLE_MS / 1000} s: ${samples.join(', ')}`);
    console.log(
      `  growth after warm-up: ${growth.toFixed(1)} %, from the lowest sample (${low} MiB): ${drift.toFixed(1)} % (target <= 10 %)${stats.problems.length ? `; problems: ${stats.problems.join(' | ')}` : ''}`,
    );
    const result = {
      bench: 'memory',
      db: label,
      measurement: `RSS after ${MINUTES} min mixed load`,
      value: `${atEnd} MiB`,
      baseline: `${afterWarmup} MiB after warm-up (${atStart} MiB at start)`,
      ratio: `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %`,
      note: `${drift >= 0 ? '+' : ''}${drift.toFixed(1)} % from the lowest sample ${low} MiB; ${rate} calls/s, peak ${peak} MiB`,
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await server.stop();
    await fresh?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`memory benchmark: ${WARMUP_S} s warm-up, then ${MINUTES} min of mixed load, Node ${process.version}`);
await run('SQLite', undefined);
if (process.env.BENCH_DATABASE_URL) await run('PostgreSQL', process.env.BENCH_DATABASE_URL);
