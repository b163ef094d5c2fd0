import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

describeBrowser('预约规则 on 预约设置', (env) => {
  it('edits the booking window and the cancel rule, validating before it saves', async () => {
    const { page, api, server } = env();
    await page.goto(`${server.url}/course_setting/course_setting`);
    const card = page.getByTestId('policy-card');
    const open = card.getByLabel('开课前天开放预约');
    await open.waitFor();
    // An empty field is refused on the page with the server's own message.
    await open.fill('');
    await page.getByRole('button', { name: '保 存', exact: true }).click();
    await card.getByText('请填写不小于0的整数天数').waitFor();
    expect((await api.ok('query/booking/policy', {})).openDaysBefore).toBe(0);

    await open.fill('7');
    await card.getByLabel('开课前分钟停止预约').fill('30');
    await card.getByLabel('开课前分钟之前可免费取消').fill('120');
    await card.getByText('允许取消，但不退回扣费').click();
    await shot(page, 'policy');
    await page.getByRole('button', { name: '保 存', exact: true }).click();
    await page.locator('.ant-message-notice', { hasText: '操作成功' }).waitFor();
    expect(await api.ok('query/booking/policy', {})).toMatchObject({
      openDaysBefore: 7,
      closeMinutesBefore: 30,
      cancelMinutesBefore: 120,
      lateCancel: 'forfeit',
      waitlist: 0,
    });
    // Shown as saved after a reload.
    await page.reload();
    expect(await page.getByTestId('policy-card').getByLabel('开课前天开放预约').inputValue()).toBe('7');

    // A class three weeks out is not open to members yet: the desk books anyway, told so, and the
    // history marks the override.
    const f = await makeFixture(api, '规');
    const tid = await addSession(api, f, addDays(mondayOf(3), 2), '10:00');
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '预约会员' }).click();
    const m = modal(page, '预约会员');
    await m.getByTestId('override-notice').getByText('该课程开课前7天开放预约').waitFor();
    await pick(page, field(m, '会员'), f.memberName, f.memberName);
    await pick(page, field(m, '会员卡'), '十次卡规');
    await shot(page, 'policy-override-booking');
    await m.getByRole('button', { name: '确认预约' }).click();
    await toast(page, '预约成功');
    await drawer.getByRole('tab', { name: '预约记录' }).click();
    await drawer.getByTestId('history-table').getByText('越过规则').waitFor();
    await api.ok('update/booking/policy', { openDaysBefore: 0, closeMinutesBefore: 0, cancelMinutesBefore: 0 });
  });
});
