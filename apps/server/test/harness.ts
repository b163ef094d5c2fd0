import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Envelope, StaffRole } from '@studio/contract';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DbHandle, type Dialect, type OpenOptions } from '../src/db/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createStoreWithAdmin } from '../src/features/store-admin/public.ts';
import { failOnUndeclared, watchDeclaredErrors } from './declared-errors.ts';
import { failOnUndocumented, watchDocumentedAnswers } from './documented-answers.ts';
import { Factory } from './factory.ts';
import { scratchDir } from './scratch.ts';

export const PG_URL = process.env.TEST_DATABASE_URL;
export const REQUIRE_ALL = process.env.REQUIRE_ALL === '1';
export const TEST_PASSWORD = 'test-password-1';

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * A fresh, migrated database: a SQLite file or a PostgreSQL schema of its own. `extra` adds
 * connection options (application_name, busy time-out).
 */
export async function freshDatabase(
  dialect: Dialect,
  extra: Pick<OpenOptions, 'applicationName' | 'busyTimeoutMs' | 'onConnectionError'> = {},
): Promise<DbHandle & { drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = scratchDir('studio-test-');
    const handle = openDatabase({ file: path.join(dir, 'test.db'), ...extra });
    await migrateToLatest(handle.db, 'sqlite');
    return { ...handle, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase({ url: PG_URL, schema, poolMax: 30, ...extra });
  const drop = async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  };
  try {
    await migrateToLatest(handle.db, 'postgres');
  } catch (err) {
    // A failed migration must not leave its schema behind.
    await handle.close();
    await drop();
    throw err;
  }
  return { ...handle, drop };
}

export interface Answer<T = unknown> extends Envelope<T> {
  status: number;
}

/** A logged-in (or anonymous) client of an app, through app.inject. */
export class Client {
  cookie?: string;
  storeId?: number;
  /** The client's network address as the server sees it (default: inject's 127.0.0.1). */
  address?: string;
  constructor(readonly app: App) {}

  /** This client, calling from `address` (the members' door counts per address). */
  from(address: string): this {
    this.address = address;
    return this;
  }

  async call<T = any>(url: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      ...(this.address ? { remoteAddress: this.address } : {}),
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.storeId ? { 'x-store-id': String(this.storeId) } : {}),
        ...headers,
      },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = res.json() as Envelope<T>;
    return { ...json, status: res.statusCode };
  }

  /** Calls and insists on success; returns data. */
  async ok<T = any>(url: string, body: unknown = {}): Promise<T> {
    const a = await this.call<T>(url, body);
    if (a.code !== 0) throw new Error(`${url} failed: ${a.status} ${a.msg}`);
    return a.data;
  }

  async login(account: string, password = TEST_PASSWORD): Promise<Answer> {
    const res = await this.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account, password }),
    });
    const setCookie = res.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (first) this.cookie = first.split(';')[0];
    return { ...(res.json() as Envelope<unknown>), status: res.statusCode };
  }
}

/** Counts answers by "status msg" ("ok" for a success): what a race's answers were. */
export function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.code === 0 ? 'ok' : `${a.status} ${a.msg}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

export interface TestEnv {
  dialect: Dialect;
  app: App;
  database: DbHandle;
  /** The store made for this file, its admin, and a logged-in client of that admin. */
  storeId: number;
  staffId: number;
  username: string;
  client: Client;
  factory: Factory;
  /** Another store with its own admin and logged-in client (tenant isolation). */
  other: { storeId: number; staffId: number; username: string; client: Client; factory: Factory };
  anon(): Client;
}

let seq = 0;
/** Makes a store with an admin, logged in. */
export async function newStore(app: App, database: DbHandle, name = '测试门店') {
  seq += 1;
  const username = `staff${seq}_${crypto.randomBytes(3).toString('hex')}`;
  const { storeId, staffId } = await createStoreWithAdmin(database.db, {
    storeName: `${name}${seq}`,
    admin: { username, password: TEST_PASSWORD, name: `管理员${seq}` },
  });
  const client = new Client(app);
  const res = await client.login(username);
  if (res.code !== 0) throw new Error(`login failed: ${res.msg}`);
  return { storeId, staffId, username, client, factory: new Factory(database.db, storeId) };
}

export const dialects: Dialect[] = ['sqlite', 'postgres'];

interface BaseEnv {
  dialect: Dialect;
  app: App;
  database: DbHandle;
}

/**
 * Runs a suite once per database: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 * Without it the PostgreSQL run is skipped with a message, or fails under REQUIRE_ALL=1.
 * Each run gets a fresh database and app; `setup` adds what the suite needs to the environment.
 */
export function describeEachDbWith<E extends BaseEnv>(
  name: string,
  setup: (base: BaseEnv) => Promise<E>,
  fn: (env: () => E) => void,
): void {
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
      let env: E | undefined;
      let drop: (() => Promise<void>) | undefined;
      // Every failed answer of the suite is one its call declares in the contract (declared-errors.ts),
      // and every answer matches the schema the published document declares for it (documented-answers.ts).
      let watch: ReturnType<typeof watchDeclaredErrors> | undefined;
      let documented: ReturnType<typeof watchDocumentedAnswers> | undefined;
      beforeAll(async () => {
        const database = await freshDatabase(dialect);
        drop = database.drop;
        const config = {
          ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
          webDist: '/nonexistent',
          memberDist: '/nonexistent',
        };
        const app = await buildApp({ config, database, validateResponses: true, logger: false });
        watch = watchDeclaredErrors(app);
        documented = watchDocumentedAnswers(app, config);
        await app.ready();
        env = await setup({ dialect, app, database });
      }, 60_000);
      afterEach(() => {
        if (watch) failOnUndeclared(watch);
        if (documented) failOnUndocumented(documented);
      });
      afterAll(async () => {
        if (env) {
          await env.app.close();
          await env.database.close();
        }
        await drop?.();
        if (watch) failOnUndeclared(watch);
        if (documented) failOnUndocumented(documented);
      });
      fn(() => {
        if (!env) throw new Error('test environment not ready');
        return env;
      });
    });
  }
}

/** describeEachDbWith, with a store of this file (logged-in admin) and another store for isolation tests. */
export function describeEachDb(name: string, fn: (env: () => TestEnv) => void): void {
  describeEachDbWith(
    name,
    async (base) => {
      const mine = await newStore(base.app, base.database);
      const other = await newStore(base.app, base.database, '另一门店');
      return { ...base, ...mine, other, anon: () => new Client(base.app) };
    },
    fn,
  );
}

/** A staff member of the env's store with a role (a teacher's: `teacherId`), added by its admin and logged in. */
export async function staffClient(
  env: Pick<TestEnv, 'app' | 'client'>,
  role: StaffRole,
  teacherId: number | null = null,
): Promise<Client> {
  const account = `${role}${crypto.randomBytes(4).toString('hex')}`;
  await env.client.ok('/store/api/insert/staff', {
    name: `${role}员工`,
    account,
    mobile: null,
    password: TEST_PASSWORD,
    role,
    teacherId,
  });
  const c = new Client(env.app);
  const res = await c.login(account);
  if (res.code !== 0) throw new Error(`login of ${account} failed: ${res.msg}`);
  return c;
}

/**
 * The suite's app and, on PostgreSQL, `more` app instances on its schema (several servers on one
 * database), started before the suite's tests and stopped after, each with a client signed in as
 * the suite's manager; the suite's own first. SQLite has one writer process: its own only. `poolMax`:
 * each added instance's connections (20), kept small by a suite racing many requests so that it and
 * the suites running beside it stay within the server's connections.
 */
export function moreInstances(env: () => TestEnv, more: number, o: { poolMax?: number } = {}) {
  const started: { app: App; database: DbHandle }[] = [];
  const all = { apps: [] as App[], clients: [] as Client[] };
  beforeAll(async () => {
    const e = env();
    all.apps = [e.app];
    all.clients = [e.client];
    if (e.dialect !== 'postgres') return;
    for (let i = 0; i < more; i++) {
      const database = openDatabase({ url: PG_URL, schema: e.database.schema, poolMax: o.poolMax ?? 20 });
      const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
      const app = await buildApp({ config, database, validateResponses: true, logger: false });
      await app.ready();
      started.push({ app, database });
      const client = new Client(app);
      expect((await client.login(e.username)).code).toBe(0);
      all.apps.push(app);
      all.clients.push(client);
    }
  });
  afterAll(async () => {
    for (const x of started) {
      await x.app.close();
      await x.database.close();
    }
  });
  return all;
}
