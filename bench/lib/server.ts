/**
 * A benchmark server: a fresh database (temp SQLite file, or a PostgreSQL schema of its own when
 * BENCH_DATABASE_URL is set), one store seeded for the scenario, the real app listening on
 * 127.0.0.1. Prints `READY <json>` with the port, the login and the scenario's ids, then serves
 * until killed. Run by bench/booking.ts, bench/calendar.ts and bench/release.ts; not meant to be run by hand.
 * With BENCH_JOIN=<json of another server's READY line> (PostgreSQL), it is one more app instance on
 * that server's schema and store: no migration, no seed, and it leaves the schema alone on exit.
 * BENCH_POOL_MAX sets its connections (default 20).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db, type DbHandle } from '../../apps/server/src/db/index.ts';
import { pgSends } from '../../apps/server/src/db/pg-pipeline.ts';
import type { NewRow } from '../../apps/server/src/db/schema.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { createStoreWithAdmin } from '../../apps/server/src/features/store-admin/public.ts';
import { calendar } from '../../apps/server/src/features/timetable/calendar.ts';
import { createSession } from '../../apps/server/src/features/timetable/public.ts';
import { addDays, localDateTime } from '../../apps/server/src/lib/time.ts';

/**
 * BENCH_SQL_PROFILE=1 (SQLite): the time each statement text spends in better-sqlite3 (all, get,
 * run, iterate), printed to stderr on exit, most first: where a CPU profile's `executeQuery` goes.
 */
if (process.env.BENCH_SQL_PROFILE) {
  const { default: Sqlite } = await import('better-sqlite3');
  const probe = new Sqlite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  const spent = new Map<string, { ms: number; calls: number }>();
  for (const name of ['all', 'get', 'run', 'iterate']) {
    const inner = proto[name];
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      const t = performance.now();
      try {
        return inner.apply(this, args);
      } finally {
        const f = spent.get(this.source) ?? { ms: 0, calls: 0 };
        f.ms += performance.now() - t;
        f.calls++;
        spent.set(this.source, f);
      }
    };
  }
  process.on('exit', () => {
    const top = [...spent].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15);
    for (const [sql, f] of top)
      process.stderr.write(
        `sql ${f.ms.toFixed(0).padStart(6)} ms ${String(f.calls).padStart(6)} calls ${(f.ms / f.calls).toFixed(3)} ms  ${sql.replace(/\s+/g, ' ').slice(0, 300)}\n`,
      );
  });
}

const scenario = process.argv[2];
const pgUrl = process.env.BENCH_DATABASE_URL;
const PASSWORD = 'bench-password-1';
const NOW = '2026-01-01 00:00:00';

const poolMax = Number(process.env.BENCH_POOL_MAX ?? 20);
const join = process.env.BENCH_JOIN
  ? (JSON.parse(process.env.BENCH_JOIN) as { schema: string; username: string } & Record<string, unknown>)
  : null;

async function openFresh(): Promise<{ handle: DbHandle; cleanup: () => Promise<void> }> {
  if (pgUrl && join) {
    const handle = openDatabase({ url: pgUrl, schema: join.schema, poolMax });
    return { handle, cleanup: () => handle.close() };
  }
  if (pgUrl) {
    const schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = openDatabase({ url: pgUrl, schema, poolMax });
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
  const file = path.join(dir, 'bench.db');
  const handle = openDatabase({ file });
  return {
    handle,
    cleanup: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function basics(db: Db, storeId: number) {
  const product = await db
    .insertInto('cardProduct')
    .values({ storeId, cardName: '次卡', bigType: 1, cardType: 2, perCount: 1, price: 0, enabled: 1, deleted: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const teachers = [];
  for (let i = 0; i < 10; i++) {
    teachers.push(
      await db
        .insertInto('teacher')
        .values({ storeId, name: `老师${i}`, mobile: null, deleted: 0 })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
  }
  const courses = [];
  for (let i = 0; i < 20; i++) {
    const c = await db
      .insertInto('course')
      .values({
        storeId,
        name: `团课${i}`,
        count: 20,
        duration: 60,
        color: '#1677ff',
        genderLimit: 2,
        ageLimit: 0,
        enabled: 1,
        deleted: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('courseCard').values({ storeId, courseId: c.id, cardId: product.id }).execute();
    courses.push(c);
  }
  return { productId: product.id, teacherIds: teachers.map((t) => t.id), courseIds: courses.map((c) => c.id) };
}

/** 400 sessions with room for everyone, 2000 members with a large count card each. */
async function seedBooking(db: Db, storeId: number) {
  const { productId, teacherIds, courseIds } = await basics(db, storeId);
  const store = { id: storeId, name: '', timezone: 'Asia/Shanghai' };
  const sessionIds: number[] = [];
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < 400; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const hour = String(6 + Math.floor(i / 28)).padStart(2, '0');
      const { id } = await createSession(tx, store, {
        courseId: courseIds[i % courseIds.length],
        teacherId: teacherIds[i % teacherIds.length],
        venueId: null,
        materialId: null,
        startTime: `2099-03-${day} ${hour}:00:00`,
        reservableCount: 100_000,
      });
      sessionIds.push(id);
    }
  });
  const { cardIds } = await membersWithCards(db, storeId, productId, { count: 2000, prefix: '139', total: 1_000_000 });
  return { sessionIds, cardIds };
}

/** 100,000 sessions over ten years (about 27 a day), in one store, across areas and teachers. */
async function seedCalendar(db: Db, storeId: number) {
  const { teacherIds, courseIds } = await basics(db, storeId);
  const areaIds: number[] = [];
  const root = await db
    .insertInto('area')
    .values({ storeId, name: '总馆', parentId: null, sort: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  areaIds.push(root.id);
  for (let i = 0; i < 4; i++) {
    const a = await db
      .insertInto('area')
      .values({ storeId, name: `教室${i}`, parentId: root.id, sort: i })
      .returning('id')
      .executeTakeFirstOrThrow();
    areaIds.push(a.id);
  }
  const total = 100_000;
  const perDay = 27;
  const start = Date.UTC(2020, 0, 1);
  const rows: NewRow<'timetable'>[] = [];
  for (let i = 0; i < total; i++) {
    const day = Math.floor(i / perDay);
    const slot = i % perDay;
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const hour = String(7 + Math.floor(slot / 2)).padStart(2, '0');
    const minute = slot % 2 ? '30' : '00';
    const endHour = String(8 + Math.floor(slot / 2)).padStart(2, '0');
    rows.push({
      storeId,
      courseId: courseIds[i % courseIds.length],
      teacherId: teacherIds[i % teacherIds.length],
      areaId: areaIds[i % areaIds.length],
      bookId: null,
      startTime: `${date} ${hour}:${minute}:00`,
      endTime: `${date} ${endHour}:${minute}:00`,
      reservableCount: 20,
      realCount: i % 3,
      isOnline: 0,
      color: '#1677ff',
      genderLimit: 2,
      ageLimit: 0,
      deleted: 0,
      createdAt: NOW,
    });
  }
  await db.transaction().execute(async (tx) => {
    await insertChunked(rows, 1000, (chunk) => tx.insertInto('timetable').values(chunk).execute());
  });
  return { sessions: total, firstDate: '2020-01-01' };
}

/** One session of 20 seats and 200 members with a card each: a class release. */
async function seedHot(db: Db, storeId: number) {
  const { productId, teacherIds, courseIds } = await basics(db, storeId);
  const store = { id: storeId, name: '', timezone: 'Asia/Shanghai' };
  const { id: sessionId } = await db.transaction().execute((tx) =>
    createSession(tx, store, {
      courseId: courseIds[0],
      teacherId: teacherIds[0],
      venueId: null,
      materialId: null,
      startTime: '2099-03-01 10:00:00',
      reservableCount: 20,
    }),
  );
  const cardIds: number[] = [];
  for (let i = 0; i < 200; i++) {
    const m = await db
      .insertInto('member')
      .values({ storeId, name: `会员${i}`, mobile: `138${String(i).padStart(8, '0')}`, gender: 1, createdAt: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    const c = await db
      .insertInto('memberCard')
      .values({ storeId, memberId: m.id, cardId: productId, totalCount: 100, usedCount: 0, frozen: 0, createdAt: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    cardIds.push(c.id);
  }
  return { sessionId, cardIds };
}

/**
 * A class release (bench/release.ts): tomorrow (store-local), one class of 20 seats at 10:00 and 30
 * other classes of 40 seats (07:00 to 21:30), and 1000 members with a count card each.
 */
async function seedRelease(db: Db, storeId: number) {
  const { productId, teacherIds, courseIds } = await basics(db, storeId);
  const store = { id: storeId, name: '', timezone: 'Asia/Shanghai' };
  const day = addDays(localDateTime(store.timezone).slice(0, 10), 1);
  const at = (i: number) => `${day} ${String(7 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00`;
  const { hotId, otherIds } = await db.transaction().execute(async (tx) => {
    const hot = await createSession(tx, store, {
      courseId: courseIds[0],
      teacherId: teacherIds[0],
      venueId: null,
      materialId: null,
      startTime: `${day} 10:00:00`,
      reservableCount: 20,
    });
    const others: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { id } = await createSession(tx, store, {
        courseId: courseIds[1 + (i % (courseIds.length - 1))],
        teacherId: teacherIds[i % teacherIds.length],
        venueId: null,
        materialId: null,
        startTime: at(i),
        reservableCount: 40,
      });
      others.push(id);
    }
    return { hotId: hot.id, otherIds: others };
  });
  const { memberIds, cardIds, mobiles } = await membersWithCards(db, storeId, productId, {
    count: 1000,
    prefix: '137',
    total: 100,
  });
  return { day, hotId, otherIds, memberIds, cardIds, mobiles };
}

// Statements sent to PostgreSQL (BEGIN and COMMIT included), and the writes that carried them
// (statements sent together count once: db/pg-pipeline.ts): the runners divide them by the
// requests served.
let statements = 0;
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pgQuery;

const { handle, cleanup } = await openFresh();
let username: string;
let storeId: number;
let data: Record<string, unknown>;
let seedMs = 0;
if (join) {
  ({ username } = join);
  storeId = Number(join.storeId);
  data = join;
} else {
  await migrateToLatest(handle.db, handle.dialect);
  username = `bench_${crypto.randomBytes(3).toString('hex')}`;
  ({ storeId } = await createStoreWithAdmin(handle.db, {
    storeName: '压测门店',
    admin: { username, password: PASSWORD, name: '压测管理员' },
  }));
  const seedStart = performance.now();
  data =
    scenario === 'calendar'
      ? await seedCalendar(handle.db, storeId)
      : scenario === 'hot'
        ? await seedHot(handle.db, storeId)
        : scenario === 'release'
          ? await seedRelease(handle.db, storeId)
          : await seedBooking(handle.db, storeId);
  seedMs = Math.round(performance.now() - seedStart);
}

const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
const app = await buildApp({ config, database: handle, logger: false });
if (scenario === 'calendar') {
  const week = { fromDate: '2025-03-03', toDate: '2025-03-09', venueId: null, teacherId: null };
  const sameAnswer = { code: 0, data: await calendar(handle.db, storeId, week), msg: '' };
  const tiny = { code: 0, data: null, msg: '' };
  app.post('/bench/bare', async () => sameAnswer);
  app.post('/bench/tiny', async () => tiny);
}
// The same app on the same database with the calendar cache off (config CALENDAR_CACHE=0), on a
// port of its own: the calendar benchmark's uncached baseline from the same run.
const uncachedApp =
  scenario === 'calendar'
    ? await buildApp({ config: { ...config, calendarCache: false }, database: handle, logger: false })
    : undefined;
// CPU time the server process (both apps) has used so far (user + system, microseconds): the
// runners divide it by the requests served, a figure that does not depend on what else the machine
// is doing.
app.post('/bench/cpu', async () => {
  const u = process.cpuUsage();
  return { micros: u.user + u.system };
});
app.post('/bench/statements', async () => ({ statements, sends: pgSends() }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
let uncachedPort = 0;
if (uncachedApp) {
  await uncachedApp.listen({ host: '127.0.0.1', port: 0 });
  const a = uncachedApp.server.address();
  uncachedPort = typeof a === 'object' && a ? a.port : 0;
}
process.stdout.write(
  `READY ${JSON.stringify({ ...data, storeId, port, uncachedPort, username, password: PASSWORD, dialect: handle.dialect, schema: handle.schema, seedMs })}\n`,
);

const stop = async () => {
  await uncachedApp?.close();
  await app.close();
  await cleanup();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/** `count` members of the store (mobiles `prefix` + 8 digits), each with one card of the product holding `total`. */
async function membersWithCards(
  db: Db,
  storeId: number,
  productId: number,
  o: { count: number; prefix: string; total: number },
) {
  const members = Array.from({ length: o.count }, (_, i) => ({
    storeId,
    name: `会员${i}`,
    mobile: `${o.prefix}${String(i).padStart(8, '0')}`,
    gender: 1,
    birthday: '1990-01-01',
    createdAt: NOW,
  }));
  const memberIds: number[] = [];
  await insertChunked(members, 500, async (chunk) => {
    const rows = await db.insertInto('member').values(chunk).returning('id').execute();
    memberIds.push(...rows.map((r) => r.id));
  });
  const cardIds: number[] = [];
  const cards = memberIds.map((memberId) => ({
    storeId,
    memberId,
    cardId: productId,
    totalCount: o.total,
    usedCount: 0,
    frozen: 0,
    createdAt: NOW,
  }));
  await insertChunked(cards, 500, async (chunk) => {
    const rows = await db.insertInto('memberCard').values(chunk).returning('id').execute();
    cardIds.push(...rows.map((r) => r.id));
  });
  return { memberIds, cardIds, mobiles: members.map((m) => m.mobile) };
}
