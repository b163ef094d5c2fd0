/**
 * Booking throughput: the real app on a temp SQLite file (and on PostgreSQL when
 * BENCH_DATABASE_URL is set), 50 concurrent HTTP clients booking distinct (member card, session)
 * pairs for about 10 s through /store/api/add/member/reservation. Prints bookings/s and latency.
 *   node --import tsx bench/booking.ts        (BENCH_SECONDS=10, BENCH_CONNECTIONS=50)
 */
import { rawBookingsPerSecond } from './lib/raw-booking.ts';
import { load, print, serve, serverCpuMs } from './lib/run.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function run(label: string, env: NodeJS.ProcessEnv) {
  const s = await serve<{ sessionIds: number[]; cardIds: number[] }>('booking', env);
  const { sessionIds, cardIds } = s.info;
  let k = 0;
  // Pair k -> card k mod C, session (k div C) mod S: every pair is new, so no duplicate refusals.
  const body = () => {
    const i = k++;
    return {
      mcId: cardIds[i % cardIds.length],
      tid: sessionIds[Math.floor(i / cardIds.length) % sessionIds.length],
      studentCount: 1,
    };
  };
  const url = `${s.url}/store/api/add/member/reservation`;
  await load({ url, cookie: s.cookie, connections, seconds: 2, body });
  const cpuBefore = await serverCpuMs(s.url);
  const f = await load({ url, cookie: s.cookie, connections, seconds, body });
  const cpuMs = (await serverCpuMs(s.url)) - cpuBefore;
  print(`${label}: bookings`, { ...f, reqPerSec: Math.round(f.ok / seconds) });
  if (label === 'SQLite') {
    // Baseline in the same run: the same writes as raw SQLite transactions, one at a time.
    const raw = await rawBookingsPerSecond(Math.min(seconds, 5));
    const ratio = Math.round((f.ok / seconds / raw.perSecond) * 100);
    console.log(`  raw SQLite transaction, same writes: ${raw.perSecond} bookings/s; HTTP booking = ${ratio}% of it`);
  }
  const perBooking = cpuMs / f.ok;
  console.log(
    `  server CPU ${perBooking.toFixed(2)} ms per booking (a core of its own would do ~${Math.round(1000 / perBooking)}/s); seed ${s.info.seedMs} ms`,
  );
  await s.stop();
}

console.log(`booking benchmark: ${connections} connections, ${seconds} s after a 2 s warm-up, Node ${process.version}`);
await run('SQLite', { ...process.env, BENCH_DATABASE_URL: '' });
if (process.env.BENCH_DATABASE_URL) await run('PostgreSQL', process.env);
