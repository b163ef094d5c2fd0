// 电子合同 (issue 45, item 1): the manager edits the store's contract (fields inserted from chips,
// checked before saving), sees it filled with a sample, saves a version; a card sold afterwards shows
// its contract filled with the sale and the member.
import { expect, it } from 'vitest';
import { accessibilityProblems, describeBrowser, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { field, modal, toast } from './ui.ts';

describeBrowser('contract template (合同模板) and a card’s contract', (env) => {
  it('edits the template with fields and a preview, refuses an unknown field before saving, and a sale shows its contract', async () => {
    const { api, page, server } = env();
    const f = await makeFixture(api, '约');

    await page.goto(`${server.url}/settings/contract`);
    const form = page.getByTestId('contract-form');
    await form.waitFor();
    await page.getByText('在用：第 1 版').waitFor();
    const preview = page.getByTestId('contract-preview');
    await preview.getByText('乙方（会员）：张三，手机号 13800138000', { exact: false }).waitFor();
    // The fixture's card was sold under the default, written as version 1 with that sale.
    expect(await page.getByTestId('contract-versions').innerText()).toContain('系统（默认合同）');
    await shot(page, 'contract-template-default');

    // The licence name and a new title; a clause added with a field from the chips.
    await field(form, '经营者名称').locator('input').fill('悦动健身服务有限公司');
    await field(form, '合同标题').locator('input').fill('悦动会员服务合同');
    const body = field(form, '合同正文').locator('textarea');
    await body.click();
    await body.press('Control+End');
    await body.pressSequentially('\n九、本卡适用于');
    await page.getByTestId('contract-fields').getByText('适用门店', { exact: true }).click();
    expect(await body.inputValue()).toMatch(/九、本卡适用于\{\{适用门店\}\}$/);
    await preview.getByText('九、本卡适用于（本店名称）', { exact: false }).waitFor();

    // A field the contract does not know: said under the text, nothing saved.
    await body.press('Control+End');
    await body.pressSequentially('，{{折扣}}');
    await form.getByText('合同中有不认识的字段：{{折扣}}').waitFor();
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('在用：第 1 版').waitFor();
    expect(await page.getByTestId('contract-versions').innerText()).not.toContain('第 2 版');
    await body.fill((await body.inputValue()).replace('，{{折扣}}', '。'));
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '合同模板已保存');
    await page.getByText('在用：第 2 版').waitFor();
    const versions = page.getByTestId('contract-versions');
    expect(await versions.locator('tr', { hasText: '第 2 版' }).innerText()).toContain('店长');
    await shot(page, 'contract-template-saved');
    expect(await accessibilityProblems(page)).toEqual([]);

    // A card sold at the desk: its contract names the version and fills the sale and the member.
    await api.ok('insert/member/card', {
      mid: f.memberId,
      cardId: f.productId,
      totalCount: 10,
      expireTime: null,
      payment: { amount: 88800, method: 'cash', remark: null },
    });
    await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
    const row = page.getByTestId('member-card-table').locator('tr', { hasText: f.productName }).last();
    await row.getByText('合同', { exact: true }).click();
    const shown = modal(page, `合同：${f.productName}`).getByTestId('card-contract');
    await shown.getByText('悦动会员服务合同').waitFor();
    const text = await shown.innerText();
    expect(text).toContain('合同模板第 2 版');
    expect(text).toContain('甲方（经营者）：悦动健身服务有限公司');
    expect(text).toContain(`乙方（会员）：${f.memberName}`);
    expect(text).toContain('实付888.00 元');
    expect(text).toContain('有效期：长期有效'); // the fixture's product never expires
    expect(text).toMatch(/九、本卡适用于.+。/);
    expect(text).not.toContain('{{');
    await shot(page, 'contract-of-card');
  });
});
