// A process that runs the no-show job until nothing is left (as an app instance's minute job
// would, several times over), for the SIGKILL test (no-show-crash.test.ts). DATABASE_URL or
// SQLITE_FILE names the database; JOB_CLOCK the store-local time the job sees.
import { openDatabase } from '../../src/db/index.ts';
import { runNoShows } from '../../src/features/no-show/public.ts';

const clock = process.env.JOB_CLOCK;
if (!clock) throw new Error('JOB_CLOCK is not set');
const url = process.env.DATABASE_URL;
const database = openDatabase(url ? { url, poolMax: 2 } : { file: process.env.SQLITE_FILE ?? '' });
let total = 0;
for (;;) {
  const n = await runNoShows(database.db, database.dialect, () => clock);
  if (n === 0) break;
  total += n;
}
await database.close();
console.log(`processed ${total}`);
