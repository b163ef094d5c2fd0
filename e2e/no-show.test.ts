import { expect, it } from 'vitest';
import { runNoShows } from '../apps/server/src/features/no-show/public.ts';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { toast } from './ui.ts';

describeBrowser('爽约: the policy charges a pending not signed in, the desk sees it and waives it', (env) => {
  it('sets the no-show rule, shows the charged no-show in the drawers and waives it with a reason', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '爽');
    await page.goto(`${server.url}/course_setting/course_setting`);
    const card = page.getByTestId('policy-card');
    await card.getByText('按一次上课扣除会员卡').click();
    await card.getByLabel('30天内爽约次数').fill('3');
    await card.getByLabel('暂停在线预约天数').fill('7');
    await page.getByRole('button', { name: '保 存', exact: true }).click();
    await toast(page, '操作成功');
    expect(await api.ok('query/booking/policy', {})).toMatchObject({
      noShow: 'forfeit',
      noShowLimit: 3,
      noShowSuspendDays: 7,
    });

    await api.ok('update/module/status', { moduleId: 6, status: 1 });
    try {
      const date = addDays(mondayOf(3), 1);
      const tid = await addSession(api, f, date, '09:00');
      await api.ok('add/member/group/pending', { mid: f.memberId, tid, studentCount: 1 });
      // The job runs after the class (its clock set past the end): the pending is charged once.
      expect(await runNoShows(server.database.db, 'sqlite', () => `${date} 12:00:00`)).toBe(1);

      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      const row = drawer.getByTestId('pending-table').locator('tr', { hasText: f.memberName });
      await row.getByText('爽约').waitFor();
      await drawer.getByRole('tab', { name: '预约记录' }).click();
      await drawer.getByTestId('history-table').getByText('爽约').first().waitFor();
      await drawer.getByRole('tab', { name: '待签到' }).click();
      await row.getByText(f.memberName).click();
      const member = page.locator('.ant-drawer', { hasText: '会员详情' });
      const noShows = member.getByTestId('member-no-shows');
      await noShows.getByText('1 次').waitFor();
      await member.locator('.card-balance', { hasText: /^余额 9 次$/ }).waitFor();
      await noShows.getByRole('button', { name: '免除扣费' }).click();
      const confirm = page.locator('.ant-modal-confirm', { hasText: '免除爽约扣费' });
      await confirm.getByRole('button', { name: '免 除' }).click();
      await toast(page, '请填写免除原因');
      await confirm.getByPlaceholder('免除原因（必填）').fill('会员生病，提前告知');
      await shot(page, 'no-show-waive');
      await confirm.getByRole('button', { name: '免 除' }).click();
      await toast(page, '已免除扣费');
      await noShows.getByText('已免除').waitFor();
      await member.locator('.card-balance', { hasText: /^余额 10 次$/ }).waitFor();
      await shot(page, 'no-show-waived');
    } finally {
      await api.ok('update/module/status', { moduleId: 6, status: 0 });
      await api.ok('update/booking/policy', { noShow: 'none', noShowLimit: 0, noShowSuspendDays: 0 });
    }
  });
});
