import { allCalls, Msg, teacherList } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeBrowser, newContext, shot } from './harness.ts';

describeBrowser('API reference', (env) => {
  it('refuses an anonymous visitor', async () => {
    const context = await newContext(env().browser);
    const page = await context.newPage();
    const res = await page.goto(`${env().server.url}/api/docs`);
    expect(res?.status()).toBe(401);
    await page.getByText(Msg.notLoggedIn).waitFor();
    await context.close();
  });

  it('lists every call for logged-in staff, with messages, and runs one under the CSP', async () => {
    const { page, server } = env();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/api/docs`);
    // Swagger UI parses the 1.7 MB bundle and the whole document before its first paint: on a
    // loaded 2-core machine that took up to 25 s, so the first wait is longer than the default.
    await page.locator('.info .title', { hasText: '团课工作室后台 API' }).waitFor({ timeout: 60_000 });
    await page.locator('.opblock-tag', { hasText: '课程表与预约' }).waitFor();
    // every call of the contract is listed: each group opened in turn shows its calls
    const tags = page.locator('.opblock-tag');
    const listed = new Set<string>();
    for (let i = 0; i < (await tags.count()); i++) {
      await tags.nth(i).click();
      const paths = page.locator('.opblock-summary-path');
      await paths.first().waitFor();
      for (const p of await paths.evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? '')))
        listed.add(p);
      await tags.nth(i).click();
      await expect.poll(() => paths.count()).toBe(0);
    }
    expect([...listed].sort()).toEqual(allCalls.map((c) => c.path).sort());
    await page.locator('.opblock-tag', { hasText: '课程表与预约' }).click();
    await page.locator('.opblock-tag', { hasText: '员工登录' }).click();
    await page.locator('.opblock-tag', { hasText: '批量操作' }).click();
    for (const path of ['/store/api/add/member/reservation', '/api/auth/login', '/store/api/batch/arrange/course']) {
      await page.locator(`.opblock-summary-path[data-path="${path}"]`).waitFor();
    }
    await shot(page, 'api-docs');

    // one call opened: its example request and the Chinese messages of its errors
    const booking = page.locator('.opblock', { has: page.locator('[data-path="/store/api/add/member/reservation"]') });
    await booking.locator('.opblock-summary').click();
    await booking.getByText('用会员卡预约（预约即扣费模式）').first().waitFor();
    await booking.locator('.response-col_status', { hasText: '409' }).waitFor();
    await booking.getByText(Msg.sessionFull).first().waitFor();
    await booking.locator('.body-param__example, .highlight-code', { hasText: '"mcId"' }).first().waitFor();
    await booking.getByText(Msg.sessionFull).first().scrollIntoViewIfNeeded();
    await shot(page, 'api-docs-booking');

    // try it out: the page calls the API with the staff cookie, through the app's CSP
    await page.locator('.opblock-tag', { hasText: /^老师/ }).click();
    const teachers = page.locator('.opblock', { has: page.locator(`[data-path="${teacherList.path}"]`) });
    await teachers.locator('.opblock-summary').click();
    await teachers.getByRole('button', { name: 'Try it out' }).click();
    await teachers.getByRole('button', { name: 'Execute' }).click();
    const live = teachers.locator('.live-responses-table');
    await live.locator('.response-col_status', { hasText: '200' }).waitFor();
    await live.getByText('"code": 0').waitFor();
    await live.scrollIntoViewIfNeeded();
    await shot(page, 'api-docs-try');
    expect(problems).toEqual([]);
  });
});
