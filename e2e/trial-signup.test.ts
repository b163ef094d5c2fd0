// 体验课报名 on a phone (issue 44, items 1 and 5): a stranger opens the store's sign-up page without
// signing in, the form says in Chinese what is missing, the sign-up ends in a thank-you and the
// lead is the staff's (线上报名); a member shows their 推荐好友 QR, a friend signs up through its
// link and the staff see a 转介绍 lead naming the member.
import { expect, it } from 'vitest';
import { TrialMsg } from '@studio/contract';
import { describeBrowser, phoneContext, shot, type BrowserEnv } from './harness.ts';
import { makeFixture, signInNewMember } from './seed.ts';

interface Lead {
  name: string;
  mobile: string;
  source: string;
  interests: string | null;
  preferredTimes: string | null;
  referrerName: string | null;
  memberId: number | null;
}

const phone = (env: BrowserEnv) => phoneContext(env.browser);
const newMobile = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describeBrowser('体验课报名 on a phone', (env) => {
  const leadOf = async (mobile: string) => {
    const page = await env().api.ok<{ list: Lead[] }>('query/lead/list', { scope: 'all', param: mobile, page: 1 });
    return page.list.find((l) => l.mobile === mobile);
  };

  it('a stranger signs up for a trial: checked in Chinese, then thanked; the staff see a 线上报名 lead', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '体');
    // the manager's store settings show the page's link and QR code (for flyers and WeChat groups)
    const desk = env().page;
    await desk.goto(`${server.url}/settings/store`);
    await desk.getByTestId('trial-page-qr').waitFor();
    const link = (await desk.getByTestId('trial-page-url').textContent())!.trim();
    expect(link).toBe(`${server.url}/m/?store=${storeId}&trial=1`);
    await shot(desk, 'trial-page-settings');
    const [context, page] = await phone(env());
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: '免费体验课报名' }).waitFor();
      await shot(page, 'trial-signup-form');
      // nothing filled: each field says what it needs, nothing is sent
      await page.getByTestId('trial-submit').tap();
      await page.getByTestId('err-name').getByText(TrialMsg.name).waitFor();
      await page.getByTestId('err-mobile').getByText('请输入正确的11位手机号').waitFor();
      await page.getByTestId('err-interests').getByText(TrialMsg.interest).waitFor();
      await shot(page, 'trial-signup-errors');

      const mobile = newMobile();
      await page.getByTestId('trial-name').locator('input').fill('陌生的林小姐');
      await page.getByTestId('trial-mobile').locator('input').fill(mobile);
      await page.getByText(f.courseName, { exact: true }).tap();
      await page.getByText('周末上午', { exact: true }).tap();
      await page.getByTestId('trial-submit').tap();
      await page.getByTestId('trial-thanks').getByText('报名成功', { exact: true }).waitFor();
      await shot(page, 'trial-signup-thanks');
      expect(await leadOf(mobile)).toMatchObject({
        name: '陌生的林小姐',
        source: '线上报名',
        interests: f.courseName,
        preferredTimes: '周末上午',
        referrerName: null,
        memberId: null,
      });
    } finally {
      await context.close();
    }
  });

  it("a member's 推荐好友 QR: the friend signs up through its link, the staff see 转介绍 naming the member", async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const [memberContext, memberPage] = await phone(env());
    let link: string;
    try {
      await signInNewMember(memberPage, api, server.url, storeId, '推荐人周女士');
      await memberPage.getByText('我的', { exact: true }).tap();
      const referral = memberPage.getByTestId('referral');
      await referral.getByRole('heading', { name: '推荐好友' }).waitFor();
      const qr = referral.getByRole('img', { name: '我的推荐二维码' });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      link = (await referral.getByTestId('referral-link').textContent())!.trim();
      expect(link).toMatch(new RegExp(`/m/\\?store=${storeId}&trial=1&ref=[A-Za-z0-9_-]{22}$`));
      await shot(memberPage, 'trial-referral-qr');
    } finally {
      await memberContext.close();
    }

    const [friendContext, friendPage] = await phone(env());
    try {
      await friendPage.goto(link);
      await friendPage.getByRole('heading', { name: '免费体验课报名' }).waitFor();
      const mobile = newMobile();
      await friendPage.getByTestId('trial-name').locator('input').fill('好友陈先生');
      await friendPage.getByTestId('trial-mobile').locator('input').fill(mobile);
      await friendPage.getByTestId('trial-other').locator('input').fill('普拉提');
      await friendPage.getByTestId('trial-submit').tap();
      await friendPage.getByTestId('trial-thanks').getByText('报名成功', { exact: true }).waitFor();
      await shot(friendPage, 'trial-referral-thanks');
      expect(await leadOf(mobile)).toMatchObject({
        name: '好友陈先生',
        source: '转介绍',
        interests: '普拉提',
        referrerName: '推荐人周女士',
      });
    } finally {
      await friendContext.close();
    }
    // The staff's 潜客 list and the lead's drawer name the member who referred them.
    const desk = env().page;
    await desk.goto(`${server.url}/lead/list`);
    const row = desk.getByRole('row').filter({ hasText: '好友陈先生' });
    await row.waitFor();
    expect(await row.innerText()).toContain('转介绍（推荐人：推荐人周女士）');
    await row.getByText('好友陈先生').click();
    const fields = desk.getByTestId('lead-fields');
    await fields.waitFor();
    expect(await fields.innerText()).toContain('转介绍（推荐人：推荐人周女士）');
    await shot(desk, 'trial-referral-lead');
  });
});
