import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../../..');

it('the server starts without loading pdfkit: it is loaded where a contract PDF is rendered', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-lazy-'));
  try {
    // A loader hook that refuses pdfkit: importing the app (every feature's routes) must not ask for it.
    fs.writeFileSync(
      path.join(dir, 'hook.mjs'),
      "export async function resolve(s, c, next) { if (s === 'pdfkit') throw new Error('pdfkit loaded'); return next(s, c); }\n",
    );
    fs.writeFileSync(
      path.join(dir, 'register.mjs'),
      "import { register } from 'node:module';\nregister(new URL('./hook.mjs', import.meta.url));\n",
    );
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        path.join(dir, 'register.mjs'),
        '--input-type=module',
        '-e',
        "await import('./apps/server/src/app.ts'); console.log('started');",
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect([run.status, run.stdout.trim(), run.stderr.includes('pdfkit loaded')]).toEqual([0, 'started', false]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
