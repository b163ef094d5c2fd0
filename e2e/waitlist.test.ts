import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

describeBrowser('候补: the desk queues a member on a full class; a cancel promotes them', (env) => {
  it('turns the waitlist on, queues a member, shows 候补 1 on the calendar, and promotes on a cancel', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '候');
    // A second member with a card of the same product.
    const second = await api.ok<{ id: number }>('insert/member', {
      name: `候补乙${f.memberId}`,
      mobile: `137${String(f.memberId).padStart(8, '0')}`,
    });
    await api.ok('insert/member/card', { mid: second.id, cardId: f.productId, totalCount: 5, expireTime: null });
    const date = addDays(mondayOf(2), 3);
    const tid = await addSession(api, f, date, '19:00', { count: 1 });
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1, remark: '' });

    // 预约设置 → 预约规则: turn the waitlist on.
    await page.goto(`${server.url}/course_setting/course_setting`);
    const card = page.getByTestId('policy-card');
    await card.getByText('开启：课程满员后可排队候补', { exact: false }).click();
    await card.getByLabel('开课前分钟停止递补').fill('30');
    await page.getByRole('button', { name: '保 存', exact: true }).click();
    await toast(page, '操作成功');
    expect(await api.ok('query/booking/policy', {})).toMatchObject({ waitlist: 1, waitlistCutoffMinutes: 30 });

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('session-seats').getByText('1/1').waitFor();
    await drawer.getByRole('tab', { name: '候补' }).click();
    await drawer.getByText('暂无候补').waitFor();
    await drawer.getByTestId('add-wait').click();
    const m = modal(page, '加入候补');
    await pick(page, field(m, '会员'), `候补乙${f.memberId}`, `候补乙${f.memberId}`);
    await pick(page, field(m, '会员卡'), '十次卡候');
    await m.getByRole('button', { name: '加入候补' }).click();
    await toast(page, '已加入候补');
    const row = drawer.getByTestId('waitlist-table').locator('.ant-table-row', { hasText: `候补乙${f.memberId}` });
    await row.waitFor();
    expect(await row.locator('td').first().innerText()).toBe('1');
    await drawer.getByRole('tab', { name: '候补（1）' }).waitFor();
    await shot(page, 'waitlist-drawer');
    // The member drawer lists what they wait for, with their place.
    await row.getByText(`候补乙${f.memberId}`).click();
    const memberDrawer = page.locator('.ant-drawer', { hasText: '会员详情' });
    await memberDrawer.getByTestId('member-waits').getByText('第 1 位').waitFor();
    await memberDrawer.getByTestId('member-waits').getByText('候补中').waitFor();
    await memberDrawer.locator('.ant-drawer-close').click();
    await memberDrawer.waitFor({ state: 'hidden' });

    // The calendar's event says 候补 1.
    await page.goto(`${server.url}/course/calendar?date=${date}`);
    const event = page.locator(`.session-event[data-session-id="${tid}"]`);
    await event.waitFor();
    await event.getByText('候补 1').waitFor();

    // The member holding the seat cancels at the desk: the waiting member gets it, charged.
    await event.click();
    const d2 = page.locator('.ant-drawer', { hasText: '课程详情' });
    const booked = d2.getByTestId('booked-table').locator('tr', { hasText: f.memberName });
    await booked.getByRole('button', { name: '取消预约' }).click();
    await modal(page, '取消预约').getByRole('button', { name: '确认取消预约' }).click();
    await toast(page, '预约取消');
    await d2
      .getByTestId('booked-table')
      .locator('tr', { hasText: `候补乙${f.memberId}` })
      .waitFor();
    await d2.getByTestId('session-seats').getByText('1/1').waitFor();
    await d2.getByRole('tab', { name: '候补', exact: true }).click();
    await d2.getByText('暂无候补').waitFor();
    await shot(page, 'waitlist-promoted');
    const info = await api.ok<{ cards: { usedCount: number }[] }>('query/member/info', { id: second.id });
    expect(info.cards[0].usedCount).toBe(1);
    await api.ok('update/booking/policy', { waitlist: 0, waitlistCutoffMinutes: 0 });
  });
});
