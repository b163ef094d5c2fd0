import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Builds the web apps (the staff back office and the members' page) once before the browser suites,
 * each unless a build newer than its sources exists.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }
    return t;
  };
  for (const app of ['apps/web', 'apps/member']) {
    const dist = path.join(root, app, 'dist/index.html');
    // Its sources, the contract's, and its own build files (a changed vite.config.ts builds again).
    const own = ['vite.config.ts', 'index.html'].map((f) => path.join(root, app, f)).filter((f) => fs.existsSync(f));
    const srcTime = Math.max(
      newest(path.join(root, app, 'src')),
      newest(path.join(root, 'packages/contract/src')),
      ...own.map((f) => fs.statSync(f).mtimeMs),
    );
    if (fs.existsSync(dist) && fs.statSync(dist).mtimeMs >= srcTime) continue;
    // One build of an app at a time on this machine (two at once break each other's dist): under a lock.
    const build = ['npm', 'run', 'build', '-w', app];
    const lock = path.join(os.tmpdir(), `studio-build-${path.basename(app)}.lock`);
    let r = spawnSync('flock', [lock, ...build], { cwd: root, stdio: 'inherit' });
    if (r.error) r = spawnSync(build[0], build.slice(1), { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${app} build failed`);
  }
}
