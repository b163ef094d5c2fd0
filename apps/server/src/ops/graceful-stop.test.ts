// SIGTERM during a load of bookings: the real server (a child process) finishes what it accepted,
// answers it in full, and exits 0; every acknowledged booking is committed, and nothing else is.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Dialect } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD } from '../../test/hardening/scene.ts';
import { HttpClient, startServer } from '../../test/hardening/server-process.ts';
import { invariantProblems } from '../../test/hardening/support.ts';
import { PG_URL, REQUIRE_ALL } from '../../test/harness.ts';
import { scratchDir } from '../../test/scratch.ts';

const MEMBERS = 300;
const WORKERS = 32;

type Outcome =
  | { kind: 'answer'; status: number; code: number }
  /** No answer began: the connection was refused or reset before the server read the request. */
  | { kind: 'not-served'; err: string }
  /** An answer began and did not end: what a graceful stop must never do. */
  | { kind: 'cut'; err: string };

/** One POST on its own connection (no keep-alive), so a refused connection is told apart from a cut answer. */
function post(url: string, cookie: string, body: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const text = JSON.stringify(body);
    let began = false;
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        connection: 'close',
        cookie,
      },
    });
    req.on('response', (res) => {
      began = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => resolve({ kind: 'cut', err: e.message }));
      res.on('aborted', () => resolve({ kind: 'cut', err: 'aborted' }));
      res.on('end', () => {
        try {
          const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number };
          resolve({ kind: 'answer', status: res.statusCode ?? 0, code: json.code });
        } catch {
          resolve({ kind: 'cut', err: `not JSON (${res.statusCode})` });
        }
      });
    });
    req.on('error', (e: Error & { code?: string }) => {
      if (began) return resolve({ kind: 'cut', err: e.message });
      resolve({ kind: 'not-served', err: e.code ?? e.message });
    });
    req.end(text);
  });
}

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  const title = `graceful stop on SIGTERM [${dialect}]`;
  if (dialect === 'postgres' && !PG_URL && !REQUIRE_ALL) {
    describe.skip(`${title} (skipped: TEST_DATABASE_URL is not set)`, () => it('needs PostgreSQL', () => {}));
    continue;
  }
  describe(title, () => {
    const dir = scratchDir('studio-stop-');
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('finishes the bookings in flight, answers each in full, commits every acknowledged one, exits 0', async () => {
      let url: string | undefined;
      if (dialect === 'postgres') {
        const fresh = await freshPgDatabase(PG_URL!);
        drop = fresh.drop;
        url = fresh.url;
      }
      const open = () => openDatabase(url ? { url, poolMax: 4 } : { file: path.join(dir, 'studio.db') });
      let db = open();
      await migrateToLatest(db.db, dialect);
      const store = await makeLoadStore(db.db, { members: MEMBERS, balance: 10, sessions: 10, seats: MEMBERS });
      await db.close();

      const server = await startServer(
        url ? { DATABASE_URL: url, SEED: 'empty', PG_POOL_MAX: '8' } : { DATA_DIR: dir, SEED: 'empty' },
      );
      const desk = new HttpClient(server.url);
      const login = await desk.login(store.username, SCENE_PASSWORD);
      expect(login.code, login.msg).toBe(0);

      // Each member books one session once: the committed bookings can be compared one for one.
      const acked = new Set<number>();
      const outcomes: Outcome[] = [];
      let next = 0;
      let signalled: Promise<void> | undefined;
      const worker = async () => {
        while (next < store.members.length) {
          const i = next++;
          const m = store.members[i];
          const tid = store.sessions[i % store.sessions.length];
          const o = await post(`${server.url}/store/api/add/member/reservation`, desk.cookie!, {
            tid,
            mcId: m.card,
            mid: m.id,
            studentCount: 1,
          });
          outcomes.push(o);
          if (o.kind === 'answer' && o.code === 0) acked.add(m.id);
          // The stop comes in the middle of the load, with WORKERS requests in flight.
          if (acked.size === 60 && !signalled) signalled = server.stop('SIGTERM');
          if (o.kind === 'not-served') return; // the server no longer accepts: this worker is done
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      await signalled;

      expect(signalled, 'the load ended before the stop').toBeDefined();
      expect(server.proc.exitCode, server.output()).toBe(0);
      expect(outcomes.filter((o) => o.kind === 'cut')).toEqual([]);
      const answers = outcomes.filter((o) => o.kind === 'answer');
      expect(answers.filter((o) => o.code !== 0)).toEqual([]);
      // Some arrived after the stop and were refused at the door (not read, not answered).
      expect(outcomes.some((o) => o.kind === 'not-served')).toBe(true);
      expect(server.output()).not.toMatch(/"level":(50|60)/);

      db = open();
      try {
        const rows = await db.db
          .selectFrom('reservation')
          .innerJoin('timetable', 'timetable.id', 'reservation.timetableId')
          .select('reservation.memberId')
          .where('timetable.storeId', '=', store.storeId)
          .execute();
        const committed = new Set(rows.map((r) => r.memberId));
        // Every acknowledged booking is committed, and every committed one was answered.
        expect([...acked].filter((id) => !committed.has(id))).toEqual([]);
        expect([...committed].filter((id) => !acked.has(id))).toEqual([]);
        expect(await invariantProblems(db.db, dialect)).toEqual([]);
      } finally {
        await db.close();
      }
    }, 180_000);
  });
}
