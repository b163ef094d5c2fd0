import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The repository root (this file is apps/server/test/hardening/). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  url: string;
  proc: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the real server (`node --import tsx apps/server/src/main.ts`) on a free port and waits
 * until it answers. `env` adds to the environment (DATABASE_URL, DATA_DIR, SEED, ...).
 */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => (dead = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (dead) throw new Error(`server exited before answering:\n${out}`);
    try {
      const res = await fetch(`${url}/api/setup/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`server did not answer within ${timeoutMs} ms:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    url,
    proc,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (!dead) proc.kill(signal);
      await exited;
    },
  };
}

export interface HttpAnswer<T = any> {
  status: number;
  code: number;
  data: T;
  msg: string;
}

/** A client of a running server over real HTTP, keeping the session cookie. */
export class HttpClient {
  cookie?: string;
  constructor(public base: string) {}

  async call<T = any>(p: string, body: unknown = {}, init: { signal?: AbortSignal } = {}): Promise<HttpAnswer<T>> {
    const res = await fetch(`${this.base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: JSON.stringify(body),
      signal: init.signal,
    });
    const text = await res.text();
    let json: { code: number; data: T; msg: string };
    try {
      json = JSON.parse(text);
    } catch {
      json = { code: -1, data: undefined as T, msg: text.slice(0, 200) };
    }
    return { status: res.status, ...json };
  }

  /** Signs a member in on the members' channel with a one-time code; keeps the member cookie. */
  async loginMember(storeId: number, mobile: string, code: string): Promise<HttpAnswer> {
    const res = await fetch(`${this.base}/member/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ storeId, mobile, code }),
    });
    const set = res.headers.getSetCookie?.() ?? [];
    if (set[0]) this.cookie = set[0].split(';')[0];
    const json = (await res.json()) as { code: number; data: unknown; msg: string };
    return { status: res.status, ...json };
  }

  async login(account: string, password: string): Promise<HttpAnswer> {
    const res = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, password }),
    });
    const set = res.headers.getSetCookie?.() ?? [];
    if (set[0]) this.cookie = set[0].split(';')[0];
    const json = (await res.json()) as { code: number; data: unknown; msg: string };
    return { status: res.status, ...json };
  }
}
