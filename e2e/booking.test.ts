import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

describeBrowser('booking', (env) => {
  it('books a member, shows seats and balance, cancels with a refund', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '约');
    const tid = await addSession(api, f, addDays(mondayOf(1), 2), '18:00');

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('session-seats').getByText('0/12').waitFor();
    expect(await drawer.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['待签到', '已预约', '候补', '预约记录']);

    await drawer.getByRole('button', { name: '预约会员' }).click();
    const m = modal(page, '预约会员');
    await m.getByRole('button', { name: '确认预约' }).click();
    await m.getByText('请选择会员').waitFor();
    await m.getByText('请补全').waitFor();
    await shot(page, 'modal-booking-validation');

    await pick(page, field(m, '会员'), f.memberName, f.memberName);
    await pick(page, field(m, '会员卡'), '十次卡约');
    const count = field(m, '上课人数').locator('input');
    await count.fill('2');
    await m.getByTestId('total-charge').getByText('2 次').waitFor();
    await shot(page, 'modal-booking-filled');
    await m.getByRole('button', { name: '确认预约' }).click();
    await toast(page, '预约成功');
    await drawer.getByTestId('session-seats').getByText('2/12').waitFor();
    const row = drawer.getByTestId('booked-table').locator('tr', { hasText: f.memberName });
    await row.waitFor();

    await row.getByText(f.memberName).click();
    const member = page.locator('.ant-drawer', { hasText: '会员详情' });
    await member.locator('.card-balance', { hasText: /^余额 8 次$/ }).waitFor();
    expect(await member.getByTestId('member-detail-link').getAttribute('href')).toBe(
      `/member/detail?member_id=${f.memberId}`,
    );
    expect(await member.getByTestId('member-detail-link').getAttribute('target')).toBe('_blank');
    await shot(page, 'member-drawer-after-booking');
    await member.locator('.ant-drawer-close').click();
    await member.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: '取消预约' }).click();
    const c = modal(page, '取消预约');
    await c.getByTestId('refund-notice').getByText('取消预约后，扣除的 2 次 将退回', { exact: false }).waitFor();
    await c.getByText('2 次', { exact: true }).waitFor();
    await shot(page, 'modal-cancel-booking');
    await c.getByRole('button', { name: '确认取消预约' }).click();
    await toast(page, '预约取消');
    await drawer.getByTestId('session-seats').getByText('0/12').waitFor();

    const info = await api.ok('query/member/info', { id: f.memberId });
    expect(info.cards[0].usedCount).toBe(0);
    await drawer.getByRole('tab', { name: '预约记录' }).click();
    const history = drawer.getByTestId('history-table');
    await history.getByText('管理员代约').waitFor();
    await history.getByText('管理员取消').waitFor();

    // 操作日志 of this class: the log opens filtered to it (asked with the class), a tag to clear.
    const filtered = page.waitForResponse(
      (r) => r.url().endsWith('/query/audit/log') && (r.request().postData() ?? '').includes(`"tid":${tid}`),
    );
    await drawer.getByRole('link', { name: /操作日志/ }).click();
    await page.waitForURL(`**/audit/log?session=${tid}`);
    const shown = (await (await filtered).json()) as { data: { list: { summary: string }[] } };
    expect(shown.data.list.length).toBeGreaterThan(0);
    const rows = page.getByTestId('audit-table').locator('.ant-table-row');
    await expect.poll(() => rows.count()).toBe(Math.min(shown.data.list.length, 20));
    await page.getByText('只看这节课的记录').waitFor();
  });

  it('shows the server message when the class fills while the form is open; then says 已满 before any form', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '满');
    const tid = await addSession(api, f, addDays(mondayOf(1), 3), '18:00', { count: 1 });
    const other = await api.ok('insert/member', {
      name: `占座会员${tid}`,
      mobile: `137${String(tid).padStart(8, '0')}`,
    });
    const card = await api.ok('insert/member/card', {
      mid: other.id,
      cardId: f.productId,
      totalCount: 5,
      expireTime: null,
    });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '预约会员' }).click();
    const m = modal(page, '预约会员');
    await pick(page, field(m, '会员'), f.memberName, f.memberName);
    await pick(page, field(m, '会员卡'), '十次卡满');
    await field(m, '上课人数').locator('input').fill('1');
    // Another desk takes the only seat meanwhile, so the one refusal that fits is "full" (not "booked twice").
    await api.ok('add/member/reservation', { mcId: card.id, tid, studentCount: 1 });
    await m.getByRole('button', { name: '确认预约' }).click();
    // One wait for the error toast with the server's words: a toast lives three seconds, so
    // finding "some error toast" first and reading its text afterwards could miss it on a slow run.
    await page.locator('.ant-message-error', { hasText: Msg.sessionFull }).waitFor();
    await m.waitFor();
    await m.getByRole('button', { name: /取\s*消/ }).click();
    // Now full: the drawer says so where the booking button was, before any form.
    await page.reload();
    const full = drawer.getByTestId('book-full');
    await full.getByText('已满 1/1').waitFor();
    expect(await full.isDisabled()).toBe(true);
    expect(await drawer.getByRole('button', { name: '预约会员' }).count()).toBe(0);
  });
});
