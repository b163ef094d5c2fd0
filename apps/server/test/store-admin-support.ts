import type { DbHandle, Dialect } from '../src/db/index.ts';
import { Client, describeEachDbWith, newStore, type App } from './harness.ts';

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
  describeEachDbWith(name, async (base) => ({ ...base, anon: () => new Client(base.app) }), fn);
}

/** A store with a logged-in admin in an app built by describeEachDbOwnApp. */
export const storeIn = (env: OwnAppEnv, name?: string) => newStore(env.app, env.database, name);
