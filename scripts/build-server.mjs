// Compiles the server for production (`npm run build:server`, part of `npm run build`):
// apps/server/src/main.ts -> apps/server/dist/main.js, one ES module per entry, for `npm run
// start:prod` (plain node, no tsx). The workspace's contract (TypeScript source) is bundled in;
// npm packages stay external and are loaded from node_modules. Also compiles the backup and
// restore commands (dist/db-backup.js, dist/db-restore.js). `--outdir <dir>` writes elsewhere.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--outdir');
const outdir = path.resolve(at >= 0 ? process.argv[at + 1] : path.join(root, 'apps/server/dist'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@studio/'));

const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'apps/server/src/main.ts',
    'db-backup': 'scripts/db-backup.ts',
    'db-restore': 'scripts/db-restore.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server built into ${path.relative(root, outdir) || '.'} in ${Date.now() - started} ms`);
