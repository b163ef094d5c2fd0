/**
 * The free-slot finder of 私教/小班 (issue 43, `features/lessons/slots.ts`): 20 teachers who all give a
 * 60-minute 1对1 type (two rooms, one machine of 4), each working Mon-Sat 09:00-12:00 and 14:00-21:00
 * with a few days off, over a year of history (each teacher 4 classes or lessons a day, 365 days:
 * 29,200 sessions), asked for 4 weeks of everyone's free starts (任意老师). In-process on the data
 * layer (no HTTP): median and worst of 15 calls after 3 warm-ups, against the same run's reading of
 * the lesson type alone (one query: the floor of a round trip). Target: under 100 ms.
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL is set (a schema of its own, dropped after).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db, type DbHandle } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { addDays } from '../apps/server/src/lib/time.ts';
import { findFreeSlots } from '../apps/server/src/features/lessons/public.ts';

const TEACHERS = 20;
const FROM = '2027-03-01'; // a Monday; the history is the year before it
const ASK_DAYS = 28;

async function seed(db: Db) {
  const store = await db
    .insertInto('store')
    .values({ name: 'bench', timezone: 'Asia/Shanghai', createdAt: 0 } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const storeId = store.id;
  const course = (kind: 'group' | 'one_on_one') =>
    db
      .insertInto('course')
      .values({
        storeId,
        name: kind,
        count: 20,
        duration: 60,
        color: '#1677ff',
        genderLimit: 2,
        ageLimit: 0,
        enabled: 1,
        deleted: 0,
        kind,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const type = await course('one_on_one');
  const group = await course('group');
  const rooms = [];
  for (let i = 0; i < 3; i++) {
    rooms.push(
      (
        await db
          .insertInto('area')
          .values({ storeId, name: `房间${i}`, parentId: null, sort: i })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  const eq = await db
    .insertInto('equipment')
    .values({ storeId, name: '核心床', count: 4, areaId: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('lessonRoom')
    .values(rooms.slice(0, 2).map((areaId) => ({ storeId, courseId: type.id, areaId })))
    .execute();
  await db
    .insertInto('lessonEquipment')
    .values({ storeId, courseId: type.id, equipmentId: eq.id, perMember: 1 })
    .execute();
  const teachers: number[] = [];
  for (let i = 0; i < TEACHERS; i++) {
    teachers.push(
      (
        await db
          .insertInto('teacher')
          .values({ storeId, name: `老师${i}`, deleted: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  await db
    .insertInto('lessonTeacher')
    .values(teachers.map((teacherId) => ({ storeId, courseId: type.id, teacherId, level: null })))
    .execute();
  const hours = teachers.flatMap((teacherId) =>
    [1, 2, 3, 4, 5, 6].flatMap((weekday) => [
      { storeId, teacherId, weekday, startTime: '09:00', endTime: '12:00' },
      { storeId, teacherId, weekday, startTime: '14:00', endTime: '21:00' },
    ]),
  );
  await db.insertInto('teacherHours').values(hours).execute();
  await db
    .insertInto('teacherHoursException')
    .values(
      teachers.map((teacherId, i) => ({
        storeId,
        teacherId,
        date: addDays(FROM, i % ASK_DAYS),
        kind: 'off' as const,
        createdAt: '2027-01-01 00:00:00',
      })),
    )
    .execute();
  // a year before FROM and the 4 weeks asked: 4 sessions a day per teacher
  const rows = [];
  for (let d = -365; d < ASK_DAYS; d++) {
    const date = addDays(FROM, d);
    for (let t = 0; t < TEACHERS; t++) {
      for (const [k, h] of [9, 11, 15, 19].entries()) {
        const lesson = (t + k + d) % 3 === 0;
        rows.push({
          storeId,
          courseId: lesson ? type.id : group.id,
          teacherId: teachers[t],
          areaId: lesson ? rooms[(t + k) % 2] : rooms[2],
          startTime: `${date} ${String(h).padStart(2, '0')}:00:00`,
          endTime: `${date} ${String(h + 1).padStart(2, '0')}:00:00`,
          reservableCount: lesson ? 1 : 20,
          realCount: 1,
          isOnline: 0,
          color: '#1677ff',
          genderLimit: 2,
          ageLimit: 0,
          deleted: 0,
          createdAt: '2026-01-01 00:00:00',
          appointmentStatus: lesson ? ('confirmed' as const) : null,
        });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('timetable')
      .values(rows.slice(i, i + 500))
      .execute();
  return { storeId, typeId: type.id, sessions: rows.length };
}

async function timed(f: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await f();
  const ms: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[7], worst: ms[14] };
}

async function run(label: string, handle: DbHandle) {
  await migrateToLatest(handle.db, handle.dialect);
  const { storeId, typeId, sessions } = await seed(handle.db);
  const q = {
    storeId,
    courseId: typeId,
    from: FROM,
    to: addDays(FROM, ASK_DAYS - 1),
    members: 1,
    now: '2027-02-28 12:00:00',
  };
  const slots = await findFreeSlots(handle.db, q);
  const finder = await timed(() => findFreeSlots(handle.db, q));
  const floor = await timed(() =>
    handle.db.selectFrom('course').select(['id', 'duration']).where('id', '=', typeId).execute(),
  );
  console.log(
    `${label}: ${sessions} sessions, ${TEACHERS} teachers x ${ASK_DAYS} days -> ${slots.length} free starts; ` +
      `finder median ${finder.median.toFixed(1)} ms (worst ${finder.worst.toFixed(1)}), ` +
      `one-query baseline median ${floor.median.toFixed(2)} ms (worst ${floor.worst.toFixed(2)})`,
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-slots-'));
const lite = openDatabase({ file: path.join(dir, 'slots.db') });
await run('SQLite', lite);
await lite.close();
fs.rmSync(dir, { recursive: true, force: true });

const url = process.env.BENCH_DATABASE_URL;
if (url) {
  const schema = `bench_slots_${process.pid}`;
  const admin = openDatabase({ url });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const pg = openDatabase({ url, schema });
  try {
    await run('PostgreSQL', pg);
  } finally {
    await pg.close();
    await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.close();
  }
} else {
  console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL=postgres://...)');
}
