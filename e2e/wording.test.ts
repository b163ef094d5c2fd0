import { expect, it } from 'vitest';
import { describeBrowser, newContext, phoneContext, shot } from './harness.ts';

describeBrowser(
  'the words staff read: header, time zone, online rooms, one save, a disabled account, the icon',
  (env) => {
    it('names the staff member and role once, says 北京时间, names meeting services, has one 保存', async () => {
      const { page, server } = env();
      const missing: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 404) missing.push(r.url());
      });
      await page.goto(`${server.url}/settings/store`);
      // the demo manager is called 店长: said once, not 店长（店长）
      expect((await page.getByTestId('staff-name').innerText()).trim()).toBe('店长');
      const form = page.locator('.ant-form-item', { hasText: '时区' });
      await form.getByText('北京时间', { exact: true }).waitFor();
      expect(await page.getByText('Asia/Shanghai').count()).toBe(0);
      const online = page.getByTestId('online-setting');
      await online.getByText('Jitsi Meet（自建或公共服务器）').waitFor();
      for (const internal of ['课堂工具', '会议工具']) expect(await online.getByText(internal).count()).toBe(0);
      await shot(page, 'wording-store-settings');
      // the page's icon is there (no 404 on the load)
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
      const icon = await fetch(`${server.url}/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toContain('image/svg+xml');

      await page.goto(`${server.url}/course_setting/course_setting`);
      await page.getByTestId('policy-card').waitFor();
      expect(await page.getByRole('button', { name: /保\s*存/ }).count()).toBe(1);
      await shot(page, 'wording-booking-settings');
      expect(missing).toEqual([]);
    });

    it('the members page has the icon too', async () => {
      const { server, api } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      const [context, page] = await phoneContext(env().browser);
      try {
        const missing: string[] = [];
        page.on('response', (r) => {
          if (r.status() === 404) missing.push(r.url());
        });
        await page.goto(`${server.url}/m/?store=${storeId}`);
        await page.getByTestId('store-name').waitFor();
        expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
        expect(missing).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('a staff member disabled while logged in lands on the login page told why', async () => {
      const { browser, server, api } = env();
      const account = `off${Date.now() % 1_000_000}`;
      const fields = { name: '停用的前台', mobile: null, role: 'desk', teacherId: null };
      const { id } = await api.ok<{ id: number }>('insert/staff', { ...fields, account, password: 'desk-pass-2026' });
      const context = await newContext(browser);
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/login`);
        await page.getByPlaceholder('账号 / 手机号').fill(account);
        await page.getByPlaceholder('密码').fill('desk-pass-2026');
        await page.getByRole('button', { name: /登\s*录/ }).click();
        // A desk account lands on 今日.
        await page.waitForURL('**/today');
        await page.getByTestId('today-summary').waitFor();
        expect((await page.getByTestId('staff-name').innerText()).trim()).toBe('停用的前台 · 前台');

        await api.ok('update/staff', { id, ...fields, enabled: 0 });
        // the next screen opened asks the server, which says the account is disabled
        await page.getByRole('menuitem', { name: '会员', exact: true }).click();
        await page.waitForURL('**/login**');
        await page.getByRole('alert').getByText('该账号已停用，请联系店长').waitFor();
        await shot(page, 'wording-disabled-login');
      } finally {
        await context.close();
      }
    });
  },
);
