import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { DbHandle, Dialect } from '../../db/index.ts';
import { Client, dialects, freshDatabase, newStore, PG_URL, REQUIRE_ALL, type App } from '../../test/harness.ts';

export interface OwnAppEnv {
  dialect: Dialect;
  app: App;
  database: DbHandle;
  anon(): Client;
}

/**
 * Like describeEachDb, but creates no store, so a suite can start from an empty database (first-run
 * setup) or make the stores it needs with `storeIn`.
 */
export function describeEachDbOwnApp(name: string, fn: (env: () => OwnAppEnv) => void): void {
  for (const dialect of dialects) {
    if (dialect === 'postgres' && !PG_URL) {
      if (REQUIRE_ALL) {
        describe(`${name} [postgres]`, () => {
          beforeAll(() => {
            throw new Error('REQUIRE_ALL=1 but TEST_DATABASE_URL is not set: the PostgreSQL suite cannot run');
          });
          fn(() => undefined as never);
        });
      } else {
        describe.skip(`${name} [postgres] (skipped: TEST_DATABASE_URL is not set)`, () => fn(() => undefined as never));
      }
      continue;
    }
    describe(`${name} [${dialect}]`, () => {
      let env: OwnAppEnv | undefined;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const database = await freshDatabase(dialect);
        drop = database.drop;
        const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
        const app = await buildApp({ config, database, validateResponses: true, logger: false });
        await app.ready();
        env = { dialect, app, database, anon: () => new Client(app) };
      }, 60_000);
      afterAll(async () => {
        if (env) {
          await env.app.close();
          await env.database.close();
        }
        await drop?.();
      });
      fn(() => {
        if (!env) throw new Error('test environment not ready');
        return env;
      });
    });
  }
}

/** A store with a logged-in admin in an app built by describeEachDbOwnApp. */
export const storeIn = (env: OwnAppEnv, name?: string) => newStore(env.app, env.database, name);
