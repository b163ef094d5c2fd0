/**
 * The 200-week weekly-template run: 40 template rows x 3 fixed students (cards with enough
 * balance) instantiated for 200 weeks through /store/api/batch/arrange/week/course in one
 * transaction (8000 sessions, 24000 bookings with their history and ledger rows), on a temp
 * SQLite file and, when BENCH_DATABASE_URL is set, on PostgreSQL. In the same run a baseline:
 * the same rows written with plain chunked multi-row INSERTs (no rule, no check; the bookings'
 * rows and trail by the engine's own writer) in one transaction; the ratio is run / baseline. Median of BENCH_RUNS runs (default 3), each on a
 * fresh store, after one warm-up.
 *   node --import tsx bench/template.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Db, type DbHandle } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import type { NewRow } from '../apps/server/src/db/schema.ts';
import { createStoreWithAdmin } from '../apps/server/src/features/store-admin/public.ts';
import { templateDate } from '../apps/server/src/features/batch/plan.ts';
import { insertBookingRows, writeTrail } from '../apps/server/src/features/timetable/public.ts';
import { addMinutes, toDateTime } from '../apps/server/src/lib/time.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WEEKS = 200;
const ROWS = 40;
const STUDENTS = 3;
const FROM = '2099-06-01';
const PASSWORD = 'bench-password-1';
const NOW = '2026-01-01 00:00:00';
const CHUNK_PARAMS = 30_000;

async function openFresh(url: string | undefined): Promise<{ handle: DbHandle; cleanup: () => Promise<void> }> {
  if (url) {
    const schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = openDatabase({ url, schema, poolMax: 5 });
    await migrateToLatest(handle.db, 'postgres');
    return {
      handle,
      cleanup: async () => {
        await handle.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-template-'));
  const handle = openDatabase({ file: path.join(dir, 'bench.db') });
  await migrateToLatest(handle.db, 'sqlite');
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store with 40 template rows (own teacher each, spread over the week) of 3 fixed students each. */
async function seedStore(db: Db, n: number) {
  const username = `bench_${n}_${crypto.randomBytes(3).toString('hex')}`;
  const { storeId } = await createStoreWithAdmin(db, {
    storeName: `基准门店${n}`,
    admin: { username, password: PASSWORD, name: '基准' },
  });
  const product = await db
    .insertInto('cardProduct')
    .values({ storeId, cardName: '次卡', bigType: 1, cardType: 2, perCount: 1, price: 0, enabled: 1, deleted: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('course')
    .values({
      storeId,
      name: '团课',
      count: 10,
      duration: 60,
      color: '#1677ff',
      genderLimit: 2,
      ageLimit: 0,
      enabled: 1,
      deleted: 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db.insertInto('courseCard').values({ storeId, courseId: course.id, cardId: product.id }).execute();
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const teacher = await db
      .insertInto('teacher')
      .values({ storeId, name: `老师${i}`, deleted: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fix = await db
      .insertInto('fixTimetable')
      .values({
        storeId,
        weekday: i % 7,
        time: '07:00',
        courseId: course.id,
        teacherId: teacher.id,
        areaId: null,
        bookId: null,
        reservableCount: 10,
        createdAt: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cards = [];
    for (let k = 0; k < STUDENTS; k++) {
      const member = await db
        .insertInto('member')
        .values({
          storeId,
          name: `会员${i}_${k}`,
          mobile: `139${String(n * 1000 + i * 10 + k).padStart(8, '0')}`,
          gender: 1,
          createdAt: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const card = await db
        .insertInto('memberCard')
        .values({
          storeId,
          memberId: member.id,
          cardId: product.id,
          totalCount: WEEKS,
          usedCount: 0,
          frozen: 0,
          createdAt: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('fixStudent')
        .values({ storeId, fixId: fix.id, memberCardId: card.id, studentCount: 1 })
        .execute();
      cards.push({ id: card.id, memberId: member.id });
    }
    rows.push({ weekday: i % 7, teacherId: teacher.id, cards });
  }
  return { storeId, username, course, product, rows };
}

function chunks<T>(rows: T[], columns: number): T[][] {
  const size = Math.floor(CHUNK_PARAMS / columns);
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The baseline: the same rows the run writes, as plain chunked multi-row INSERTs in one transaction. */
async function rawInserts(db: Db, s: Awaited<ReturnType<typeof seedStore>>): Promise<number> {
  const t0 = performance.now();
  await db.transaction().execute(async (tx) => {
    const sessions: NewRow<'timetable'>[] = [];
    const owners: (typeof s.rows)[number][] = [];
    for (let week = 1; week <= WEEKS; week++) {
      for (const r of s.rows) {
        const startTime = toDateTime(templateDate(FROM, week, r.weekday), '07:00');
        sessions.push({
          storeId: s.storeId,
          courseId: s.course.id,
          teacherId: r.teacherId,
          areaId: null,
          bookId: null,
          startTime,
          endTime: addMinutes(startTime, 60),
          reservableCount: 10,
          realCount: STUDENTS,
          isOnline: 0,
          color: s.course.color,
          genderLimit: 2,
          ageLimit: 0,
          deleted: 0,
          createdAt: NOW,
        });
        owners.push(r);
      }
    }
    const ids: number[] = [];
    for (const part of chunks(sessions, 15)) {
      const made = await tx.insertInto('timetable').values(part).returning('id').execute();
      ids.push(...made.map((m) => m.id));
    }
    const cards = ids.map((timetableId) => ({ storeId: s.storeId, timetableId, cardId: s.product.id }));
    for (const part of chunks(cards, 3)) await tx.insertInto('timetableCard').values(part).execute();
    const bookings = ids.flatMap((timetableId, i) =>
      owners[i].cards.map((c) => ({
        storeId: s.storeId,
        timetableId,
        memberId: c.memberId,
        memberCardId: c.id,
        pendingId: null,
        studentCount: 1,
        usedCount: 1,
        remark: null,
        operatorId: null,
        status: 1,
        createTime: NOW,
      })),
    );
    // The engine's own row and trail writer, without its rules.
    const bookingIds = await insertBookingRows(tx, 'reservation', bookings);
    await writeTrail(
      tx,
      s.storeId,
      bookings.map((r, i) => ({
        timetableId: r.timetableId,
        memberId: r.memberId,
        memberCardId: r.memberCardId,
        reservationId: bookingIds[i],
        pendingId: null,
        studentCount: 1,
        usedCount: 1,
        operateType: 2,
        operatorId: null,
        remark: null,
        now: NOW,
      })),
    );
    for (const r of s.rows) {
      for (const c of r.cards)
        await tx.updateTable('memberCard').set({ usedCount: WEEKS }).where('id', '=', c.id).execute();
    }
  });
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(label: string, url: string | undefined): Promise<void> {
  const { handle, cleanup } = await openFresh(url);
  try {
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
    const app = await buildApp({ config, database: handle, logger: false });
    await app.ready();
    const arrange = async (s: Awaited<ReturnType<typeof seedStore>>, weeks: number) => {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { account: s.username, password: PASSWORD },
      });
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/store/api/batch/arrange/week/course',
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ fromDate: FROM, arrangeWeeks: weeks }),
      });
      const ms = performance.now() - t0;
      const body = res.json() as { code: number; data: { count: number }; msg: string };
      if (body.code !== 0 || body.data.count !== weeks * ROWS) throw new Error(`run failed: ${body.msg}`);
      return ms;
    };
    await arrange(await seedStore(handle.db, 0), 20);
    await rawInserts(handle.db, await seedStore(handle.db, 1));
    const runs: number[] = [];
    const bases: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await arrange(await seedStore(handle.db, 10 + i), WEEKS));
      bases.push(await rawInserts(handle.db, await seedStore(handle.db, 100 + i)));
    }
    const run = median(runs);
    const base = median(bases);
    const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `${label.padEnd(11)} 200-week run ${f(run).padStart(7)}   raw inserts ${f(base).padStart(7)}   ratio ${(run / base).toFixed(2)}x   (runs ${runs.map(f).join(', ')}; baseline ${bases.map(f).join(', ')})`,
    );
    await app.close();
  } finally {
    await cleanup();
  }
}

console.log(
  `weekly template benchmark: ${ROWS} rows x ${STUDENTS} fixed students x ${WEEKS} weeks = ${ROWS * WEEKS} sessions, ${ROWS * STUDENTS * WEEKS} bookings; median of ${RUNS}, Node ${process.version}`,
);
await bench('SQLite', undefined);
if (process.env.BENCH_DATABASE_URL) await bench('PostgreSQL', process.env.BENCH_DATABASE_URL);
