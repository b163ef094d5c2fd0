import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { modal, pick, toast } from './ui.ts';

describeBrowser('card sales with payments (售卡收款)', (env) => {
  it('sells a card with a payment method, tops it up, pays the top-up back, and shows the money', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '售');
    const productName = `储值卡售${Date.now() % 100000}`;
    await api.ok('insert/card/product', {
      cardName: productName,
      bigType: 2,
      cardType: 1,
      perCount: 5000,
      price: 100000,
      totalCount: 120000,
      validDays: 365,
      courseIds: [f.courseId],
    });

    await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
    await page.getByText(`会员详情：${f.memberName}`).waitFor();
    await page.getByRole('button', { name: /发\s*卡/ }).click();
    let m = modal(page, '发卡');
    await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), productName, productName);
    // The product's defaults: 1,200.00 元 on the card for a price of 1,000.00 元.
    await expect.poll(() => m.getByLabel('卡内金额').inputValue()).toBe('1200.00');
    expect(await m.getByLabel('收款金额').inputValue()).toBe('1000.00');
    await m.getByRole('button', { name: '确认发卡' }).click();
    // The payment method is required before anything is sent.
    await m.getByText('请选择收款方式').waitFor();
    await m.getByText('微信', { exact: true }).click();
    await m.getByLabel('备注').fill('开业活动');
    await shot(page, 'card-sale-form');
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');

    const payments = page.getByTestId('member-payments');
    const sale = payments.locator('.ant-table-row', { hasText: '售卡' });
    await sale.waitFor();
    expect(await sale.innerText()).toMatch(/1000\.00 元[\s\S]*微信[\s\S]*开业活动/);

    // A top-up of 500 元 paid in cash.
    const cardRow = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: productName });
    await cardRow.getByText('1200.00 元').first().waitFor();
    await cardRow.getByText('充值', { exact: true }).click();
    m = modal(page, `充值：${productName}`);
    await m.getByLabel('充值数量').fill('500');
    await expect.poll(() => m.getByLabel('收款金额').inputValue()).toBe('500.00');
    await m.getByText('现金', { exact: true }).click();
    await m.getByRole('button', { name: /充\s*值/ }).click();
    await toast(page, '充值成功');
    await payments.locator('.ant-table-row', { hasText: '充值' }).getByText('现金').waitFor();
    await cardRow.getByText('1700.00 元').first().waitFor();

    // The ledger shows what was taken with each entry; the top-up is paid back from there.
    await cardRow.getByText('流水', { exact: true }).click();
    const drawer = page.locator('.ant-drawer');
    const topupRow = drawer.locator('.ant-table-row', { hasText: '充值' });
    expect(await topupRow.innerText()).toContain('现金 500.00 元');
    expect(await drawer.locator('.ant-table-row', { hasText: '发卡' }).innerText()).toContain('微信 1000.00 元');
    await topupRow.getByText('退回', { exact: true }).click();
    m = modal(page, `退回充值：${productName}`);
    await m.getByText('将从卡内扣回这笔充值 500.00 元').waitFor();
    expect(await m.getByLabel('退款金额').inputValue()).toBe('500.00');
    await m.getByText('现金', { exact: true }).click();
    await m.getByLabel('备注').fill('会员搬家');
    await m.getByRole('button', { name: '确认退款' }).click();
    await toast(page, '退款成功');
    await topupRow.getByText('已退回').waitFor();
    await drawer.locator('.ant-table-row', { hasText: '退回充值' }).getByText('-500.00 元').waitFor();
    await shot(page, 'card-sale-ledger');
    await page.keyboard.press('Escape');

    const refund = payments.locator('.ant-table-row', { hasText: '退款' });
    await refund.getByText('-500.00 元').waitFor();
    await payments.getByText('实收合计：1000.00 元').waitFor();
    await cardRow.getByText('1200.00 元').first().waitFor();
    await shot(page, 'card-sale-member-payments');
  });
});
