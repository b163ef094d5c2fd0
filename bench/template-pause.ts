/**
 * The worst pause a weekly-template run causes to everyone else: a template at the caps
 * (MAX_FIX_ROWS rows x MAX_FIX_STUDENTS fixed students) run for 200 weeks on the real server
 * (`apps/server/src/main.ts` in a child process), while one client of ANOTHER store asks for its
 * calendar week over and over, one request at a time. Baseline: the same probe for
 * PAUSE_BASELINE_SECONDS (default 5) before the run, in the same process. Prints the run's length,
 * the probe's p99 before, and its longest wait during the run (= the pause), with the ratio.
 * SQLite always; PostgreSQL too with BENCH_DATABASE_URL (a database of its own, dropped afterwards).
 *   node --import tsx bench/template-pause.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_FIX_ROWS, MAX_FIX_STUDENTS } from '@studio/contract';
import { openDatabase, type DbHandle } from '../apps/server/src/db/index.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD } from '../apps/server/test/hardening/scene.ts';
import { HttpClient, startServer } from '../apps/server/test/hardening/server-process.ts';

const WEEKS = 200;
const BASELINE_MS = Number(process.env.PAUSE_BASELINE_SECONDS ?? 5) * 1000;
const API = '/store/api';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

async function bench(label: string, pgUrl: string | undefined): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pause-'));
  const fresh = pgUrl ? await freshPgDatabase(pgUrl) : undefined;
  const server = await startServer(
    fresh ? { DATABASE_URL: fresh.url, SEED: 'empty' } : { DATA_DIR: dir, SEED: 'empty' },
    120_000,
  );
  let db: DbHandle | undefined;
  try {
    db = openDatabase(fresh ? { url: fresh.url, poolMax: 2 } : { file: path.join(dir, 'studio.db') });
    // The store that runs the template: one member with a card per fixed student.
    const big = await makeLoadStore(db.db, {
      members: MAX_FIX_ROWS * MAX_FIX_STUDENTS,
      balance: WEEKS * 2,
      sessions: 0,
      seats: 1,
    });
    const runner = new HttpClient(server.url);
    await runner.login(big.username, SCENE_PASSWORD);
    for (let i = 0; i < MAX_FIX_ROWS; i++) {
      const students = big.members.slice(i * MAX_FIX_STUDENTS, (i + 1) * MAX_FIX_STUDENTS);
      const a = await runner.call(`${API}/insert/fix/timetable`, {
        weekday: i % 7,
        time: `${String(6 + Math.floor(i / 7) * 2).padStart(2, '0')}:00`,
        courseId: big.courseId,
        teacherId: big.teacherId,
        areaId: null,
        reservableCount: MAX_FIX_STUDENTS,
        bookId: null,
        students: students.map((m) => ({ mcId: m.card, studentCount: 1 })),
      });
      if (a.code !== 0) throw new Error(`template row ${i}: ${a.msg}`);
    }
    // The other store, whose calendar is probed.
    const other = await makeLoadStore(db.db, { members: 1, balance: 100_000, sessions: 3000, seats: 5 });
    const prober = new HttpClient(server.url);
    await prober.login(other.username, SCENE_PASSWORD);
    // Two probes, one call in flight each: a read (the calendar) and a write (a booking of the
    // next session of the other store).
    let next = 0;
    const member = other.members[0];
    const calls = {
      read: () => prober.call(`${API}/query/timetable/by/date`, { fromDate: other.firstDay, toDate: other.firstDay }),
      write: () =>
        prober.call(`${API}/add/member/reservation`, {
          mcId: member.card,
          tid: other.sessions[next++ % other.sessions.length],
          mid: member.id,
          studentCount: 1,
        }),
    };
    const probe = async (kind: keyof typeof calls, until: () => boolean) => {
      const waits: number[] = [];
      while (!until()) {
        const t0 = performance.now();
        const a = await calls[kind]();
        if (a.code !== 0) throw new Error(`${kind} probe: ${a.status} ${a.msg}`);
        waits.push(performance.now() - t0);
      }
      return waits;
    };
    const both = (until: () => boolean) => Promise.all([probe('read', until), probe('write', until)]);
    const baseEnd = Date.now() + BASELINE_MS;
    const [base, baseW] = await both(() => Date.now() > baseEnd);
    let done = false;
    const t0 = performance.now();
    const run = runner
      .call(`${API}/batch/arrange/week/course`, { fromDate: '2099-06-01', arrangeWeeks: WEEKS })
      .then((a) => {
        done = true;
        return a;
      });
    const [during, duringW] = await both(() => done);
    const answer = await run;
    const runMs = performance.now() - t0;
    if (answer.code !== 0) throw new Error(`run: ${answer.msg}`);
    const p99W = quantile(baseW, 0.99);
    const pauseW = Math.max(...duringW);
    const p99 = quantile(base, 0.99);
    const pause = Math.max(...during);
    const sessions = MAX_FIX_ROWS * WEEKS;
    const bookings = sessions * MAX_FIX_STUDENTS;
    console.log(
      `${label}: 200-week run at the caps (${MAX_FIX_ROWS} rows x ${MAX_FIX_STUDENTS} students: ${sessions} sessions, ` +
        `${bookings} bookings) ${(runMs / 1000).toFixed(2)} s; other store's calendar: p99 ${p99.toFixed(1)} ms ` +
        `before (${base.length} calls), longest wait during the run ${(pause / 1000).toFixed(2)} s ` +
        `(${during.length} calls answered during it); other store's bookings: p99 ${p99W.toFixed(1)} ms before ` +
        `(${baseW.length} calls), longest wait during the run ${(pauseW / 1000).toFixed(2)} s (${duringW.length} calls)`,
    );
    const what = `during a 200-week run at the caps (${sessions} sessions, ${bookings} bookings; run ${(runMs / 1000).toFixed(1)} s)`;
    for (const [kind, worst, before] of [
      ['read (calendar)', pause, p99],
      ['write (booking)', pauseW, p99W],
    ] as const) {
      console.log(
        `RESULT ${JSON.stringify({
          db: label,
          measurement: `longest wait of another store's ${kind} ${what}`,
          value: `${(worst / 1000).toFixed(2)} s`,
          baseline: `p99 ${before.toFixed(1)} ms without the run`,
          ratio: `${Math.round(worst / Math.max(before, 0.1))}x`,
        })}`,
      );
    }
  } finally {
    await server.stop();
    await db?.close();
    await fresh?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await bench('SQLite', undefined);
if (process.env.BENCH_DATABASE_URL) await bench('PostgreSQL', process.env.BENCH_DATABASE_URL);
