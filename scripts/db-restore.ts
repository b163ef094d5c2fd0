// npm run restore -- <backup file> [--target <postgres://... | sqlite file>] [--force]
//
// Puts a backup of `npm run backup` back. The target defaults to the server's own database
// (DATABASE_URL, else DATA_DIR/studio.db); stop the server on it first. A SQLite backup that fails
// integrity_check is refused before anything is touched. A target that holds data is refused unless
// --force (a SQLite file is then kept beside as <file>.before-restore-<time>, never deleted).
import path from 'node:path';
import { describeTarget, parseTarget, restore, targetOf } from '../apps/server/src/ops/backup.ts';

async function main(argv: string[]) {
  const args = [...argv];
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  const at = rest.indexOf('--target');
  if (at >= 0 && !rest[at + 1]) throw new Error('--target 需要一个数据库文件或 postgres:// 地址');
  const named = at >= 0 ? rest.splice(at, 2)[1] : undefined;
  const file = rest[0];
  if (!file) throw new Error('用法: npm run restore -- <备份文件> [--target <postgres://... | 文件>] [--force]');
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const target = named ? parseTarget(named) : targetOf({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
  // A .dump is pg_dump's; a .db is SQLite's: refuse to cross them.
  const isDump = file.endsWith('.dump');
  if (isDump !== (target.kind === 'postgres')) {
    throw new Error(`备份文件 ${file} 与目标 ${describeTarget(target)} 的数据库类型不符`);
  }
  const { kept } = await restore(path.resolve(file), target, { force });
  console.log(`已恢复: ${file} -> ${describeTarget(target)}${kept ? `\n原数据库保留为: ${kept}` : ''}`);
}

main(process.argv.slice(2)).catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
