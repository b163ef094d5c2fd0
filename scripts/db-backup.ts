// npm run backup [-- --dir <directory>]
//
// A consistent backup of the server's database while it runs: DATABASE_URL's PostgreSQL (pg_dump
// -Fc, `studio-<time>.dump`) or else DATA_DIR/studio.db (SQLite's online backup API,
// `studio-<time>.db`, checked with integrity_check), written into --dir, else BACKUP_DIR, else
// DATA_DIR/backups. An existing file is never overwritten (`studio-<time>-2.db`, ...).
import path from 'node:path';
import { backup, describeTarget, targetOf } from '../apps/server/src/ops/backup.ts';

async function main(argv: string[]) {
  const at = argv.indexOf('--dir');
  if (at >= 0 && !argv[at + 1]) throw new Error('--dir 需要一个目录');
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const dir = path.resolve(at >= 0 ? argv[at + 1] : process.env.BACKUP_DIR || path.join(dataDir, 'backups'));
  const source = targetOf({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
  const file = await backup(source, dir);
  // backup() refuses a SQLite copy that fails integrity_check, so one that is answered passed it.
  console.log(`已备份: ${describeTarget(source)} -> ${file}${source.kind === 'sqlite' ? ' (integrity_check ok)' : ''}`);
}

main(process.argv.slice(2)).catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
