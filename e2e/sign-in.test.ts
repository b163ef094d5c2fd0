import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addMemberWithCard, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

describeBrowser('sign-in mode', (env) => {
  it('in mode 1 books a pending, signs it in and shows the mode-1 tabs', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '签');
    const store = (await api.ok('/api/auth/me')).posts[0].storeId;
    await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 1 });
    const tid = await addSession(api, f, addDays(mondayOf(1), 4), '19:00');

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('session-header').waitFor();
    expect(await drawer.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['待签到', '已签到', '候补', '预约记录']);
    expect(await drawer.locator('.ant-tabs-tab-active').innerText()).toBe('待签到');
    await drawer.getByText('签到后扣费').first().waitFor();

    await drawer.getByRole('button', { name: '预约会员' }).click();
    const m = modal(page, '预约会员');
    await pick(page, field(m, '会员'), f.memberName, f.memberName);
    expect(await field(m, '上课人数').locator('input').isDisabled()).toBe(true);
    // the card is chosen now (kept on the pending, charged at sign-in)
    await m.getByRole('button', { name: '确认预约' }).click();
    await m.getByText('请补全').waitFor();
    await pick(page, field(m, '会员卡'), '十次卡签');
    await m.getByRole('button', { name: '确认预约' }).click();
    await toast(page, '预约成功');
    const pending = drawer.getByTestId('pending-table').locator('tr', { hasText: f.memberName });
    await pending.getByText('待签到').waitFor();
    await shot(page, 'drawer-pending');
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(0);

    await pending.getByRole('button', { name: '签到' }).click();
    const s = modal(page, '签到确认');
    // member, card, count and remark come from the pending (spec section 4)
    await field(s, '会员卡').getByText('十次卡签', { exact: false }).waitFor();
    await s.getByRole('button', { name: '确认签到' }).click();
    await toast(page, '操作成功');
    await pending.getByText('已签到').waitFor();
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(1);

    await drawer.getByRole('tab', { name: '已签到' }).click();
    await drawer.getByTestId('booked-table').getByText(f.memberName).waitFor();
    await shot(page, 'drawer-signed-in');

    // a second pending, cancelled with the spec's confirm text
    // (a member with a card this class takes: a pending needs one)
    const f2 = { memberName: `王会员签二${Date.now() % 100000}` };
    const m2 = await api.ok<{ id: number }>('insert/member', {
      name: f2.memberName,
      mobile: `137${String(Date.now() % 1e8).padStart(8, '0')}`,
      gender: 2,
    });
    await api.ok('insert/member/card', { mid: m2.id, cardId: f.productId, totalCount: 5, expireTime: null });
    await api.ok('add/member/group/pending', { mid: m2.id, tid, studentCount: 1 });
    await page.reload();
    await drawer.getByRole('tab', { name: '待签到' }).click();
    const row2 = drawer.getByTestId('pending-table').locator('tr', { hasText: f2.memberName });
    await row2.getByRole('button', { name: '取消预约' }).click();
    await page.getByText(`您确定取消 ${f2.memberName} 的预约吗？`).waitFor();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await toast(page, '预约取消');
    await row2.waitFor({ state: 'detached' });
    await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 0 });
  });

  it('after switching back to 预约即扣费 the kept pendings stay reachable; each booked row says what it is', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '切');
    const store = (await api.ok('/api/auth/me')).posts[0].storeId;
    const tid = await addSession(api, f, addDays(mondayOf(1), 5), '10:00');
    // Booked and paid under 预约即扣费, then a pending under 签到后扣费, then back.
    const paid = await addMemberWithCard(api, f, `先付${f.memberId}`);
    await api.ok('add/member/reservation', { mcId: paid.cardId, tid, studentCount: 1, remark: '' });
    await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 1 });
    try {
      await api.ok('add/member/group/pending', { mid: f.memberId, tid, studentCount: 1, mcId: f.mcId });
      // In 签到后扣费 the booking paid earlier is not shown as signed in.
      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByRole('tab', { name: '已签到' }).click();
      const paidRow = drawer.getByTestId('booked-table').locator('tr', { hasText: `先付${f.memberId}` });
      await paidRow.getByText('已预约').waitFor();
      await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 0 });

      await page.reload();
      await drawer.getByTestId('session-seats').getByText('2/12').waitFor();
      expect(await drawer.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['待签到', '已预约', '候补', '预约记录']);
      expect(await drawer.locator('.ant-tabs-tab-active').innerText()).toBe('已预约');
      await drawer.getByRole('tab', { name: '待签到' }).click();
      const kept = drawer.getByTestId('pending-table').locator('tr', { hasText: f.memberName });
      await kept.getByRole('button', { name: '签到' }).click();
      await modal(page, '签到确认').getByRole('button', { name: '确认签到' }).click();
      await toast(page, '操作成功');
      await drawer.getByRole('tab', { name: '已预约' }).click();
      const booked = drawer.getByTestId('booked-table');
      await booked.locator('tr', { hasText: f.memberName }).getByText('已签到').waitFor();
      await booked
        .locator('tr', { hasText: `先付${f.memberId}` })
        .getByText('已预约')
        .waitFor();
      await shot(page, 'drawer-mode-switched');
      // 预约记录: the sign-in is its own line
      await drawer.getByRole('tab', { name: '预约记录' }).click();
      await drawer.getByTestId('history-table').getByText('前台签到').waitFor();
    } finally {
      await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 0 });
    }
  });
});
