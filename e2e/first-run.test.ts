import { expect, it } from 'vitest';
import { describeEmptyBrowser } from './harness-empty.ts';
import { shot } from './harness.ts';
import { addDays, mondayOf } from './seed.ts';
import { confirmBulk, field, modal, pick, pickTree, toast, typeInto } from './ui.ts';

const OWNER = { username: 'owner', password: 'owner-pass-1' };

describeEmptyBrowser('first run', (env) => {
  it('sets up an empty product through the UI and runs the weekly template for two weeks', async () => {
    const { page, server, api } = env();
    const base = server.url;
    const nextMonday = mondayOf(1);

    // ---- first run: /login sends to /setup; create the store and its admin
    await page.goto(`${base}/login`);
    await page.waitForURL('**/setup');
    await page.getByRole('button', { name: '创建门店并登录' }).click();
    await page.getByText('请输入门店名称').waitFor();
    await page.getByText('请输入管理员姓名').waitFor();
    await page.getByLabel('门店名称').fill('晨光瑜伽馆');
    await page.getByLabel('账号').fill(OWNER.username);
    await page.getByLabel('姓名').fill('林店长');
    await page.getByLabel('手机号').fill('13700000001');
    await page.getByLabel('密码', { exact: true }).fill('short');
    await page.getByLabel('确认密码').fill('other');
    await page.getByText('密码至少8位').waitFor();
    await page.getByText('两次输入的密码不一致').waitFor();
    await page.getByLabel('密码', { exact: true }).fill(OWNER.password);
    await page.getByLabel('确认密码').fill(OWNER.password);
    await shot(page, 'first-run-setup');
    await page.getByRole('button', { name: '创建门店并登录' }).click();
    await page.waitForURL('**/course/calendar');
    await page.locator('.fc').waitFor();
    await page.getByTestId('store-name').getByText('晨光瑜伽馆').waitFor();
    await api.login(OWNER.username, OWNER.password);
    expect((await api.call('/api/setup/status')).data).toEqual({ needsSetup: false });

    // ---- a venue
    await page.getByRole('menuitem', { name: '场地', exact: true }).click();
    await page.waitForURL('**/venue/list');
    await page.getByRole('button', { name: '添加场地' }).click();
    let m = modal(page, '添加场地');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入场地名称').waitFor();
    await m.getByLabel('场地名称').fill('一号教室');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: '一号教室' }).waitFor();
    await shot(page, 'first-run-venue');

    // ---- a teacher with a fixed online room
    await page.getByRole('menuitem', { name: '老师', exact: true }).click();
    await page.waitForURL('**/teacher/list');
    await page.getByRole('button', { name: '添加老师' }).click();
    m = modal(page, '添加老师');
    await m.getByLabel('姓名').fill('周老师');
    await pick(page, field(m, '在线教室类型'), '腾讯会议');
    await m.getByLabel('会议号').fill('123 456 789');
    await m.getByLabel('入会链接').fill('https://meet.example.com/zhou');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: '周老师' }).waitFor();
    await shot(page, 'first-run-teacher');

    // ---- a card product (count card, 1 per class)
    await page.getByRole('menuitem', { name: '会员卡', exact: true }).click();
    await page.waitForURL('**/card/list');
    await page.getByRole('button', { name: '添加卡种' }).click();
    m = modal(page, '添加卡种');
    await m.getByLabel('卡种名称').fill('十次卡');
    await m.getByLabel('价格').fill('800');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const productRow = page.locator('.ant-table-row', { hasText: '十次卡' });
    await productRow.getByText('800.00 元').waitFor();
    await productRow.getByText('1 次').waitFor();
    await shot(page, 'first-run-card-product');

    // ---- a course allowing the card product
    await page.getByRole('menuitem', { name: '课程', exact: true }).click();
    await page.waitForURL('**/course/list');
    await page.getByRole('button', { name: '添加课程' }).click();
    await page.waitForURL('**/course/edit/0');
    const courseForm = page.locator('form');
    await courseForm.getByLabel('课程名称').fill('流瑜伽');
    await courseForm.getByLabel('默认上课人数').fill('10');
    await pick(page, field(courseForm, '可预约的卡种'), '十次卡');
    await page.keyboard.press('Escape');
    await shot(page, 'first-run-course-edit');
    await page.getByRole('button', { name: '保 存' }).click();
    await toast(page, '课程信息保存成功');
    await page.waitForURL('**/course/list');
    const courseRow = page.locator('.ant-table-row', { hasText: '流瑜伽' });
    await courseRow.getByText('十次卡').waitFor();
    await shot(page, 'first-run-course-list');

    // ---- a member
    await page.getByRole('menuitem', { name: '会员', exact: true }).click();
    await page.waitForURL('**/member/list');
    await page.getByRole('button', { name: '添加会员' }).click();
    m = modal(page, '添加会员');
    await m.getByLabel('姓名').fill('陈小雨');
    await m.getByLabel('手机号').fill('13912345678');
    await m.getByText('女', { exact: true }).click();
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: '陈小雨' }).waitFor();
    await shot(page, 'first-run-member');

    // ---- issue the member a card of 10
    await page.getByRole('menuitem', { name: '会员卡', exact: true }).click();
    await page.getByRole('tab', { name: '会员卡' }).click();
    await page.getByRole('button', { name: /^plus 发\s*卡$/ }).click();
    m = modal(page, '发卡');
    await pick(page, field(m, '会员'), '陈小雨', '陈小雨');
    await pick(page, field(m, '卡种'), '十次卡');
    await m.getByLabel('卡内次数').fill('10');
    // The product's price is offered as the money received; the desk says how it was paid.
    expect(await m.getByLabel('收款金额').inputValue()).toBe('800.00');
    await m.getByText('现金', { exact: true }).click();
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');
    const cardRow = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: '十次卡' });
    await cardRow.locator('.card-balance', { hasText: /^10 次$/ }).waitFor();
    await shot(page, 'first-run-member-card');

    // ---- a one-row weekly template (Monday 18:00) with the member as fixed student
    await page.getByRole('menuitem', { name: '周固定课表', exact: true }).click();
    await page.waitForURL('**/course/fix_booking_timetable');
    await page.getByRole('button', { name: '周一添加课程' }).click();
    m = modal(page, '添加固定课');
    await typeInto(page, field(m, '上课时间').locator('input'), '18:00');
    await pick(page, field(m, '课程'), '流瑜伽');
    await pick(page, field(m, '上课老师'), '周老师');
    await pickTree(page, field(m, '场地'), '一号教室');
    expect(await field(m, '上课人数').locator('input').inputValue()).toBe('10');
    await m.getByRole('button', { name: '添加固定学员' }).click();
    const student = m.getByTestId('fix-student-row').first();
    await pick(page, student.locator('.ant-form-item').nth(0), '陈小雨', '陈小雨');
    await pick(page, student.locator('.ant-form-item').nth(1), '十次卡');
    await shot(page, 'first-run-template-row');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const templateRow = page.locator('.fix-day[data-weekday="1"]').getByTestId('fix-row');
    await templateRow.getByText('流瑜伽').waitFor();
    await templateRow.getByText('陈小雨').waitFor();
    await templateRow.getByText('固定学员 1/10').waitFor();
    await shot(page, 'first-run-template');

    // ---- weekly-template scheduling: 2 weeks from next Monday
    await page.getByRole('button', { name: '周课表排课' }).click();
    m = modal(page, '周课表排课');
    await typeInto(page, field(m, '开课日期').locator('input'), nextMonday);
    await field(m, '循环周数').locator('input').fill('2');
    await shot(page, 'first-run-week-arrange');
    await m.getByRole('button', { name: '开始排课' }).click();
    expect(await confirmBulk(page, '排课')).toContain('将新增 2 节课');
    await toast(page, '周固定课表排课成功');
    await m.waitFor({ state: 'hidden' });

    // ---- the calendar: next week and the week after each hold the session with the member booked
    await page.getByRole('menuitem', { name: '课程表', exact: true }).click();
    await page.locator('.fc-timeGridWeek-view').waitFor();
    const dates = [nextMonday, addDays(nextMonday, 7)];
    for (const [i, date] of dates.entries()) {
      await page.locator('.fc-next-button').click();
      await page.locator(`.fc-col-header-cell[data-date="${date}"]`).waitFor();
      const event = page.locator('.session-event', { hasText: '流瑜伽' });
      await event.waitFor();
      expect(await page.locator('.session-event').count()).toBe(1);
      expect(await event.innerText()).toContain('1/10');
      await event.scrollIntoViewIfNeeded();
      await shot(page, `first-run-calendar-week-${i + 1}`);
      await event.click();
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByText(`${date} 18:00`).first().waitFor();
      const booked = drawer.getByTestId('booked-table').locator('tr', { hasText: '陈小雨' });
      await booked.waitFor();
      await shot(page, `first-run-session-${i + 1}`);
      if (i === dates.length - 1) {
        await booked.getByText('陈小雨').click();
        const member = page.locator('.ant-drawer', { hasText: '会员详情' });
        // two sessions of 1 each from a card of 10
        await member.locator('.card-balance', { hasText: /^余额 8 次$/ }).waitFor();
        await shot(page, 'first-run-member-drawer');
        await member.locator('.ant-drawer-close').click();
        await member.waitFor({ state: 'hidden' });
      }
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });
    }

    // ---- the member detail page: balance and both upcoming sessions
    const members = await api.ok<{ list: { id: number }[] }>('query/member/list', { param: '陈小雨' });
    await page.goto(`${base}/member/detail?member_id=${members.list[0].id}`);
    await page
      .getByTestId('member-card-table')
      .locator('.card-balance', { hasText: /^8 次$/ })
      .waitFor();
    const upcoming = page.getByTestId('upcoming-table');
    await upcoming.getByText(`${dates[0]} 18:00`).waitFor();
    await upcoming.getByText(`${dates[1]} 18:00`).waitFor();
    await shot(page, 'first-run-member-detail');
  });
});
