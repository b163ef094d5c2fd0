import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Builds the web app once before the browser suites, unless a build newer than the sources exists. */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const dist = path.join(root, 'apps/web/dist/index.html');
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }
    return t;
  };
  const srcTime = Math.max(newest(path.join(root, 'apps/web/src')), newest(path.join(root, 'packages/contract/src')));
  if (fs.existsSync(dist) && fs.statSync(dist).mtimeMs >= srcTime) return;
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('web build failed');
}
