/**
 * A class release: 1,000 signed-in members open the members' timetable of tomorrow and book at the
 * same moment, as at the minute booking opens. The store has one class of 20 seats that everyone
 * wants and 30 other classes of 40 seats; each member reads the day (/member/api/query/timetable),
 * books the 20-seat class (/member/api/add/reservation) and, told it is full, one of the others.
 * The real app in child processes: SQLite, then (BENCH_DATABASE_URL) three instances on one
 * PostgreSQL schema, the members spread over them. Prints p50/p99 of the read and of the booking,
 * what was booked (exactly 20 on the 20-seat class), whether anything was over-booked, the
 * answers that were 4xx/5xx, and the servers' CPU; asserts nothing.
 *   node --import tsx bench/release.ts        (BENCH_MEMBERS=1000, BENCH_INSTANCES=3)
 *
 * The floor (issue 46): before the rush, the same clients send the same number of calls at once to
 * the smallest signed-in call (/member/api/auth/me), each as many in turn as it sends in the rush;
 * its wall time is what this machine, client and server stack pay anyway. The rush's wall time is
 * printed as a multiple of it, and so is the read alone (every member reads the day once, at once,
 * against one /auth/me each). CPU of every process: each instance, PostgreSQL's, this client's.
 *
 * Members sign in through the real login: the desk gives each a one-time code
 * (/store/api/create/member/login/code) and the member logs in with it (/member/api/auth/login),
 * a few at a time (wrong logins are limited per address, and every login takes one of its slots
 * while it runs). Then every member's session is opened at once (/member/api/auth/me: their phone
 * has the page open and a connection to the server), and the rush starts.
 */
import {
  createMemberLoginCode,
  memberBook,
  memberLogin,
  memberMe,
  memberTimetable,
  Msg,
  queryTimetableByDate,
  updateBookingPolicy,
} from '@studio/contract';
import { postgresCpuMs, serveAll, serverCpuMs, stopAll, type Served } from './lib/run.ts';

const instances = Number(process.env.BENCH_INSTANCES ?? 3);
const pgPool = process.env.BENCH_POOL_MAX ?? '10';
const wanted = Number(process.env.BENCH_MEMBERS ?? 1000);

type Info = {
  storeId: number;
  day: string;
  hotId: number;
  otherIds: number[];
  memberIds: number[];
  cardIds: number[];
  mobiles: string[];
};

type Answer = { status: number; code: number; msg: string; data: unknown; ms: number };

async function post(url: string, cookie: string, body: unknown): Promise<Answer> {
  const start = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - start;
  try {
    const a = JSON.parse(text) as { code: number; msg: string; data: unknown };
    return { status: res.status, code: a.code, msg: a.msg, data: a.data, ms };
  } catch {
    return { status: res.status, code: -1, msg: text.slice(0, 80), data: null, ms };
  }
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

const pct = (sorted: number[], q: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]) : 0;

function figures(answers: Answer[]) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    count: answers.length,
    p50: pct(ms, 0.5),
    p99: pct(ms, 0.99),
    max: Math.round(ms[ms.length - 1] ?? 0),
    c4xx: answers.filter((a) => a.status >= 400 && a.status < 500).length,
    c5xx: answers.filter((a) => a.status >= 500 || a.code === -1).length,
  };
}

type Session = { id: number; realCount: number; reservableCount: number };

/** Seats of the day's sessions as the staff calendar reads them (the database, uncached or checked). */
async function staffSeats(s: Served<Info>, day: string): Promise<Map<number, Session>> {
  const a = await post(`${s.url}${queryTimetableByDate.path}`, s.cookie, {
    fromDate: day,
    toDate: day,
    areaId: null,
    teacherId: null,
  });
  const days = a.data as { list: Session[] }[];
  return new Map(days.flatMap((d) => d.list).map((x) => [x.id, x]));
}

async function run(label: string, env: NodeJS.ProcessEnv, n: number) {
  const servers = await serveAll<Info>('release', env, n, pgPool);
  const info = servers[0].info;
  const staff = servers[0];
  const members = Math.min(wanted, info.memberIds.length);
  // A store that releases classes opens booking days ahead, keeps a waitlist and suspends no-shows.
  await post(`${staff.url}${updateBookingPolicy.path}`, staff.cookie, {
    openDaysBefore: 7,
    closeMinutesBefore: 60,
    cancelMinutesBefore: 120,
    waitlist: 1,
    noShowLimit: 3,
    noShowSuspendDays: 7,
  });

  // Sign in through the real login, a few at a time (see the top of the file).
  const signInStart = performance.now();
  const cookies: string[] = new Array(members);
  await inBatches(info.memberIds.slice(0, members), 8, async (memberId, i) => {
    const s = servers[i % n];
    const code = await post(`${s.url}${createMemberLoginCode.path}`, s.cookie, { memberId });
    const res = await fetch(`${s.url}${memberLogin.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        storeId: info.storeId,
        mobile: info.mobiles[i],
        code: (code.data as { code: string }).code,
      }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    if (res.status !== 200 || !cookie) throw new Error(`member login failed: ${res.status} ${await res.text()}`);
    cookies[i] = cookie;
  });
  const signInMs = performance.now() - signInStart;
  // Every member's page open, a connection each; a few of them looked at the day already.
  await Promise.all(cookies.map((c, i) => post(`${servers[i % n].url}${memberMe.path}`, c, {})));
  const range = { fromDate: info.day, toDate: info.day };
  await Promise.all(cookies.slice(0, 30).map((c, i) => post(`${servers[i % n].url}${memberTimetable.path}`, c, range)));

  const cpuOf = async () => ({
    servers: await Promise.all(servers.map((s) => serverCpuMs(s.url))),
    postgres: n > 1 || env.BENCH_DATABASE_URL ? await postgresCpuMs() : 0,
    client: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  const at = (i: number) => servers[i % n].url;
  /** Wall time (ms) of every client sending `calls(i)` calls of `path` in turn, all clients at once. */
  const wave = async (path: string, body: unknown, calls: (i: number) => number) => {
    const t = performance.now();
    const answers: Answer[] = [];
    await Promise.all(
      cookies.map(async (c, i) => {
        for (let k = 0; k < calls(i); k++) answers.push(await post(`${at(i)}${path}`, c, body));
      }),
    );
    const bad = answers.filter((a) => a.code !== 0).length;
    if (bad) throw new Error(`${bad} calls to ${path} failed`);
    return { ms: performance.now() - t, answers };
  };
  // The read alone against its floor (one call each), then the rush's floor: as many calls as the
  // rush sends (the 20 who get the hot class send two, everyone else three).
  const floorOne = await wave(memberMe.path, {}, () => 1);
  const readAlone = await wave(memberTimetable.path, range, () => 1);
  // BENCH_READ_WAVES=k: k more read waves, for a CPU profile of the read (BENCH_NODE_ARGS=--cpu-prof).
  for (let k = 0; k < Number(process.env.BENCH_READ_WAVES ?? 0); k++) await wave(memberTimetable.path, range, () => 1);
  const floor = await wave(memberMe.path, {}, (i) => (i < 20 ? 2 : 3));

  const cpuBefore = await cpuOf();
  const reads: Answer[] = [];
  const bookings: Answer[] = [];
  const t0 = performance.now();
  let hotBooked = 0;
  const otherBooked = new Map<number, number>();
  await Promise.all(
    cookies.map(async (cookie, i) => {
      const s = servers[i % n];
      reads.push(await post(`${s.url}${memberTimetable.path}`, cookie, range));
      const mcId = info.cardIds[i];
      const hot = await post(`${s.url}${memberBook.path}`, cookie, { tid: info.hotId, mcId, studentCount: 1 });
      bookings.push(hot);
      if (hot.code === 0) {
        hotBooked++;
        return;
      }
      const tid = info.otherIds[i % info.otherIds.length];
      const other = await post(`${s.url}${memberBook.path}`, cookie, { tid, mcId, studentCount: 1 });
      bookings.push(other);
      if (other.code === 0) otherBooked.set(tid, (otherBooked.get(tid) ?? 0) + 1);
    }),
  );
  const wallMs = performance.now() - t0;
  const cpuAfter = await cpuOf();
  const serverCpu = cpuAfter.servers.map((x, k) => x - cpuBefore.servers[k]);
  const cpuMs = serverCpu.reduce((a, b) => a + b, 0);

  const r = figures(reads);
  const b = figures(bookings);
  const full = bookings.filter((a) => a.msg === Msg.sessionFull).length;
  const otherMsgs = new Map<string, number>();
  for (const a of [...reads, ...bookings]) {
    if (a.code !== 0 && a.msg !== Msg.sessionFull)
      otherMsgs.set(`${a.status} ${a.msg}`, (otherMsgs.get(`${a.status} ${a.msg}`) ?? 0) + 1);
  }
  console.log(
    `${label}: ${members} members signed in through the desk code and the members' login in ${(signInMs / 1000).toFixed(1)} s; rush answered in ${Math.round(wallMs)} ms`,
  );
  console.log(
    `${label}: timetable read ${String(Math.round((r.count * 1000) / wallMs)).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   ok ${r.count - r.c4xx - r.c5xx}  failed ${r.c4xx + r.c5xx}   (max ${r.max} ms, 4xx ${r.c4xx}, 5xx ${r.c5xx})`,
  );
  console.log(
    `${label}: booking ${String(Math.round((b.count * 1000) / wallMs)).padStart(7)} req/s   p50 ${String(b.p50).padStart(4)} ms   p99 ${String(b.p99).padStart(4)} ms   ok ${b.count - b.c4xx - b.c5xx}  failed ${b.c4xx + b.c5xx}   (max ${b.max} ms, 4xx ${b.c4xx} of them ${full} told ${Msg.sessionFull}, 5xx ${b.c5xx})`,
  );
  if (otherMsgs.size) console.log(`  other refusals: ${[...otherMsgs].map(([m, k]) => `${k} x ${m}`).join('; ')}`);

  // What the database holds, and what each instance's members' timetable shows now.
  const seats = await staffSeats(staff, info.day);
  const hot = seats.get(info.hotId)!;
  const overBooked = [...seats.values()].filter((x) => x.realCount > x.reservableCount).length;
  const othersMatch = info.otherIds.every((id) => seats.get(id)!.realCount === (otherBooked.get(id) ?? 0));
  let stale = 0;
  for (const [k, s] of servers.entries()) {
    const a = await post(`${s.url}${memberTimetable.path}`, cookies[k], range);
    if (a.code !== 0) stale += 1000;
    for (const x of ((a.data ?? []) as { sessions: Session[] }[]).flatMap((d) => d.sessions)) {
      if (x.realCount !== seats.get(x.id)?.realCount) stale++;
    }
  }
  const otherTotal = [...otherBooked.values()].reduce((a, k) => a + k, 0);
  console.log(
    `  booked: 20-seat class ${hotBooked} (the database says ${hot.realCount} of ${hot.reservableCount}), other classes ${otherTotal} of ${members - hotBooked} (the database ${othersMatch ? 'agrees' : 'DISAGREES'}); over-booked: ${overBooked ? `YES, ${overBooked} classes` : 'none'}; seats shown by the members' timetable of each instance afterwards: ${stale ? `${stale >= 1000 ? 'a read FAILED' : `${stale} STALE`}` : 'as the database'}`,
  );
  const perRequest = cpuMs / (r.count + b.count);
  console.log(
    `  server CPU ${Math.round(cpuMs)} ms in all (${n} instance${n > 1 ? 's' : ''}: ${serverCpu.map((x) => Math.round(x)).join(' + ')}), ${perRequest.toFixed(2)} ms per request; PostgreSQL ${Math.round(cpuAfter.postgres - cpuBefore.postgres)} ms; this client ${Math.round(cpuAfter.client - cpuBefore.client)} ms; seed ${info.seedMs} ms`,
  );
  const ratio = (x: number, of: number) => (x / of).toFixed(2);
  const limit = wallMs / 2;
  console.log(
    `  floor ${Math.round(floor.ms)} ms (${floor.answers.length} x ${memberMe.path}); rush ${Math.round(wallMs)} ms = ${ratio(wallMs, floor.ms)}x the floor (target ${n > 1 ? 2 : 1.5}x); p99 read ${r.p99} / booking ${b.p99} ms against half the rush ${Math.round(limit)} ms: ${r.p99 <= limit && b.p99 <= limit ? 'within' : 'OVER'}; read alone ${Math.round(readAlone.ms)} ms = ${ratio(readAlone.ms, floorOne.ms)}x its floor ${Math.round(floorOne.ms)} ms (target 1.5x)`,
  );
  console.log(
    `RESULT ${JSON.stringify({ db: label, measurement: 'release rush / floor', value: ratio(wallMs, floor.ms), p50: String(Math.round(wallMs)), p99: String(Math.round(floor.ms)), note: `read alone / floor ${ratio(readAlone.ms, floorOne.ms)}` })}`,
  );
  const db = label.split(' ')[0];
  for (const [what, f] of [
    ['timetable read', r],
    ['booking', b],
  ] as const) {
    console.log(
      `RESULT ${JSON.stringify({ db: label, measurement: `release rush: ${what}`, value: `${f.count} calls`, p50: String(f.p50), p99: String(f.p99), note: `${db}; 4xx ${f.c4xx}, 5xx ${f.c5xx}` })}`,
    );
  }
  await stopAll(servers);
}

console.log(`class-release benchmark: ${wanted} members, Node ${process.version}`);
await run('SQLite', { ...process.env, BENCH_DATABASE_URL: '' }, 1);
if (process.env.BENCH_DATABASE_URL) await run(`PostgreSQL x${instances}`, process.env, instances);
