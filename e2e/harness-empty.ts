import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedIfEmpty } from '../apps/server/src/ops/seed/index.ts';
import { Api, describeWithChromium, launchBrowser, newContext, ROOT, type BrowserEnv, type Server } from './harness.ts';
import { scratchDir } from '../apps/server/test/scratch.ts';

/** A running app on a fresh SQLite file started with SEED=empty: no store until first-run setup. */
export async function startEmptyServer(): Promise<Server> {
  const dir = scratchDir('studio-e2e-empty-');
  const database = openDatabase({ file: path.join(dir, 'e2e.db') });
  await migrateToLatest(database.db, 'sqlite');
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SEED: 'empty' } as NodeJS.ProcessEnv);
  await seedIfEmpty(database.db, config.seed);
  config.webDist = path.join(ROOT, 'apps/web/dist');
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser suite on an empty installation: no store, nobody logged in (the api client is not
 * logged in either; it can log in once the test has created the admin).
 */
export function describeEmptyBrowser(name: string, fn: (env: () => BrowserEnv) => void): void {
  describeWithChromium(
    name,
    async () => {
      const server = await startEmptyServer();
      const browser = await launchBrowser();
      const context = await newContext(browser);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { server, browser, context, page, api: new Api(server.url) };
    },
    fn,
  );
}
