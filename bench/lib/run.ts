import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

const here = path.dirname(new URL(import.meta.url).pathname);

export interface Served<T> {
  url: string;
  cookie: string;
  info: T & { port: number; username: string; password: string; dialect: string; seedMs: number };
  stop(): Promise<void>;
}

/** Starts bench/lib/server.ts for a scenario in a child process and logs in to it. */
export async function serve<T>(scenario: string, env: NodeJS.ProcessEnv = process.env): Promise<Served<T>> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []),
      '--import',
      'tsx',
      path.join(here, 'server.ts'),
      scenario,
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const info = await new Promise<Served<T>['info']>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${info.port}`;
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: info.username, password: info.password }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie) throw new Error('login failed');
  return {
    url,
    cookie,
    info,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A server for the scenario, and on PostgreSQL `n - 1` more app instances on its schema and store
 * (BENCH_JOIN); `pool` connections each (the database is shared: keep the total modest).
 */
export async function serveAll<T>(
  scenario: string,
  env: NodeJS.ProcessEnv,
  n: number,
  pool: string,
): Promise<Served<T>[]> {
  const first = await serve<T>(scenario, { ...env, BENCH_POOL_MAX: pool });
  const more = await Promise.all(
    Array.from({ length: n - 1 }, () =>
      serve<T>(scenario, { ...env, BENCH_POOL_MAX: pool, BENCH_JOIN: JSON.stringify(first.info) }),
    ),
  );
  return [first, ...more];
}

/** Stops the extra instances first: the first one drops the schema they use. */
export async function stopAll(servers: Served<unknown>[]): Promise<void> {
  await Promise.all(servers.slice(1).map((s) => s.stop()));
  await servers[0].stop();
}

/** The server's CPU time so far, in ms. */
export async function serverCpuMs(url: string): Promise<number> {
  const res = await fetch(`${url}/bench/cpu`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { micros: number }).micros / 1000;
}

/**
 * CPU time (ms) of this machine's PostgreSQL processes so far (postmaster and every backend: /proc,
 * user + system, with the time of children they reaped: a backend that exited counts in its
 * postmaster's). 0 where there is no /proc.
 */
export async function postgresCpuMs(): Promise<number> {
  const { readdir, readFile } = await import('node:fs/promises');
  const ticks = 100; // CLK_TCK on Linux
  let total = 0;
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (close < 0 || !stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14-17 of stat (utime, stime, cutime, cstime), counted from the state (field 3) here.
    total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (total * 1000) / ticks;
}

/** Statements the server has sent to PostgreSQL so far, and the writes that carried them (0 on SQLite). */
export async function serverStatements(url: string): Promise<{ statements: number; sends: number }> {
  const res = await fetch(`${url}/bench/statements`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return (await res.json()) as { statements: number; sends: number };
}

export interface Figures {
  reqPerSec: number;
  ok: number;
  failed: number;
  /** Answers with a status other than 2xx (the rest of `failed` are timeouts and socket errors). */
  non2xx?: number;
  p50: number;
  p99: number;
  seconds: number;
}

/** Runs autocannon: POST JSON bodies from `body()` (one per request) with `connections` clients. */
export async function load(o: {
  url: string;
  cookie?: string;
  connections: number;
  seconds: number;
  body: () => unknown;
  /** Extra request headers, e.g. `accept-encoding`. */
  headers?: Record<string, string>;
}): Promise<Figures> {
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(o.cookie ? { cookie: o.cookie } : {}), ...o.headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(o.body()) }) }],
  });
  return {
    reqPerSec: Math.round(result.requests.average),
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds: o.seconds,
  };
}

export function print(title: string, f: Figures, extra = ''): void {
  console.log(
    `${title.padEnd(34)} ${String(f.reqPerSec).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   ok ${f.ok}  failed ${f.failed}${extra}`,
  );
}
