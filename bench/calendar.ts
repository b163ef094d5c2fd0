/**
 * Calendar week query: a store with 100,000 sessions (about 190 a week), /query/timetable/by/date
 * for one week over HTTP with 50 connections for about 10 s, against a bare Fastify route in the
 * same app returning the same answer as fixed JSON (and a tiny fixed JSON for reference), with the
 * answer cache on (as shipped), on and brotli-compressed (`accept-encoding: br, gzip`, compressed
 * once per data version), and off (a second app on the same database with CALENDAR_CACHE off).
 * Prints req/s, p50/p99 and the ratios.
 *   node --import tsx bench/calendar.ts        (BENCH_SECONDS=10, BENCH_CONNECTIONS=50)
 */
import { load, print, serve, serverCpuMs, type Figures } from './lib/run.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const week = { fromDate: '2025-03-03', toDate: '2025-03-09', areaId: 0, teacherId: 0 };

async function run(label: string, env: NodeJS.ProcessEnv) {
  const s = await serve<{ sessions: number; uncachedPort: number }>('calendar', env);
  console.log(`${label}: ${s.info.sessions} sessions seeded in ${s.info.seedMs} ms`);
  const calendarUrl = `${s.url}/store/api/query/timetable/by/date`;
  const answer = (await (
    await fetch(calendarUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: s.cookie },
      body: JSON.stringify(week),
    })
  ).json()) as { data: { list: unknown[] }[] };
  const count = answer.data.reduce((n, d) => n + d.list.length, 0);
  console.log(`  week answer: ${count} sessions, ${JSON.stringify(answer).length} bytes`);
  const opts = { connections, seconds, cookie: s.cookie, body: () => week };
  const uncachedUrl = `http://127.0.0.1:${s.info.uncachedPort}/store/api/query/timetable/by/date`;
  const compressed = { 'accept-encoding': 'br, gzip' };
  const wire = async (headers: Record<string, string>) =>
    (
      await fetch(calendarUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: s.cookie, ...headers },
        body: JSON.stringify(week),
      })
    ).headers.get('content-encoding') ?? 'identity';
  console.log(`  encodings: with accept-encoding ${await wire(compressed)}, without ${await wire({})}`);
  // Each run also reports the server's CPU time per request, which does not depend on what else
  // the machine is doing.
  const measured = async (url: string, headers: Record<string, string> = {}): Promise<Figures & { cpu: number }> => {
    const before = await serverCpuMs(s.url);
    const f = await load({ ...opts, url, headers });
    return { ...f, cpu: ((await serverCpuMs(s.url)) - before) / f.ok };
  };
  await load({ ...opts, url: calendarUrl, seconds: 2 });
  const bare = await measured(`${s.url}/bench/bare`);
  const cached = await measured(calendarUrl);
  const cachedBr = await measured(calendarUrl, compressed);
  const tiny = await measured(`${s.url}/bench/tiny`);
  const uncached = await measured(uncachedUrl);
  const cpu = (f: { cpu: number }) => `   cpu ${(f.cpu * 1000).toFixed(0)} us/req`;
  print('  bare route, same JSON', bare, cpu(bare));
  print(
    '  calendar week (cache on)',
    cached,
    `${cpu(cached)}   ${pct(cached, bare)} of bare (by cpu ${cpuPct(cached, bare)})`,
  );
  print(
    '  calendar week (cache on, brotli)',
    cachedBr,
    `${cpu(cachedBr)}   ${pct(cachedBr, cached)} of uncompressed (by cpu ${cpuPct(cachedBr, cached)})`,
  );
  print(
    '  calendar week (cache off)',
    uncached,
    `${cpu(uncached)}   ${pct(uncached, bare)} of bare (by cpu ${cpuPct(uncached, bare)})`,
  );
  print('  bare route, tiny JSON', tiny, `${cpu(tiny)}   (calendar cached = ${pct(cached, tiny)} of it)`);
  await s.stop();
}

const cpuPct = (a: { cpu: number }, b: { cpu: number }) => `${Math.round((b.cpu / a.cpu) * 100)}%`;
const pct = (a: { reqPerSec: number }, b: { reqPerSec: number }) => `${Math.round((a.reqPerSec / b.reqPerSec) * 100)}%`;

console.log(`calendar benchmark: ${connections} connections, ${seconds} s per run, Node ${process.version}`);
await run('SQLite', { ...process.env, BENCH_DATABASE_URL: '' });
if (process.env.BENCH_DATABASE_URL) await run('PostgreSQL', process.env);
