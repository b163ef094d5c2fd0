// `npm run build:server` compiles the server, and the compiled code starts with plain node (no tsx),
// answers /healthz and stops cleanly on SIGTERM.
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, REPO_ROOT } from '../../test/hardening/server-process.ts';

const run = promisify(execFile);

describe('production build of the server', () => {
  // Inside apps/server/dist (ignored by git) so that the compiled code finds node_modules above it.
  const outdir = path.join(REPO_ROOT, 'apps/server/dist', `test-${crypto.randomBytes(4).toString('hex')}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-prod-'));
  afterAll(() => {
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds, starts the compiled main.js without tsx, answers /healthz 200 and exits 0 on SIGTERM', async () => {
    await run(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], { cwd: REPO_ROOT });
    expect(fs.existsSync(path.join(outdir, 'main.js'))).toBe(true);
    const port = await freePort();
    const proc = spawn(process.execPath, [path.join(outdir, 'main.js')], {
      cwd: dataDir,
      // NODE_OPTIONS cleared: nothing (vitest, tsx) may load TypeScript for it.
      env: {
        PATH: process.env.PATH,
        NODE_OPTIONS: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'empty',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        MEMBER_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    let status = 0;
    let body: unknown;
    for (let i = 0; i < 600 && proc.exitCode === null; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        status = res.status;
        body = await res.json();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(status, out).toBe(200);
    expect(body).toEqual({ code: 0, data: { status: 'ok' }, msg: '' });
    proc.kill('SIGTERM');
    expect(await exited, out).toBe(0);
  }, 120_000);
});
