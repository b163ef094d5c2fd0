/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { openDatabase, type DbHandle } from '../apps/server/src/db/index.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedIfEmpty } from '../apps/server/src/ops/seed/index.ts';
import { scratchDir } from '../apps/server/test/scratch.ts';

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
  const dir = scratchDir('studio-e2e-');
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

/**
 * A staff account signed in over HTTP (`api`) and in a browser context of its own (`page`, waits of
 * 15 s), for a screen another role than the admin works on.
 */
export async function staffPage(
  browser: Browser,
  base: string,
  account: { account: string; password: string },
): Promise<{ api: Api; context: BrowserContext; page: Page }> {
  const api = new Api(base);
  await api.login(account.account, account.password);
  const context = await newContext(browser);
  await loginWithCookie(context, api);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { api, context, page };
}

/** A phone held in one hand: 390x844, touch, the store's time zone (the members' page). */
export async function phoneContext(browser: Browser, o: { timezoneId?: string } = {}): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: o.timezoneId ?? 'Asia/Shanghai',
    // The members' page turns antd-mobile's animations off then (main.tsx): a screen is checked as
    // it settles, not with a toast or sheet half faded in.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return [context, page];
}

/**
 * A screenshot of what the person sees, for a human to look at, and the screen checked by axe-core
 * (WCAG 2.1 A and AA rules, plus a main landmark and a first-level heading): a violation fails the
 * test, naming the rule and the elements (`AXE=report` writes them to `e2e/artifacts/axe/<name>.json`
 * instead, to survey).
 */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  const problems = await accessibilityProblems(page);
  if (process.env.AXE === 'report') {
    fs.mkdirSync(path.join(ARTIFACTS, 'axe'), { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'axe', `${name}.json`), JSON.stringify(problems, null, 2));
  } else if (problems.length) {
    const lines = problems.map((p) => {
      const more = p.nodes.length > 8 ? [`… 另有 ${p.nodes.length - 8} 处`] : [];
      return `${p.impact} ${p.id} (${p.count}): ${p.help}\n    ${[...p.nodes.slice(0, 8), ...more].join('\n    ')}`;
    });
    throw new Error(`axe-core finds on screen "${name}" (${file}):\n${lines.join('\n')}`);
  }
  return file;
}

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  count: number;
  /** Each element: its selector, the start of its HTML and what is wrong. */
  nodes: string[];
}

const AXE_SOURCE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Rules axe-core rates moderate that every screen must pass all the same: one `<main>` and one
 * `<h1>` (a screen reader's way to the content and to the screen's name).
 */
const ALSO_REQUIRED = ['landmark-one-main', 'page-has-heading-one'];

/**
 * Violations accepted, each exactly a rule on the elements a selector names (and their insides),
 * because the markup is a third party's that this project does not serve or cannot change. Keep
 * the list short: fix the screen instead wherever the project owns the markup.
 */
const ACCEPTED: { rule: string; selector: string; why: string }[] = [
  // Swagger UI (swagger-ui-dist, the developer API reference at /api/docs, not a screen of the back
  // office or the members' page): its own stylesheet and markup, served as they come by
  // apps/server/src/api-docs/routes.ts. A stylesheet of ours served after theirs could fix the colours.
  {
    rule: 'color-contrast',
    selector: '.swagger-ui',
    why: 'Swagger UI: white on its green POST badges (2.0:1), version stamps, links #4990e2, code colours',
  },
  {
    rule: 'nested-interactive',
    selector: '.swagger-ui .opblock-summary-control',
    why: "Swagger UI: an operation's summary button holds the copy and lock buttons",
  },
  { rule: 'select-name', selector: '.swagger-ui #servers', why: 'Swagger UI: the servers select has no label' },
  {
    rule: 'label',
    selector: '.swagger-ui .body-param__text',
    why: "Swagger UI: try-it-out's request body has no label",
  },
  {
    rule: 'scrollable-region-focusable',
    selector: '.swagger-ui .microlight',
    why: 'Swagger UI: a wide example response scrolls sideways without a keyboard stop',
  },
  // antd's Select (@rc-component/select) points aria-activedescendant at `<id>_list_-1`, an option
  // that does not exist, while open with no option active (every card disabled in a booking form).
  {
    rule: 'aria-valid-attr-value',
    selector: '.ant-select-input[aria-activedescendant$="_list_-1"]',
    why: 'antd Select: aria-activedescendant names option -1 when none is active',
  },
];

/** The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it stands. */
export async function accessibilityProblems(page: Page): Promise<AxeProblem[]> {
  // Evaluated through the debugger protocol: the page's Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ required, accepted }) => {
      type Result = {
        violations: {
          id: string;
          impact: string | null;
          help: string;
          nodes: { target: unknown[]; html: string; failureSummary?: string }[];
        }[];
      };
      const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<Result> } }).axe;
      const r = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        rules: Object.fromEntries(required.map((id) => [id, { enabled: true }])),
        resultTypes: ['violations'],
      });
      // (an element inside a frame or a shadow root has a longer target: not looked up)
      const elementOf = (target: unknown[]) => (target.length === 1 ? document.querySelector(String(target[0])) : null);
      const isAccepted = (rule: string, target: unknown[]) =>
        accepted.some((a) => a.rule === rule && elementOf(target)?.closest(a.selector));
      /** Where an element is: the nearest test id, dialog, drawer or card title around it. */
      const whereIs = (target: unknown[]) => {
        const el = elementOf(target);
        const box = el?.closest('[data-testid], .ant-modal-content, .ant-drawer-content, .ant-card');
        if (!box) return '';
        const id = box.getAttribute('data-testid');
        const title = box.querySelector('.ant-modal-title, .ant-drawer-title, .ant-card-head-title')?.textContent;
        return ` (in ${id ? `[data-testid=${id}]` : `「${(title ?? '').slice(0, 20)}」`})`;
      };
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical' || required.includes(v.id))
        .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !isAccepted(v.id, n.target)) }))
        .filter((v) => v.nodes.length > 0)
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          help: v.help,
          count: v.nodes.length,
          nodes: v.nodes.map((n) => {
            const html = n.html.replace(/\s+/g, ' ').slice(0, 90);
            const why = (n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim();
            return `${n.target.join(' ')}${whereIs(n.target)} ${html} — ${why}`;
          }),
        }));
    },
    { required: ALSO_REQUIRED, accepted: ACCEPTED },
  );
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
