// Runs every suite (API on SQLite and PostgreSQL, browser tests in Chromium) and prints one closing line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const requireAll = process.env.REQUIRE_ALL === '1';
const notes = [];
if (!process.env.TEST_DATABASE_URL) {
  notes.push('PostgreSQL suites: SKIPPED (TEST_DATABASE_URL is not set; e.g. postgres://postgres@127.0.0.1:5432/test)');
}
if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  notes.push('Browser suites: SKIPPED (no Chromium at /usr/bin/chromium; apt-get install chromium fonts-noto-cjk)');
}
for (const n of notes) console.log(`\n>>> ${n}`);
if (requireAll && notes.length) {
  console.error('REQUIRE_ALL=1: a suite would be skipped; failing.');
  process.exit(1);
}

const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-vitest-')), 'results.json');
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { stdio: 'inherit', env: process.env });

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped = r.numPendingTests + r.numTodoTests;
  // Per database and per suite kind: the describe titles carry [sqlite] / [postgres]; e2e files are browser tests.
  const tally = {};
  for (const file of r.testResults) {
    const browser = /[\\/]e2e[\\/]/.test(file.name);
    for (const t of file.assertionResults) {
      const title = t.ancestorTitles.join(' ');
      const kind = browser
        ? 'browser (Chromium)'
        : title.includes('[postgres]')
          ? 'PostgreSQL'
          : title.includes('[sqlite]')
            ? 'SQLite'
            : 'other';
      tally[kind] ??= { passed: 0, failed: 0, skipped: 0 };
      const k = t.status === 'passed' ? 'passed' : t.status === 'failed' ? 'failed' : 'skipped';
      tally[kind][k] += 1;
    }
  }
  for (const [kind, c] of Object.entries(tally)) {
    console.log(`  ${kind} — passed ${c.passed} / failed ${c.failed} / skipped ${c.skipped}`);
  }
} catch {
  failed = Math.max(failed, 1);
}
for (const n of notes) console.log(`>>> ${n}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
