/**
 * 导入 of a large file: the real server (`apps/server/src/main.ts` in a child process) imports a CSV
 * of 20,000 rows (a member and a count card each: 20,000 members, 20,000 cards, 20,000 opening
 * ledger entries, 20,000 sales) through /store/api/import/members, after the dry run of the same
 * file; baseline: the same for 1,000 rows in the same run. Prints the seconds of each and the time
 * per row of the large file against the baseline's (1.0 = linear). Target: 20,000 rows within a
 * minute. SQLite always; PostgreSQL too with BENCH_DATABASE_URL (a database of its own, dropped afterwards).
 *   node --import tsx bench/import.ts        (IMPORT_ROWS=20000)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CARD_TYPE_EXPIRES, IMPORT_FIELD_LABEL, IMPORT_FIELDS } from '@studio/contract';
import { openDatabase, type DbHandle } from '../apps/server/src/db/index.ts';
import { freshPgDatabase, makeLoadStore, SCENE_PASSWORD } from '../apps/server/test/hardening/scene.ts';
import { HttpClient, startServer } from '../apps/server/test/hardening/server-process.ts';

const ROWS = Number(process.env.IMPORT_ROWS ?? 20_000);
const BASELINE_ROWS = 1_000;
const API = '/store/api';
const MAPPING = Object.fromEntries(IMPORT_FIELDS.map((f) => [IMPORT_FIELD_LABEL[f], f]));

/** A CSV of `n` members each with a card, mobiles from `first` on. */
function file(n: number, first: number): string {
  const lines = [IMPORT_FIELDS.map((f) => IMPORT_FIELD_LABEL[f]).join(',')];
  for (let i = 0; i < n; i++) {
    const mobile = `139${String(first + i).padStart(8, '0')}`;
    lines.push(
      `会员${first + i},${mobile},${i % 2 ? '男' : '女'},1990-01-01,,十次卡,${(i % 30) + 1},2030-12-31,2025-01-01,1200`,
    );
  }
  return Buffer.from(lines.join('\n')).toString('base64');
}

/** Dry run then import of `n` rows: seconds of each. */
async function timed(client: HttpClient, n: number, first: number) {
  const body = { fileName: `bench-${n}.csv`, content: file(n, first), mapping: MAPPING, duplicates: 'merge' };
  let t0 = performance.now();
  const dry = await client.call(`${API}/import/members`, { ...body, dryRun: true });
  const drySeconds = (performance.now() - t0) / 1000;
  if (dry.code !== 0 || dry.data.errorCount) throw new Error(`dry run of ${n}: ${dry.msg} ${dry.data?.errorCount}`);
  t0 = performance.now();
  const done = await client.call(`${API}/import/members`, body);
  const seconds = (performance.now() - t0) / 1000;
  if (done.code !== 0 || done.data.members !== n || done.data.cards !== n) {
    throw new Error(`import of ${n}: ${done.status} ${done.msg}`);
  }
  return { drySeconds, seconds };
}

async function bench(label: string, pgUrl: string | undefined): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  const fresh = pgUrl ? await freshPgDatabase(pgUrl) : undefined;
  const server = await startServer(
    fresh ? { DATABASE_URL: fresh.url, SEED: 'empty' } : { DATA_DIR: dir, SEED: 'empty' },
    120_000,
  );
  let db: DbHandle | undefined;
  try {
    db = openDatabase(fresh ? { url: fresh.url, poolMax: 2 } : { file: path.join(dir, 'studio.db') });
    const store = await makeLoadStore(db.db, { members: 0, balance: 1, sessions: 0, seats: 1 });
    await db.db
      .insertInto('cardProduct')
      .values({
        storeId: store.storeId,
        cardName: '十次卡',
        bigType: 1,
        cardType: CARD_TYPE_EXPIRES,
        perCount: 1,
        price: 1200_00,
        validDays: 365,
        enabled: 1,
        deleted: 0,
      })
      .execute();
    const client = new HttpClient(server.url);
    await client.login(store.username, SCENE_PASSWORD);
    const base = await timed(client, BASELINE_ROWS, 0);
    const big = await timed(client, ROWS, 1_000_000);
    const ratio = big.seconds / ROWS / (base.seconds / BASELINE_ROWS);
    console.log(
      `${label}: import of ${ROWS} rows (members with a card each) ${big.seconds.toFixed(2)} s ` +
        `(dry run ${big.drySeconds.toFixed(2)} s), ${Math.round(ROWS / big.seconds)} rows/s; ` +
        `baseline ${BASELINE_ROWS} rows ${base.seconds.toFixed(2)} s (dry run ${base.drySeconds.toFixed(2)} s); ` +
        `time per row ${ratio.toFixed(2)}x the baseline's; within a minute: ${big.seconds < 60 ? 'yes' : 'NO'}`,
    );
  } finally {
    await db?.close();
    await server.stop();
    await fresh?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await bench('SQLite', undefined);
if (process.env.BENCH_DATABASE_URL) await bench('PostgreSQL', process.env.BENCH_DATABASE_URL);
else console.log('PostgreSQL: skipped (BENCH_DATABASE_URL is not set)');
