import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.ts';

const run = promisify(execFile);

/** The bin folder of the newest PostgreSQL server installed (Debian layout), or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter(
      (v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')) && fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * A throwaway PostgreSQL cluster of its own (never the shared server): initdb into a temp folder,
 * listening on a free port of 127.0.0.1 with its socket in /tmp. As root, the binaries run as the
 * `postgres` OS user (initdb refuses root). stop()/start() restart it; destroy() removes it all.
 */
export class ThrowawayCluster {
  readonly dir: string;
  readonly port: number;
  private constructor(
    private readonly bin: string,
    dir: string,
    port: number,
  ) {
    this.dir = dir;
    this.port = port;
  }

  static async create(bin: string): Promise<ThrowawayCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-pg-'));
    fs.chmodSync(dir, 0o777);
    const c = new ThrowawayCluster(bin, dir, await freePort());
    await c.run('initdb', ['-D', c.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    await c.start();
    return c;
  }

  get data(): string {
    return path.join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Runs a PostgreSQL tool without blocking the event loop (the load goes on meanwhile). */
  private async run(tool: string, args: string[]): Promise<void> {
    const exe = path.join(this.bin, tool);
    const root = process.getuid?.() === 0;
    await run(root ? 'runuser' : exe, root ? ['-u', 'postgres', '--', exe, ...args] : args, { cwd: this.dir });
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const opts = `-p ${this.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    await this.run('pg_ctl', [
      '-D',
      this.data,
      '-o',
      opts,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Stops the server: `fast` ends every session (open transactions are rolled back), as a restart does. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop('immediate');
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
