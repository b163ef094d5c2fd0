import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addMemberWithCard, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

describeBrowser('card screens: issuing a count card, whole counts, a card short of balance', (env) => {
  it('发卡 of the demo 10次卡 fills 卡内次数 and saves; counts read as whole classes on one line', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '整');
    await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
    await page.getByText(`会员详情：${f.memberName}`).waitFor();
    await page.getByRole('button', { name: /发\s*卡/ }).click();
    const m = modal(page, '发卡');
    await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), '10次卡', '10次卡');
    // the product's balance, price and validity: nothing left to type but how it was paid
    await expect.poll(() => m.getByLabel('卡内次数').inputValue()).toBe('10');
    expect(await m.getByLabel('收款金额').inputValue()).toBe('880.00');
    await m.getByText('微信', { exact: true }).click();
    await shot(page, 'card-issue-count-product');
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');

    const table = page.getByTestId('member-card-table');
    const row = table.locator('.ant-table-row', { hasText: '10次卡' });
    await row.locator('.card-balance', { hasText: /^10 次$/ }).waitFor();
    // the fixture's card of 10: 余额, 总额, 已用 in whole classes
    const fixtureRow = table.locator('.ant-table-row', { hasText: '十次卡整' });
    await fixtureRow.locator('.card-balance', { hasText: /^10 次$/ }).waitFor();
    expect(await table.innerText()).not.toMatch(/\d\.\d+ 次/);
    expect(await fixtureRow.innerText()).toContain('0 次');
    await shot(page, 'card-counts-whole');

    // the ledger: its title's balance in whole classes, each entry's time on one line
    await row.getByText('流水', { exact: true }).click();
    const drawer = page.locator('.ant-drawer', { hasText: '流水' });
    await drawer.getByText('10次卡 流水（余额 10 次）').waitFor();
    const time = drawer.getByTestId('ledger-table').locator('.ant-table-row').first().locator('.nowrap').first();
    await time.waitFor();
    expect((await time.innerText()).trim()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect((await time.boundingBox())!.height).toBeLessThan(30);
    await shot(page, 'card-ledger-one-line');
  });

  it('a card greyed out for its balance says the balance and offers 充值, then books', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '充');
    const poor = await addMemberWithCard(api, f, `余额少${Date.now() % 10000}`, 1);
    const first = await addSession(api, f, addDays(mondayOf(1), 1), '08:00');
    await api.ok('add/member/reservation', { mcId: poor.cardId, tid: first, studentCount: 1 });
    const tid = await addSession(api, f, addDays(mondayOf(1), 2), '08:00');
    const info = await api.ok<{ name: string }>('query/member/info', { id: poor.id });

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '预约会员' }).click();
    const m = modal(page, '预约会员');
    await pick(page, field(m, '会员'), info.name, info.name);
    const short = m.getByTestId(`card-short-${poor.cardId}`);
    await short.waitFor();
    expect(await short.innerText()).toContain('余额 0 次，会员卡余额不足');
    // the greyed option says the balance too
    await field(m, '会员卡').locator('.ant-select').first().click();
    const option = page.locator('.ant-select-item-option-disabled', { hasText: '十次卡充' });
    expect(await option.innerText()).toContain('余额 0 次，会员卡余额不足');
    await shot(page, 'booking-card-short');
    // close the list (not Escape: that would close the dialog too)
    await m.locator('.ant-modal-title').click();
    await option.waitFor({ state: 'hidden' });

    await short.getByRole('button', { name: '充值' }).click();
    const t = modal(page, '充值：十次卡充');
    await t.getByText('当前余额：0 次').waitFor();
    await t.getByLabel('充值数量').fill('5');
    await t.getByLabel('收款金额').fill('500');
    await t.getByText('现金', { exact: true }).click();
    await shot(page, 'booking-card-top-up');
    await t.getByRole('button', { name: /充\s*值/ }).click();
    await toast(page, '充值成功');
    await short.waitFor({ state: 'hidden' });
    await pick(page, field(m, '会员卡'), '余额 5 次');
    await m.getByRole('button', { name: '确认预约' }).click();
    await toast(page, '预约成功');
    const cards = await api.ok<{ cards: { id: number; totalCount: number; usedCount: number }[] }>(
      'query/member/info',
      {
        id: poor.id,
      },
    );
    expect(cards.cards.find((c) => c.id === poor.cardId)).toMatchObject({ totalCount: 6, usedCount: 2 });
  });
});
