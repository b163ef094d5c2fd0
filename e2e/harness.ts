import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { openDatabase, type DbHandle } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedIfEmpty } from '../apps/server/src/db/seed/index.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(ROOT, 'e2e/artifacts');
export const ADMIN = { account: 'admin', password: 'e2e-pass-1' };
/** The demo store's front-desk and teacher accounts. */
export const DESK = { account: 'desk', password: 'e2e-desk-2026' };
export const TEACHER = { account: 'teacher', password: 'e2e-teach-2026' };
const REQUIRE_ALL = process.env.REQUIRE_ALL === '1';

export const hasChromium = fs.existsSync(CHROMIUM);

/** A running app on a fresh SQLite file with the demo store, on 127.0.0.1 and a free port. */
export interface Server {
  url: string;
  database: DbHandle;
  close(): Promise<void>;
}

export async function startServer(overrides: Partial<Config> = {}): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-'));
  const database = openDatabase({ file: path.join(dir, 'e2e.db') });
  await migrateToLatest(database.db, 'sqlite');
  await seedIfEmpty(database.db, 'demo', { admin: ADMIN.password, desk: DESK.password, teacher: TEACHER.password });
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  // A private copy of the built app: another build of apps/web during the run must not swap the
  // hashed files under a running suite.
  const web = path.join(dir, 'web');
  fs.cpSync(path.join(ROOT, 'apps/web/dist'), web, { recursive: true });
  config.webDist = web;
  const member = path.join(dir, 'member');
  fs.cpSync(path.join(ROOT, 'apps/member/dist'), member, { recursive: true });
  config.memberDist = member;
  Object.assign(config, overrides);
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

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A browser context as a desk PC in the store has it; `timezoneId` sets another zone for the browser
 * (the demo store's is Asia/Shanghai): screens must show the store's clock whatever it is.
 */
export async function newContext(browser: Browser, o: { timezoneId?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1366, height: 768 },
    locale: 'zh-CN',
    timezoneId: o.timezoneId ?? 'Asia/Shanghai',
    acceptDownloads: true,
    // The app turns antd's animations off for people asking for less motion (app/providers.tsx):
    // a click never lands on a dialog still zooming in.
    reducedMotion: 'reduce',
  });
}

/** An HTTP client of the API with its own session cookie (seeding data, reading state). */
export class Api {
  cookie = '';
  constructor(readonly base: string) {}

  async login(account = ADMIN.account, password = ADMIN.password): Promise<void> {
    const res = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, password }),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  }

  async call<T = any>(p: string, body: unknown = {}): Promise<{ code: number; data: T; msg: string }> {
    const url = p.startsWith('/api/') || p.startsWith('/store/') ? p : `/store/api/${p.replace(/^\//, '')}`;
    const res = await fetch(`${this.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data: T; msg: string };
  }

  async ok<T = any>(p: string, body: unknown = {}): Promise<T> {
    const a = await this.call<T>(p, body);
    if (a.code !== 0) throw new Error(`${p} failed: ${a.code} ${a.msg}`);
    return a.data;
  }
}

/** Logs in through the login page and waits for the calendar. */
export async function loginThroughPage(page: Page, base: string, landing?: RegExp): Promise<void> {
  if (!landing) await page.goto(`${base}/login`);
  await page.getByPlaceholder('账号 / 手机号').fill(ADMIN.account);
  await page.getByPlaceholder('密码').fill(ADMIN.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL(landing ?? '**/course/calendar');
  await page.locator('.fc').waitFor();
}

/** Logs in over HTTP and hands the cookie to the browser context (faster than the page). */
export async function loginWithCookie(context: BrowserContext, api: Api): Promise<void> {
  const [name, value] = api.cookie.split('=');
  await context.addCookies([{ name, value, url: api.base }]);
}

/** A phone held in one hand: 390x844, touch, the store's time zone (the members' page). */
export async function phoneContext(browser: Browser): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return [context, page];
}

export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export interface BrowserEnv {
  server: Server;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  api: Api;
}

/**
 * Runs a browser suite with the environment `open` makes (once per file), closing it afterwards.
 * Without /usr/bin/chromium the suite is skipped with a message, or fails under REQUIRE_ALL=1.
 */
export function describeWithChromium(
  name: string,
  open: () => Promise<BrowserEnv>,
  fn: (env: () => BrowserEnv) => void,
): void {
  if (!hasChromium) {
    if (REQUIRE_ALL) {
      describe(name, () => {
        beforeAll(() => {
          throw new Error(`${CHROMIUM} 不存在：浏览器测试无法运行 (REQUIRE_ALL=1)`);
        });
        fn(() => {
          throw new Error('no chromium');
        });
      });
      return;
    }
    console.warn(`[e2e] 跳过 ${name}: 没有找到 ${CHROMIUM}（apt-get install chromium fonts-noto-cjk）`);
    describe.skip(name, () => fn(() => ({}) as BrowserEnv));
    return;
  }
  let env: BrowserEnv | undefined;
  describe(name, () => {
    beforeAll(async () => {
      env = await open();
    });
    afterAll(async () => {
      await env?.browser.close();
      await env?.server.close();
    });
    fn(() => env!);
  });
}

/**
 * A browser suite: one fresh server (own database) and one Chromium per file, a logged-in API
 * client and a page with the session cookie.
 */
export function describeBrowser(
  name: string,
  fn: (env: () => BrowserEnv) => void,
  overrides: Partial<Config> = {},
): void {
  describeWithChromium(
    name,
    async () => {
      const server = await startServer(overrides);
      const browser = await launchBrowser();
      const context = await newContext(browser);
      const api = new Api(server.url);
      await api.login();
      await loginWithCookie(context, api);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { server, browser, context, page, api };
    },
    fn,
  );
}
