// A database connection lost in the middle of a write (PostgreSQL: the backend terminated inside
// the transaction) or a write that cannot get the database (SQLite: another process holds the
// write lock): the request answers 503 with a Chinese message, its transaction leaves nothing
// behind, the process lives on and the next request is served. Every kind of write: booking,
// batch scheduling, weekly-template run, outbox claim.
import crypto from 'node:crypto';
import { Msg } from '@studio/contract';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { DbHandle } from '../../src/db/index.ts';
import { snapshot } from '../batch-kit.ts';
import { addDays } from '../../src/lib/time.ts';
import { enqueue } from '../../src/outbox/enqueue.ts';
import { waitFor } from '../outbox.ts';
import { startOutboxWorker } from '../../src/outbox/worker.ts';
import { Client, freshDatabase, PG_URL, REQUIRE_ALL, type App, type Answer } from '../harness.ts';
import { makeLoadStore, SCENE_PASSWORD, type LoadStore } from './scene.ts';
import { invariantProblems } from './support.ts';

const API = '/store/api';
const FAR = '2099-09-07'; // clear of the load store's sessions
const MONDAY = '2099-11-02';

interface Env {
  app: App;
  database: DbHandle & { drop(): Promise<void> };
  store: LoadStore;
  client: Client;
  connectionErrors: Error[];
}

async function setUp(dialect: 'sqlite' | 'postgres', applicationName: string): Promise<Env> {
  const connectionErrors: Error[] = [];
  const database = await freshDatabase(dialect, {
    applicationName,
    busyTimeoutMs: 50,
    onConnectionError: (err) => connectionErrors.push(err),
  });
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
  const app = await buildApp({ config, database, validateResponses: true, logger: false });
  await app.ready();
  const store = await makeLoadStore(database.db, { members: 4, balance: 1000, sessions: 2, seats: 10 });
  const client = new Client(app);
  const login = await client.login(store.username, SCENE_PASSWORD);
  if (login.code !== 0) throw new Error(`login failed: ${login.msg}`);
  client.storeId = store.storeId;
  return { app, database, store, client, connectionErrors };
}

/** A weekly template row with the store's first card as its fixed student (once per store). */
async function ensureTemplateRow(env: Env): Promise<void> {
  const rows = await env.client.ok<unknown[]>(`${API}/query/fix/timetable/list`, {});
  if (rows.length) return;
  await env.client.ok(`${API}/insert/fix/timetable`, {
    weekday: 4,
    time: '06:00',
    courseId: env.store.courseId,
    teacherId: env.store.teacherId,
    areaId: null,
    reservableCount: 5,
    bookId: null,
    students: [{ mcId: env.store.members[0].card, studentCount: 1 }],
  });
}

/** One write of each kind, on the store's first member and card. */
function writes(e: () => Env) {
  const m = () => e().store.members[0];
  let weeks = 0;
  return {
    booking: () =>
      e().client.call(`${API}/add/member/reservation`, {
        mcId: m().card,
        tid: e().store.sessions[0],
        mid: m().id,
        studentCount: 1,
      }),
    'batch scheduling': () =>
      e().client.call(`${API}/batch/arrange/course`, {
        cid: e().store.courseId,
        tid: e().store.teacherId,
        students: 5,
        startDate: FAR,
        courseTimes: [{ weekday: 2, arrangeTime: '07:00' }],
        arrangeTimes: 10,
        mcIds: [m().card],
      }),
    // A later four-week block each time, so a repeat is neither a duplicate nor a conflict.
    'weekly-template run': () => {
      weeks += 4;
      return e().client.call(`${API}/batch/arrange/week/course`, {
        fromDate: addDays(MONDAY, weeks * 7),
        arrangeWeeks: 4,
      });
    },
  };
}

const expectUnavailable = (a: Answer, msg: string) => {
  expect(a.status).toBe(503);
  expect(a.code).toBe(503);
  expect(a.msg).toBe(msg);
};

const title = 'a PostgreSQL backend terminated inside a write transaction';
if (!PG_URL && !REQUIRE_ALL) {
  describe.skip(`${title} [postgres] (skipped: TEST_DATABASE_URL is not set)`, () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  describe(`${title} [postgres]`, () => {
    const appName = `faults_${crypto.randomBytes(4).toString('hex')}`;
    let env: Env | undefined;
    let admin: pg.Client;
    const e = () => env!;

    beforeAll(async () => {
      if (!PG_URL) throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set: the fault suite cannot run');
      env = await setUp('postgres', appName);
      admin = new pg.Client({ connectionString: PG_URL, application_name: `${appName}_admin` });
      await admin.connect();
    }, 60_000);
    afterAll(async () => {
      await admin?.end();
      if (env) {
        await env.app.close();
        await env.database.close();
        await env.database.drop();
      }
    });

    /**
     * Holds `lock` (SQL) in a transaction of a side connection, starts `write`, waits until one of
     * this file's own connections (by application_name) is blocked by the side connection, i.e.
     * inside the write's transaction, terminates that backend and only it, then lets go of the lock.
     */
    async function terminateMidWrite<T>(lock: string, params: unknown[], write: () => Promise<T>): Promise<T> {
      const side = new pg.Client({
        connectionString: PG_URL,
        application_name: `${appName}_side`,
        options: `-c search_path=${e().database.schema}`,
      });
      await side.connect();
      try {
        await side.query('begin');
        await side.query(lock, params);
        const sidePid = (await side.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
        const answer = write();
        const victim = await waitFor(async () => {
          const r = await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity where application_name = $1 and $2 = any(pg_blocking_pids(pid))`,
            [appName, sidePid],
          );
          return r.rows[0]?.pid;
        }, 'the write to wait on the side lock');
        await admin.query('select pg_terminate_backend($1)', [victim]);
        await side.query('rollback');
        return await answer;
      } finally {
        await side.end();
      }
    }

    for (const [kind, write] of Object.entries(writes(e))) {
      it(`${kind}: the victim gets 503, nothing of it is written, the next request is served`, async () => {
        const { database, store } = e();
        await ensureTemplateRow(e());
        const before = await snapshot(database.db, store.storeId);
        const card = store.members[0].card;
        const a = await terminateMidWrite('select id from member_card where id = $1 for update', [card], write);
        expectUnavailable(a, Msg.dbUnavailable);
        expect(await snapshot(database.db, store.storeId)).toEqual(before);
        expect(await invariantProblems(database.db, 'postgres')).toEqual([]);
        const again = await write();
        expect(again.msg).toBe('');
        expect(again.code).toBe(0);
        expect(await invariantProblems(database.db, 'postgres')).toEqual([]);
      });
    }

    it('outbox claim: the worker logs the lost connection, lives on and delivers on a later poll', async () => {
      const { database, store } = e();
      const delivered: unknown[] = [];
      const errors: unknown[] = [];
      await database.db.transaction().execute((tx) => enqueue(tx, store.storeId, 'fault-test', 'k', { hello: 1 }));
      let stop: (() => Promise<void>) | undefined;
      await terminateMidWrite('lock table outbox in exclusive mode', [], async () => {
        stop = startOutboxWorker({
          db: database.db,
          dialect: 'postgres',
          intervalMs: 10,
          handlers: { 'fault-test': async (_row, payload) => void delivered.push(payload) },
          log: { warn: () => {}, error: (obj) => errors.push(obj) },
        });
      });
      try {
        await waitFor(async () => delivered.length > 0, 'the message to be delivered after the fault');
        expect(delivered).toEqual([{ hello: 1 }]);
        expect(errors.length).toBeGreaterThan(0);
        const row = await database.db
          .selectFrom('outbox')
          .select(['sentAt', 'attempts'])
          .where('topic', '=', 'fault-test')
          .executeTakeFirstOrThrow();
        expect(row.sentAt).not.toBeNull();
      } finally {
        await stop?.();
      }
    });

    it('every terminated connection was reported and replaced: the pool still serves', async () => {
      expect(e().connectionErrors.length).toBeGreaterThanOrEqual(4);
      const list = await e().client.call(`${API}/query/timetable/by/date`, {
        fromDate: e().store.firstDay,
        toDate: e().store.firstDay,
      });
      expect(list.code).toBe(0);
      const mine = await admin.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where application_name = $1`,
        [appName],
      );
      expect(mine.rows[0].n).toBeGreaterThan(0);
    });
  });
}

describe('a write that cannot get the SQLite database (another process holds the write lock) [sqlite]', () => {
  let env: Env | undefined;
  const e = () => env!;
  beforeAll(async () => {
    env = await setUp('sqlite', 'unused');
  }, 60_000);
  afterAll(async () => {
    if (env) {
      await env.app.close();
      await env.database.close();
      await env.database.drop();
    }
  });

  for (const [kind, write] of Object.entries(writes(e))) {
    it(`${kind}: 503 数据库正忙 while the lock is held, nothing written; served once it is free`, async () => {
      const { database, store } = e();
      await ensureTemplateRow(e());
      const file = (await sql<{ name: string; file: string }>`pragma database_list`.execute(database.db)).rows.find(
        (r) => r.name === 'main',
      )!.file;
      const before = await snapshot(database.db, store.storeId);
      const other = new SqliteDatabase(file);
      other.exec('begin immediate');
      let a: Answer;
      try {
        a = await write();
      } finally {
        other.exec('rollback');
        other.close();
      }
      expectUnavailable(a, Msg.dbBusy);
      expect(await snapshot(database.db, store.storeId)).toEqual(before);
      const again = await write();
      expect(again.msg).toBe('');
      expect(again.code).toBe(0);
      expect(await invariantProblems(database.db, 'sqlite')).toEqual([]);
    });
  }
});
