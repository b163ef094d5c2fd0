// Issue 42, items 11 and 12: selling online visibly works or visibly does not (the product form warns
// 未开启在线收款，会员看不到, a failed save scrolls to and names the field, the members' page says
// 本店暂未开放线上购卡), and whoever sold a card earns it (发卡 with a chosen 销售员, counted by the
// commission). The store takes no payment online here.
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { makeFixture, signInNewMember } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

/** Whether the element is within the window's height now (scrolled into view). */
const inView = (l: Locator) =>
  l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });

describeBrowser('selling online and the seller (issue 42)', (env) => {
  it('the product form warns when no payment channel is on; a failed save scrolls to and names the field', async () => {
    const { page, server } = env();
    await page.goto(`${server.url}/card/list`);
    await page.getByRole('button', { name: '添加卡种' }).click();
    const m = modal(page, '添加卡种');
    await m.getByLabel('卡种名称').fill('线上月卡');
    await m.getByLabel('价格').fill('300');
    await field(m, '线上售卖').getByRole('switch').click();
    // 线上价格 starts at the price; the form says members will not see it.
    await expect.poll(() => m.getByLabel('线上价格').inputValue()).toBe('300.00');
    const warning = m.getByTestId('online-sale-no-channel');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('未开启在线收款，会员看不到');
    await shot(page, 'online-sale-no-channel');

    // No 卡内次数: the save is refused before anything is sent, the field is scrolled to and named.
    const count = field(m, '卡内次数');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '保存失败：线上售卖的卡种请填写卡内次数（大于0）');
    await count.getByText('线上售卖的卡种请填写卡内次数（大于0）').waitFor();
    await expect.poll(() => inView(count)).toBe(true);
    await shot(page, 'online-sale-save-refused');

    await count.locator('input').fill('30');
    await field(m, '有效天数').locator('input').fill('30');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    // The list warns too: on the product and above the list.
    const row = page.locator('.ant-table-row', { hasText: '线上月卡' });
    await row.getByTestId('online-sale-unseen-tag').waitFor();
    expect(await page.getByTestId('online-sale-unseen').innerText()).toContain('未开启在线收款，会员看不到');
    await shot(page, 'online-sale-list-warning');
  });

  it("the members' page says 本店暂未开放线上购卡 where 购卡 would be", async () => {
    const { api, server, browser } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const [context, phone] = await phoneContext(browser);
    try {
      await signInNewMember(phone, api, server.url, storeId, '看不到购卡');
      await phone.getByText('会员卡', { exact: true }).tap();
      const closed = phone.getByTestId('shop-closed');
      await closed.waitFor();
      expect(await closed.innerText()).toBe('本店暂未开放线上购卡，请到前台办理');
      expect(await phone.getByRole('button', { name: '购卡' }).count()).toBe(0);
      await shot(phone, 'member-shop-closed');
    } finally {
      await context.close();
    }
  });

  it('发卡 with a chosen 销售员: the commission counts the coach, not who took the money', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '销');
    const coachName = `陈教练${f.teacherId}`;
    await api.ok('insert/staff', {
      name: coachName,
      account: `coach${f.teacherId}${Date.now() % 100000}`,
      mobile: null,
      password: 'Coach-pass-2026',
      role: 'teacher',
      teacherId: f.teacherId,
    });
    const me = await api.ok<{ id: number; name: string }>('/api/auth/me');

    await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
    await page.getByText(`会员详情：${f.memberName}`).waitFor();
    await page.getByRole('button', { name: /发\s*卡/ }).click();
    const m = modal(page, '发卡');
    await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), f.productName, f.productName);
    await m.getByLabel('卡内次数').fill('10');
    await m.getByText('微信', { exact: true }).click();
    // The seller starts as the signed-in staff member; the desk names the coach who closed the sale.
    const seller = field(m, '销售员');
    await seller.getByText(`${me.name}（我）`).waitFor();
    await pick(page, seller, coachName, coachName);
    await shot(page, 'card-sale-seller');
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');

    const thisMonth = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
    await page.goto(`${server.url}/staff/pay?tab=commission&month=${thisMonth}`);
    const coachRow = page.getByTestId('pay-commission').getByRole('row').filter({ hasText: coachName }).first();
    await coachRow.waitFor();
    expect(await coachRow.innerText()).toContain('1000.00');
    const sold = await api.ok<{ staffId: number; name: string; sales: number; items: { memberName: string }[] }[]>(
      'query/sales/commission',
      { month: thisMonth },
    );
    const coach = sold.find((r) => r.name === coachName)!;
    expect(coach.sales).toBe(100000);
    expect(coach.items.map((i) => i.memberName)).toEqual([f.memberName]);
    expect(sold.find((r) => r.staffId === me.id)?.items.map((i) => i.memberName) ?? []).not.toContain(f.memberName);
    await shot(page, 'commission-counts-seller');

    // The manager credits the sale to someone else later: 更改销售员 (written to 操作日志).
    await coachRow.locator('.ant-table-row-expand-icon').click();
    await page.getByText('更改销售员', { exact: true }).first().click();
    const change = modal(page, '更改销售员');
    await pick(page, field(change, '销售员'), `${me.name}（我）`);
    await change.getByRole('button', { name: '保 存' }).click();
    await toast(page, '销售员已更改');
    // The month's commission (the first card; the rates below list every staff member) no longer has the coach.
    const commissionCard = page.getByTestId('pay-commission').locator('.ant-card').first();
    await expect.poll(() => commissionCard.getByRole('row').filter({ hasText: coachName }).count()).toBe(0);
    await shot(page, 'commission-seller-changed');
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const log = await api.ok<{ list: { summary: string }[] }>('query/audit/log', {
      fromDate: today,
      toDate: today,
      kind: 'card',
      page: 1,
    });
    expect(log.list.map((e) => e.summary).join('\n')).toContain(`${coachName} → ${me.name}`);
  });
});
