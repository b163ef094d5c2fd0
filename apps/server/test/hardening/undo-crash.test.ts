// An undo under SIGKILL: the real server undoes a large bulk change (150 sessions, 4,500 bookings) and
// is killed at a random moment of it. Afterwards the store holds either the change (no undo entry) or
// its undo (the entry, sessions gone, every deduction back), never half of it; the engine's
// invariants hold; an interrupted undo can be made again after the restart. Both databases
// (PostgreSQL when TEST_DATABASE_URL is set).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle, type Dialect } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { HttpClient, startServer } from './server-process.ts';
import { invariantProblems } from './support.ts';
import { scratchDir } from '../scratch.ts';

const CYCLES = 5;
const SESSIONS = 150;
const MEMBERS = 30;
const ARRANGE = '/store/api/batch/arrange/course';
const UNDO = '/store/api/undo/bulk/change';

/** What a bulk change and its undo move: balances, live sessions, live bookings. */
async function state(db: DbHandle, storeId: number) {
  const cards = await db.db
    .selectFrom('memberCard')
    .select(['id', 'usedCount'])
    .where('storeId', '=', storeId)
    .orderBy('id')
    .execute();
  const count = async (q: Promise<{ n: number | string | bigint }>) => Number((await q).n);
  const sessions = await count(
    db.db
      .selectFrom('timetable')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storeId', '=', storeId)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow(),
  );
  const bookings = await count(
    db.db
      .selectFrom('reservation')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storeId', '=', storeId)
      .where('status', '=', 1)
      .executeTakeFirstOrThrow(),
  );
  return { cards: cards.map((c) => `${c.id}:${Number(c.usedCount)}`).join(','), sessions, bookings };
}

async function undoneBy(db: DbHandle, entryId: number): Promise<boolean> {
  const row = await db.db.selectFrom('auditLog').select('id').where('undoOf', '=', entryId).executeTakeFirst();
  return row !== undefined;
}

function suite(dialect: Dialect) {
  describe(`an undo killed mid-way [${dialect}]`, () => {
    const dir = scratchDir('studio-undo-');
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it(`${CYCLES} undos of a ${SESSIONS}-session change, SIGKILL at a random moment: the change or its undo, never half`, async () => {
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
      const store: LoadStore = await makeLoadStore(db.db, {
        members: MEMBERS,
        balance: 1_000_000,
        sessions: 0,
        seats: 1,
      });
      await db.close();

      const outcomes: string[] = [];
      let undoMs = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        let server = await startServer(env);
        const client = new HttpClient(server.url);
        expect((await client.login(store.username, SCENE_PASSWORD)).code).toBe(0);
        db = open();
        const before = await state(db, store.storeId);
        const made = await client.call(ARRANGE, {
          cid: store.courseId,
          tid: store.teacherId,
          areaId: null,
          students: MEMBERS,
          startDate: `21${String(10 + cycle).padStart(2, '0')}-01-04`,
          courseTimes: [{ weekday: 1, arrangeTime: '09:00' }],
          arrangeTimes: SESSIONS,
          mcIds: store.members.map((m) => m.card),
        });
        expect(made.code, made.msg).toBe(0);
        const changed = await state(db, store.storeId);
        expect(changed.sessions).toBe(before.sessions + SESSIONS);
        const entry = await db.db
          .selectFrom('auditLog')
          .select('id')
          .where('storeId', '=', store.storeId)
          .where('call', '=', ARRANGE)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();

        const started = Date.now();
        const undo = client.call(UNDO, { auditId: entry.id }).catch(() => null);
        if (cycle === 0) {
          // The first undo runs to the end: how long one takes sets the range of the kills.
          expect((await undo)?.code).toBe(0);
          undoMs = Date.now() - started;
          await server.stop('SIGKILL');
        } else {
          await new Promise((r) => setTimeout(r, Math.random() * undoMs));
          await server.stop('SIGKILL');
          await undo;
        }

        const undone = await undoneBy(db, entry.id);
        const now = await state(db, store.storeId);
        expect(now, `cycle ${cycle}: ${undone ? 'undone' : 'not undone'}`).toEqual(undone ? before : changed);
        expect(await invariantProblems(db.db, dialect)).toEqual([]);
        outcomes.push(undone ? 'undone' : 'kept');
        if (!undone) {
          // The change is whole: undo it now, after the restart.
          server = await startServer(env);
          const again = new HttpClient(server.url);
          expect((await again.login(store.username, SCENE_PASSWORD)).code).toBe(0);
          const a = await again.call(UNDO, { auditId: entry.id });
          expect(a.code, a.msg).toBe(0);
          await server.stop();
          expect(await state(db, store.storeId)).toEqual(before);
          expect(await invariantProblems(db.db, dialect)).toEqual([]);
        }
        await db.close();
      }
      console.log(`[${dialect}] undo of ${SESSIONS} sessions took ${undoMs} ms; after SIGKILL: ${outcomes.join(', ')}`);
    }, 300_000);
  });
}

suite('sqlite');
if (PG_URL) suite('postgres');
else if (REQUIRE_ALL) {
  describe('an undo killed mid-way [postgres]', () => {
    it('needs PostgreSQL', () => {
      throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set');
    });
  });
}
