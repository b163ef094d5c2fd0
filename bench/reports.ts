/**
 * Reports and 今日 on a busy store's year: 60 classes a day for 365 days (21,900 sessions) with 15
 * members booked into each (328,500 bookings) out of 2,000 members, seeded through the engine's own
 * bulk writer (60 batch-scheduling calls, each 365 sessions with 15 fixed students). Then every
 * report for the whole year and the today call for one full day, each timed over HTTP (median and
 * worst of 7 after 2 warm-ups), against /api/auth/me from the same run as the baseline.
 * Targets (issue 15): each report at most 300 ms, 今日 at most 50 ms.
 *   node --import tsx bench/reports.ts                 (SQLite, a temp file)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/reports.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type DbHandle } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { createStoreWithAdmin } from '../apps/server/src/features/store-admin/public.ts';
import { addDays, localDateTime } from '../apps/server/src/lib/time.ts';

const pgUrl = process.env.BENCH_DATABASE_URL;
const CLASSES_A_DAY = 60;
const DAYS = 365;
const STUDENTS = 15;
const MEMBERS = 2000;
const TEACHERS = 10;
const PASSWORD = 'bench-password-1';

async function open(): Promise<{ handle: DbHandle; cleanup: () => Promise<void> }> {
  if (pgUrl) {
    const schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = openDatabase({ url: pgUrl, schema, poolMax: 10 });
    return {
      handle,
      cleanup: async () => {
        await handle.close();
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-bench-'));
  const handle = openDatabase({ file: path.join(dir, 'bench.db') });
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const { handle, cleanup } = await open();
await migrateToLatest(handle.db, handle.dialect);
const username = `bench_${crypto.randomBytes(3).toString('hex')}`;
const { storeId } = await createStoreWithAdmin(handle.db, {
  storeName: '报表压测门店',
  admin: { username, password: PASSWORD, name: '压测管理员' },
});
const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
const app = await buildApp({ config, database: handle, logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

let cookie = '';
async function api<T = any>(p: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${p.startsWith('/') ? p : `/store/api/${p}`}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!cookie) cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  const env = (await res.json()) as { code: number; data: T; msg: string };
  if (env.code !== 0) throw new Error(`${p}: ${env.msg}`);
  return env.data;
}

await api('/api/auth/login', { account: username, password: PASSWORD });
const started = performance.now();
// Reference data through the calls; members and their cards in bulk (they are not bookings).
const product = await api<{ id: number }>('insert/card/product', {
  cardName: '年卡次卡',
  bigType: 1,
  cardType: 2,
  perCount: 1,
  price: 300_000,
  courseIds: [],
});
const teachers: number[] = [];
for (let i = 0; i < TEACHERS; i++)
  teachers.push((await api<{ id: number }>('insert/teacher', { name: `老师${i}` })).id);
const courses: number[] = [];
for (const name of ['瑜伽', '普拉提', '动感单车', '搏击', '舞蹈', '拉伸']) {
  courses.push(
    (
      await api<{ id: number }>('insert/store/course', {
        name,
        count: 20,
        duration: 45,
        color: '#1677ff',
        cardIds: [product.id],
      })
    ).id,
  );
}
const today = localDateTime('Asia/Shanghai').slice(0, 10);
const memberIds: number[] = [];
for (let i = 0; i < MEMBERS; i += 500) {
  const rows = await handle.db
    .insertInto('member')
    .values(
      Array.from({ length: Math.min(500, MEMBERS - i) }, (_, k) => ({
        storeId,
        name: `会员${i + k}`,
        mobile: `138${String(i + k).padStart(8, '0')}`,
        gender: 2,
        birthday: '1990-01-01',
        createdAt: `${today} 08:00:00`,
      })),
    )
    .returning('id')
    .execute();
  memberIds.push(...rows.map((r) => r.id));
}
const cardIds: number[] = [];
for (let i = 0; i < memberIds.length; i += 500) {
  const rows = await handle.db
    .insertInto('memberCard')
    .values(
      memberIds.slice(i, i + 500).map((memberId) => ({
        storeId,
        memberId,
        cardId: product.id,
        totalCount: 100_000,
        usedCount: 0,
        frozen: 0,
        createdAt: `${today} 08:00:00`,
      })),
    )
    .returning('id')
    .execute();
  cardIds.push(...rows.map((r) => r.id));
}
const refMs = performance.now() - started;

// The year: starting tomorrow (the engine books only classes still to come), 60 slots a day every
// 15 minutes from 07:00, each slot one batch-scheduling call over all seven weekdays.
const from = addDays(today, 1);
const to = addDays(from, DAYS - 1);
const seedStart = performance.now();
for (let slot = 0; slot < CLASSES_A_DAY; slot++) {
  const minutes = 7 * 60 + slot * 15;
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const mcIds = Array.from({ length: STUDENTS }, (_, k) => cardIds[(slot * 33 + k * 131) % cardIds.length]);
  await api('batch/arrange/course', {
    cid: courses[slot % courses.length],
    tid: teachers[slot % TEACHERS],
    areaId: null,
    students: 20,
    startDate: from,
    courseTimes: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, arrangeTime: time })),
    arrangeTimes: DAYS,
    mcIds,
    isOnline: 0,
  });
}
const seedMs = performance.now() - seedStart;
// A store's year is not loaded in a minute: by then PostgreSQL's autovacuum has analysed the tables.
if (handle.dialect === 'postgres') await sql`analyze`.execute(handle.db);
else await sql`pragma optimize`.execute(handle.db);
const count = async (table: 'timetable' | 'reservation') =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('storeId', '=', storeId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const sessions = await count('timetable');
const bookings = await count('reservation');
console.log(
  `${handle.dialect}: ${sessions} sessions, ${bookings} bookings, ${MEMBERS} members; reference data ${(refMs / 1000).toFixed(1)} s, ` +
    `the year through 60 batch-scheduling calls ${(seedMs / 1000).toFixed(1)} s (${Math.round(bookings / (seedMs / 1000))} bookings/s)`,
);

/** Median and worst wall time of a call over HTTP, after warm-ups. */
async function time(p: string, body: unknown, runs = 7) {
  for (let i = 0; i < 2; i++) await api(p, body);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await api(p, body);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(runs / 2)], worst: ms[runs - 1] };
}

const year = { fromDate: from, toDate: to };
const baseline = await time('/api/auth/me', {});
const rows: [string, { median: number; worst: number }, number][] = [];
for (const [name, p, body, target] of [
  ['report/overview (year)', 'query/report/overview', year, 300],
  ['report/by/course (year)', 'query/report/by/course', year, 300],
  ['report/by/teacher (year)', 'query/report/by/teacher', year, 300],
  ['report/by/slot (year)', 'query/report/by/slot', year, 300],
  ['report/by/day (year)', 'query/report/by/day', year, 300],
  ['card/alert/list', 'query/card/alert/list', {}, 300],
  ['member/inactive/list', 'query/member/inactive/list', { days: 30 }, 300],
  ['today (60 classes, 900 on rosters)', 'query/today', { date: addDays(from, 10) }, 50],
] as const) {
  rows.push([name, await time(p, body), target]);
}
const f = (n: number) => n.toFixed(1).padStart(7);
console.log(`${'call'.padEnd(36)} median ms   worst ms   target   x baseline`);
console.log(`${'/api/auth/me (baseline)'.padEnd(36)} ${f(baseline.median)}    ${f(baseline.worst)}`);
for (const [name, t, target] of rows) {
  const verdict = t.median <= target ? 'met' : 'NOT MET';
  const ratio = `${(t.median / baseline.median).toFixed(1)}x`;
  console.log(
    `${name.padEnd(36)} ${f(t.median)}    ${f(t.worst)}   ${String(target).padStart(4)} ${verdict.padEnd(8)} ${ratio}`,
  );
  // One row each in `npm run bench`'s closing table.
  console.log(
    `RESULT ${JSON.stringify({
      db: handle.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
      measurement: name,
      value: `${t.median.toFixed(1)} ms`,
      baseline: `/api/auth/me ${baseline.median.toFixed(1)} ms`,
      ratio,
      note: `target ${target} ms: ${verdict}`,
    })}`,
  );
}
await app.close();
await cleanup();
