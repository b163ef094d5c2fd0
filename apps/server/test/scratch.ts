import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where test files of databases go: /dev/shm when the machine has it, else the temp directory.
 * A test's SQLite database commits with `synchronous = FULL`, as in production; on a disk of this
 * VM each commit's fsync waited about 3 ms (0.06 ms on /dev/shm), time in which the suites'
 * two workers sat idle. Memory keeps what a killed process wrote, as a disk does, so the crash
 * suites test the same thing.
 */
const BASE = (() => {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
})();

/** A fresh directory for one test's database files; the caller removes it. */
export function scratchDir(prefix: string): string {
  return fs.mkdtempSync(path.join(BASE, prefix));
}
