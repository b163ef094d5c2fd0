// The import cannot exhaust memory (issue 42, item 7): a real server process is sent, as a manager
// would send it, an .xlsx of 833 KB whose one sheet unpacks to 245 MB (2.4 million rows), and one
// whose entries lie about their sizes. Each is refused while it inflates, with a Chinese message
// and a 400; the process's peak resident memory (VmHWM) grows by far less than 300 MiB, and a
// request sent meanwhile is answered before the refusal.
import fs from 'node:fs';
import { ImportMsg } from '@studio/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../../src/ops/seed/index.ts';
import { PG_URL, REQUIRE_ALL } from '../harness.ts';
import { xlsxBomb } from '../xlsx-bomb.ts';
import { freshPgDatabase } from './scene.ts';
import { HttpClient, startServer, type ServerProcess } from './server-process.ts';
import { scratchDir } from '../scratch.ts';

const PASSWORD = 'import-memory-1';
const MIB = 1024 * 1024;

/** The process's peak resident memory so far (VmHWM), in bytes. */
const peakRss = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

function suite(dialect: 'sqlite' | 'postgres') {
  describe(`an .xlsx zip bomb sent to a real server [${dialect}]`, () => {
    const dir = scratchDir('studio-bomb-');
    let server: ServerProcess | undefined;
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await server?.stop();
      await drop?.();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a 245 MB sheet and one lying about its sizes while inflating; memory stays bounded; other requests are answered meanwhile', async () => {
      let env: Record<string, string> = { DATA_DIR: dir };
      if (dialect === 'postgres') {
        const fresh = await freshPgDatabase(PG_URL!);
        drop = fresh.drop;
        env = { DATABASE_URL: fresh.url, PG_POOL_MAX: '4' };
      }
      server = await startServer({ ...env, SEED: 'demo', ADMIN_PASSWORD: PASSWORD }, 120_000);
      const pid = server.proc.pid!;
      const manager = new HttpClient(server.url);
      expect((await manager.login(DEMO_ADMIN, PASSWORD)).code).toBe(0);
      // A small workbook first: the reader's code is loaded, what follows is the file's own cost.
      const small = xlsxBomb({ rows: 3 });
      const read = await manager.call('/store/api/query/import/columns', {
        fileName: '会员.xlsx',
        content: small.file.toString('base64'),
      });
      expect(read).toMatchObject({ code: 0, data: { rows: 2 } });

      const bomb = xlsxBomb({ rows: 2_400_000 });
      const liar = xlsxBomb({ rows: 2_400_000, lie: true });
      // Under the unpacked limit, so read: stopped at the row limit.
      const long = xlsxBomb({ rows: 300_000, addressed: true });
      const figures: string[] = [];
      for (const [what, f, msg] of [
        ['bomb', bomb, ImportMsg.unzippedTooLarge],
        ['lying sizes', liar, ImportMsg.fileBroken],
        ['rows', long, ImportMsg.tooManyRows],
      ] as const) {
        const before = peakRss(pid);
        const order: string[] = [];
        const started = Date.now();
        const upload = manager
          .call('/store/api/query/import/columns', { fileName: '会员.xlsx', content: f.file.toString('base64') })
          .then((a) => (order.push('upload'), a));
        const other = new HttpClient(server.url).call('/api/setup/status', {}).then((a) => (order.push('other'), a));
        const [a, o] = await Promise.all([upload, other]);
        const ms = Date.now() - started;
        const after = peakRss(pid);
        figures.push(
          `${what}: ${(f.file.length / 1024).toFixed(0)} KB unpacking to ${(f.unpacked / MIB).toFixed(0)} MiB refused in ${ms} ms ` +
            `with ${a.status} ${a.msg}; peak RSS ${(before / MIB).toFixed(0)} -> ${(after / MIB).toFixed(0)} MiB; answered first: ${order[0]}`,
        );
        console.log(`import memory [${dialect}] ${figures.at(-1)}`);
        expect([a.status, a.msg]).toEqual([400, msg]);
        expect(o.status).toBe(200);
        expect(after - before).toBeLessThan(300 * MIB);
        // Read row by row: a request sent meanwhile is answered before the refusal.
        if (what === 'rows') expect(order[0]).toBe('other');
      }
      // The instance still serves.
      expect(
        (
          await manager.call('/store/api/query/import/columns', {
            fileName: '会员.xlsx',
            content: small.file.toString('base64'),
          })
        ).code,
      ).toBe(0);
    }, 240_000);
  });
}

suite('sqlite');
if (PG_URL) suite('postgres');
else if (REQUIRE_ALL) {
  describe('an .xlsx zip bomb sent to a real server [postgres]', () => {
    it('needs PostgreSQL', () => {
      throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set');
    });
  });
}
