// Crash tests: SIGKILL the server at a random moment of a mixed load, restart, and check that
// nothing acknowledged was lost and nothing half-done was kept. CRASH_CYCLES (default 10) cycles.
import fs from 'node:fs';
import path from 'node:path';
import { PendingStatus, ReservationStatus } from '@studio/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Dialect, type DbHandle } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { mixedLoad, type LoadTarget } from './load.ts';
import { freshPgDatabase, futureSlot, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { HttpClient, startServer, type ServerProcess } from './server-process.ts';
import { envInt, invariantProblems } from './support.ts';
import { scratchDir } from '../scratch.ts';

const CYCLES = envInt('CRASH_CYCLES', 10);
const WEEKS = envInt('CRASH_WEEKS', 200);

interface Ledger {
  booked: { mid: number; tid: number }[];
  cancelled: number[];
  deleted: number[];
  signedIn: number[];
}

/** What one cycle adds: a store with a weekly template and a range of booked sessions to batch delete. */
interface CycleStore {
  store: LoadStore;
  templateFrom: string;
  rangeSessions: number[];
}

async function makeCycleStore(db: DbHandle, cycle: number): Promise<CycleStore> {
  const store = await makeLoadStore(db.db, { members: 3, balance: 100_000, sessions: 12, seats: 10, firstHour: 500 });
  for (const [weekday, time] of [
    [1, '09:00'],
    [4, '19:30'],
  ] as const) {
    const fix = await db.db
      .insertInto('fixTimetable')
      .values({
        storeId: store.storeId,
        weekday,
        time,
        courseId: store.courseId,
        teacherId: store.teacherId,
        areaId: null,
        bookId: null,
        reservableCount: 10,
        createdAt: '2026-01-01 00:00:00',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('fixStudent')
      .values({ storeId: store.storeId, fixId: fix.id, memberCardId: store.members[0].card, studentCount: 1 })
      .execute();
  }
  // Mondays from 2100-01-04 (a Monday), a different start per cycle keeps the ranges apart.
  const monday = new Date(Date.UTC(2100, 0, 4) + (cycle % 20) * 7 * 86_400_000);
  return { store, templateFrom: monday.toISOString().slice(0, 10), rangeSessions: store.sessions };
}

async function clientOf(server: ServerProcess, store: LoadStore): Promise<HttpClient> {
  const c = new HttpClient(server.url);
  const a = await c.login(store.username, SCENE_PASSWORD);
  if (a.code !== 0) throw new Error(`login failed: ${a.status} ${a.msg}`);
  return c;
}

function crashSuite(dialect: Dialect) {
  describe(`crash and restart [${dialect}]`, () => {
    const dir = scratchDir('studio-crash-');
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it(
      `${CYCLES} cycles of load, SIGKILL at a random moment and restart lose nothing acknowledged`,
      async () => {
        let url: string | undefined;
        if (dialect === 'postgres') {
          const fresh = await freshPgDatabase(PG_URL!);
          drop = fresh.drop;
          url = fresh.url;
        }
        const open = () => openDatabase(url ? { url, poolMax: 4 } : { file: path.join(dir, 'studio.db') });
        const env: Record<string, string> = url
          ? { DATABASE_URL: url, SEED: 'empty', PG_POOL_MAX: '8' }
          : { DATA_DIR: dir, SEED: 'empty' };

        let db = open();
        await migrateToLatest(db.db, dialect);
        const main = await makeLoadStore(db.db, { members: 40, balance: 100_000, sessions: 60, seats: 8 });
        const signInStore = await makeLoadStore(db.db, {
          members: 20,
          balance: 100_000,
          sessions: 10,
          seats: 6,
          mode: 1,
          firstHour: 200,
        });
        const acked: Ledger = { booked: [], cancelled: [], deleted: [], signedIn: [] };
        const summary: string[] = [];

        for (let cycle = 0; cycle < CYCLES; cycle++) {
          const extra = await makeCycleStore(db, cycle);
          await db.close();

          const server = await startServer(env);
          const book: LoadTarget = { store: main, clients: [await clientOf(server, main)] };
          const signIn: LoadTarget = { store: signInStore, clients: [await clientOf(server, signInStore)] };
          const batchClient = await clientOf(server, extra.store);
          // Book the range that the batch delete will empty, before the clock starts.
          for (const [i, tid] of extra.rangeSessions.entries()) {
            const m = extra.store.members[i % extra.store.members.length];
            await batchClient.call('/store/api/add/member/reservation', { mcId: m.card, tid, mid: m.id });
          }

          let stop = false;
          let templateAck: number | undefined;
          let deleteAck = false;
          const load = mixedLoad({
            book,
            signIn,
            workers: 6,
            deleteRate: 0.01,
            tolerateDisconnect: true,
            until: () => stop,
            onAnswer: (op, body, a) => {
              if (a.code !== 0) return;
              if (op === 'book') acked.booked.push({ mid: body.mid as number, tid: body.tid as number });
              if (op === 'cancel') acked.cancelled.push(body.id as number);
              if (op === 'delete') acked.deleted.push(body.id as number);
              if (op === 'signIn') acked.signedIn.push(body.pendingId as number);
            },
          });
          // The kill lands at a random moment; the two batch runs start at random moments before it.
          const killAt = 300 + Math.random() * 2000;
          const later = () => new Promise((r) => setTimeout(r, Math.random() * killAt));
          const template = later()
            .then(() =>
              batchClient.call('/store/api/batch/arrange/week/course', {
                fromDate: extra.templateFrom,
                arrangeWeeks: WEEKS,
              }),
            )
            .then((a) => {
              if (a.code === 0) templateAck = (a.data as { count: number }).count;
              else if (a.status >= 500) summary.push(`template answered ${a.status} ${a.msg}`);
            })
            .catch(() => {});
          const from = futureSlot(500).slice(0, 10);
          const to = futureSlot(500 + 24 * 30).slice(0, 10);
          const batchDelete = later()
            .then(() => batchClient.call('/store/api/batch/cancel/timetable', { fromDate: from, toDate: to }))
            .then((a) => {
              if (a.code === 0) deleteAck = true;
              else if (a.status >= 500) summary.push(`batch delete answered ${a.status} ${a.msg}`);
            })
            .catch(() => {});

          await new Promise((r) => setTimeout(r, killAt));
          await server.stop('SIGKILL');
          stop = true;
          const stats = await load;
          await Promise.all([template, batchDelete]);
          expect(stats.problems, `cycle ${cycle}`).toEqual([]);
          expect(server.output(), `cycle ${cycle}`).not.toMatch(/"level":(50|60)/);

          db = open();
          expect(await invariantProblems(db.db, dialect), `cycle ${cycle}`).toEqual([]);

          // Every acknowledged write is there.
          for (const b of acked.booked) {
            const r = await db.db
              .selectFrom('reservation')
              .select('id')
              .where('memberId', '=', b.mid)
              .where('timetableId', '=', b.tid)
              .executeTakeFirst();
            expect(r, `cycle ${cycle}: acknowledged booking ${JSON.stringify(b)}`).toBeDefined();
          }
          for (const id of acked.cancelled) {
            const r = await db.db.selectFrom('reservation').select('status').where('id', '=', id).executeTakeFirst();
            expect(r?.status, `cycle ${cycle}: acknowledged cancel ${id}`).toBe(ReservationStatus.CANCELLED);
          }
          for (const id of acked.deleted) {
            const s = await db.db.selectFrom('timetable').select('deleted').where('id', '=', id).executeTakeFirst();
            expect(s?.deleted, `cycle ${cycle}: acknowledged delete ${id}`).toBe(1);
          }
          for (const id of acked.signedIn) {
            const p = await db.db.selectFrom('pending').select('status').where('id', '=', id).executeTakeFirst();
            expect(p?.status, `cycle ${cycle}: acknowledged sign-in ${id}`).not.toBe(PendingStatus.WAITING);
          }

          // Every batch is all or nothing.
          const made = await db.db
            .selectFrom('timetable')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('storeId', '=', extra.store.storeId)
            .where('startTime', '>=', `${extra.templateFrom} 00:00:00`)
            .executeTakeFirstOrThrow();
          const n = Number(made.n);
          if (templateAck !== undefined) expect(n, `cycle ${cycle}: acknowledged template run`).toBe(templateAck);
          else expect([0, 2 * WEEKS], `cycle ${cycle}: unacknowledged template run made ${n}`).toContain(n);
          const range = await db.db
            .selectFrom('timetable')
            .select('deleted')
            .where('id', 'in', extra.rangeSessions)
            .execute();
          const gone = range.filter((r) => r.deleted === 1).length;
          if (deleteAck) expect(gone, `cycle ${cycle}: acknowledged batch delete`).toBe(range.length);
          else expect([0, range.length], `cycle ${cycle}: unacknowledged batch delete removed ${gone}`).toContain(gone);

          summary.push(
            `cycle ${cycle}: ${stats.calls} calls, template ${templateAck ?? (n ? 'committed, unacknowledged' : 'not done')}, ` +
              `batch delete ${deleteAck ? 'acknowledged' : gone ? 'committed, unacknowledged' : 'not done'}`,
          );
        }
        await db.close();
        console.log(`crash cycles [${dialect}]:\n${summary.join('\n')}`);
        console.log(
          `acknowledged and found after crashes: ${acked.booked.length} bookings, ${acked.cancelled.length} cancels, ` +
            `${acked.deleted.length} deletes, ${acked.signedIn.length} sign-ins`,
        );
      },
      120_000 + CYCLES * 30_000,
    );
  });
}

crashSuite('sqlite');
if (PG_URL) crashSuite('postgres');
else if (REQUIRE_ALL) {
  describe('crash and restart [postgres]', () => {
    it('needs PostgreSQL', () => {
      throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set: the PostgreSQL crash suite cannot run');
    });
  });
} else {
  describe.skip('crash and restart [postgres] (skipped: TEST_DATABASE_URL is not set)', () => {
    it('needs PostgreSQL', () => {});
  });
}
