/**
 * Booking throughput: the real app on a temp SQLite file and, when BENCH_DATABASE_URL is set, on
 * PostgreSQL with three app instances on one schema; 50 concurrent HTTP clients (spread over the
 * instances) booking distinct (member card, session) pairs for about 10 s through
 * /store/api/add/member/reservation. Prints bookings/s, p50/p99 and server CPU per booking, each
 * against the same writes as raw database transactions in the same run; on PostgreSQL in two orders
 * of the pairs (spread over the sessions, and one session at a time: lib/pairs.ts), and one hot
 * session (a class release: 200 clients at once on 20 seats, over the three instances).
 *   node --import tsx bench/booking.ts        (BENCH_SECONDS=10, BENCH_CONNECTIONS=50)
 */
import { Msg } from '@studio/contract';
import { rawPgBookingsPerSecond } from './lib/raw-pg-booking.ts';
import { rawBookingsPerSecond } from './lib/raw-booking.ts';
import { pairOf, type Order } from './lib/pairs.ts';
import { load, print, serveAll, serverCpuMs, serverStatements, stopAll, type Figures, type Served } from './lib/run.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const instances = Number(process.env.BENCH_INSTANCES ?? 3);
/** Connections of each PostgreSQL app instance (the database is shared: keep the total modest). */
const pgPool = process.env.BENCH_POOL_MAX ?? '10';
/** Connections of the raw PostgreSQL baseline. */
const rawPgClients = Number(process.env.BENCH_RAW_PG_CLIENTS ?? 20);

type Info = { sessionIds: number[]; cardIds: number[] };

/** Runs `load` against every instance at once, the connections split among them; sums the counts. */
async function loadAll(servers: Served<unknown>[], path: string, secs: number, body: () => unknown): Promise<Figures> {
  const parts = await Promise.all(
    servers.map((s, i) =>
      load({
        url: `${s.url}${path}`,
        cookie: s.cookie,
        connections: Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0),
        seconds: secs,
        body,
      }),
    ),
  );
  const ok = parts.reduce((n, f) => n + f.ok, 0);
  return {
    reqPerSec: parts.reduce((n, f) => n + f.reqPerSec, 0),
    ok,
    failed: parts.reduce((n, f) => n + f.failed, 0),
    non2xx: parts.reduce((n, f) => n + (f.non2xx ?? 0), 0),
    // Weighted by requests served; p99 is the worst instance's.
    p50: Math.round(parts.reduce((n, f) => n + f.p50 * f.ok, 0) / Math.max(1, ok)),
    p99: Math.max(...parts.map((f) => f.p99)),
    seconds: secs,
  };
}

async function run(label: string, env: NodeJS.ProcessEnv, n: number, order: Order) {
  const servers = await serveAll<Info>('booking', env, n, pgPool);
  const { sessionIds, cardIds } = servers[0].info;
  let k = 0;
  // Every pair is new, so no duplicate refusals (lib/pairs.ts).
  const body = () => {
    const pair = pairOf(k++, cardIds.length, sessionIds.length, order);
    return { mcId: cardIds[pair.card], tid: sessionIds[pair.session], studentCount: 1 };
  };
  const path = '/store/api/add/member/reservation';
  await loadAll(servers, path, 2, body);
  const cpu = async () => (await Promise.all(servers.map((s) => serverCpuMs(s.url)))).reduce((a, b) => a + b, 0);
  const statements = async () =>
    (await Promise.all(servers.map((s) => serverStatements(s.url)))).reduce(
      (a, b) => ({ statements: a.statements + b.statements, sends: a.sends + b.sends }),
      { statements: 0, sends: 0 },
    );
  const cpuBefore = await cpu();
  const statementsBefore = await statements();
  const f = await loadAll(servers, path, seconds, body);
  const cpuMs = (await cpu()) - cpuBefore;
  const statementsAfter = await statements();
  const sent = statementsAfter.statements - statementsBefore.statements;
  const writes = statementsAfter.sends - statementsBefore.sends;
  const perSecond = Math.round(f.ok / seconds);
  print(`${label}: bookings`, { ...f, reqPerSec: perSecond }, ` (answers not 2xx: ${f.non2xx}, the rest timeouts)`);
  const perBooking = cpuMs / f.ok;
  console.log(
    `  server CPU ${perBooking.toFixed(2)} ms per booking, all instances (a core of its own would do ~${Math.round(1000 / perBooking)}/s); seed ${servers[0].info.seedMs} ms`,
  );
  const requests = f.ok + (f.non2xx ?? 0);
  if (sent) {
    console.log(
      `  statements sent to PostgreSQL: ${(sent / requests).toFixed(1)} per request, in ${(writes / requests).toFixed(1)} writes (round trips)`,
    );
  }
  await stopAll(servers);
  return perSecond;
}

/** A class release: every member of the hot scenario books its one session at once. */
async function hot(env: NodeJS.ProcessEnv, n: number) {
  const servers = await serveAll<{ sessionId: number; cardIds: number[] }>('hot', env, n, pgPool);
  const { sessionId, cardIds } = servers[0].info;
  const t0 = performance.now();
  const answers = await Promise.all(
    cardIds.map(async (mcId, i) => {
      const s = servers[i % servers.length];
      const start = performance.now();
      const res = await fetch(`${s.url}/store/api/add/member/reservation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: s.cookie },
        body: JSON.stringify({ mcId, tid: sessionId, studentCount: 1 }),
      });
      const a = (await res.json()) as { code: number; msg: string };
      return { ...a, ms: performance.now() - start };
    }),
  );
  const total = performance.now() - t0;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const booked = answers.filter((a) => a.code === 0).length;
  const full = answers.filter((a) => a.code !== 0 && a.msg === Msg.sessionFull).length;
  const other = answers.length - booked - full;
  console.log(
    `PostgreSQL hot session (${answers.length} clients, 20 seats, ${n} instances): ${booked} booked, ${full} told ${Msg.sessionFull}, ${other} other; p50 ${Math.round(ms[Math.floor(ms.length * 0.5)])} ms, p99 ${Math.round(ms[Math.ceil(ms.length * 0.99) - 1])} ms, all answered in ${Math.round(total)} ms`,
  );
  await stopAll(servers);
}

console.log(`booking benchmark: ${connections} connections, ${seconds} s after a 2 s warm-up, Node ${process.version}`);
const sqlite = await run('SQLite', { ...process.env, BENCH_DATABASE_URL: '' }, 1, 'spread');
// Baseline in the same run: the same writes as raw SQLite transactions, one at a time.
const rawSqlite = await rawBookingsPerSecond(Math.min(seconds, 5));
console.log(
  `  raw SQLite transaction, same writes: ${rawSqlite.perSecond} bookings/s; HTTP booking = ${Math.round((sqlite / rawSqlite.perSecond) * 100)}% of it`,
);
const pgUrl = process.env.BENCH_DATABASE_URL;
if (pgUrl) {
  // Two orders of the same pairs (lib/pairs.ts): spread over the sessions, and one class at a
  // time (every concurrent booking waits for one session's row).
  for (const [order, words] of [
    ['spread', 'spread over the sessions'],
    ['class', 'one session at a time'],
  ] as const) {
    const pgRate = await run(`PostgreSQL x${instances}, ${words}`, process.env, instances, order);
    const raw = await rawPgBookingsPerSecond(pgUrl, Math.min(seconds, 5), rawPgClients, order);
    console.log(
      `  raw PostgreSQL transaction, same writes and order, ${rawPgClients} connections: ${raw.perSecond} bookings/s; HTTP booking = ${Math.round((pgRate / raw.perSecond) * 100)}% of it, ${Math.round((pgRate / sqlite) * 100)}% of SQLite's`,
    );
  }
  await hot(process.env, instances);
}
