import { expect, it } from 'vitest';
import { describeBrowser, loginThroughPage, newContext, shot } from './harness.ts';

describeBrowser('login', (env) => {
  it('paints the login form at once: by the time the network is idle the form is there, no spinner', async () => {
    const context = await newContext(env().browser);
    const page = await context.newPage();
    await page.goto(`${env().server.url}/login`, { waitUntil: 'networkidle' });
    // No waiting here: what a person sees at that moment.
    expect(await page.locator('.ant-spin').count()).toBe(0);
    expect(await page.getByPlaceholder('账号 / 手机号').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /登\s*录/ }).isVisible()).toBe(true);
    await context.close();
  });

  it('sends an anonymous visitor to the login page and back to the calendar after login', async () => {
    const context = await newContext(env().browser);
    const page = await context.newPage();
    await page.goto(`${env().server.url}/course/calendar`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(page.url())).toContain('redirect=/course/calendar');

    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText('请输入账号').waitFor();
    await page.getByText('请输入密码').waitFor();
    await shot(page, 'login-validation');

    await page.getByPlaceholder('账号 / 手机号').fill('admin');
    await page.getByPlaceholder('密码').fill('wrong-password');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByRole('alert').getByText('账号或密码错误').waitFor();

    await loginThroughPage(page, env().server.url);
    // the refusal does not follow into the app; no page margin or scroll bar around the layout
    expect(await page.getByText('账号或密码错误').count()).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    expect(page.url()).toMatch(/\/course\/calendar$/);
    await page.getByTestId('store-name').getByText('悦动健身工作室').waitFor();
    await page.getByRole('menuitem', { name: '课程表' }).waitFor();
    await page.locator('.fc-timeGridWeek-view').waitFor();
    await shot(page, 'calendar-after-login');

    // a session that ends while working: the next call sends to login and back
    await page.goto(`${env().server.url}/course/calendar?date=2026-01-05`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    await context.clearCookies();
    await page.locator('.fc-next-button').click();
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(page.url())).toContain('redirect=/course/calendar?date=2026-01-05');
    await loginThroughPage(page, env().server.url, /\/course\/calendar\?date=2026-01-05/);

    await page.getByRole('button', { name: /退出登录/ }).click();
    await page.waitForURL(/\/login/);
    await context.close();
  });
});
