// `npm run start:prod`: runs the compiled server (apps/server/dist/main.js, written by `npm run
// build`) with plain node, no tsx. Says what to do when the build has not been run yet.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const main = path.resolve(import.meta.dirname, '../apps/server/dist/main.js');
if (!fs.existsSync(main)) {
  console.error('没有找到编译好的服务端（apps/server/dist/main.js）：请先运行 npm run build');
  process.exit(1);
}
await import(pathToFileURL(main).href);
