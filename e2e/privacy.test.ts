// 个人信息 (issue 45, item 5) on a phone: a member signed in for the first time reads the privacy
// notice and agrees, turns marketing messages on, looks at what the store holds about them and
// downloads it as Excel, asks to delete the account; the manager sees the request under 会员 → 删除申请
// and approves it; the member is then signed out and their name is gone from the staff's list.
import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { signInNewMember } from './seed.ts';

describeBrowser('members’ own data (个人信息)', (env) => {
  it('agree to the notice, see and download my data, ask to delete the account; the manager approves', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const name = `注销测试${Date.now() % 100000}`;
    const [context, page] = await phoneContext(env().browser);
    try {
      const { memberId } = await signInNewMember(page, api, server.url, storeId, name);
      // The notice until agreed.
      const notice = page.getByTestId('privacy-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('个人信息保护说明');
      await shot(page, 'privacy-notice');
      await notice.getByRole('button', { name: '我已阅读并同意' }).tap();
      await notice.waitFor({ state: 'hidden' });
      await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });

      // 我的 → 个人信息: marketing on.
      await page.getByText('我的', { exact: true }).tap();
      const mine = page.getByTestId('my-privacy');
      await mine.waitFor();
      const marketing = page.getByTestId('consent-marketing');
      expect(await marketing.getAttribute('aria-checked')).toBe('false');
      await marketing.tap();
      await expect.poll(() => marketing.getAttribute('aria-checked')).toBe('true');
      await mine.getByText('同意「接收营销消息（活动、优惠）」').waitFor();
      await shot(page, 'privacy-mine');

      // What the store holds, and the workbook.
      await mine.getByText('查看和下载我的信息').tap();
      const data = page.getByTestId('my-data');
      await data.getByText('我的资料').waitFor();
      const consents = data.locator('.adm-list-item').filter({ hasText: '同意记录' });
      expect(await consents.innerText()).toContain('2 条');
      await shot(page, 'privacy-my-data');
      const [download] = await Promise.all([page.waitForEvent('download'), data.getByText('下载 Excel').tap()]);
      expect(download.suggestedFilename()).toMatch(/^我的信息-\d{8}\.xlsx$/);
      await data.getByRole('button', { name: '返回' }).tap();

      // Ask to delete the account.
      await mine.getByText('申请删除账号').tap();
      const dialog = page.locator('.adm-dialog');
      await dialog.locator('textarea').fill('搬家了');
      await dialog.getByRole('button', { name: '提交申请' }).tap();
      await mine.getByText('删除账号申请处理中').waitFor();
      await shot(page, 'privacy-erasure-asked');

      // The manager's list: the request, approved.
      const desk = env().page;
      await desk.goto(`${server.url}/member/erasure`);
      const table = desk.getByRole('table', { name: '删除账号申请' });
      const row = table.getByRole('row').filter({ hasText: name });
      await row.waitFor();
      expect(await row.innerText()).toContain('搬家了');
      await shot(desk, 'privacy-erasure-list');
      await row.getByRole('button', { name: '同意删除' }).click();
      await desk.locator('.ant-modal-confirm').getByRole('button', { name: '同意删除' }).click();
      await desk.getByText('已处理').first().waitFor();
      await row.waitFor({ state: 'detached' });
      await desk.getByText('已删除', { exact: true }).first().click();
      const done = table.getByRole('row').filter({ hasText: '已注销会员' });
      await done.first().waitFor();
      await shot(desk, 'privacy-erasure-done');
      const list = await api.ok<{ list: { id: number; name: string }[] }>('query/member/list', {
        page: 1,
        pageSize: 50,
        param: name,
      });
      expect(list.list.map((m) => m.id)).not.toContain(memberId);

      // The member is signed out.
      await page.reload();
      await page.getByRole('button', { name: '登录预约' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
