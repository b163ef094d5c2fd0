import { amountText, BIG_TYPE_MONEY, PrepaidMsg, PREPAID_RULE_SET_NAMES } from '@studio/contract';
import { it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { modal, pick, toast } from './ui.ts';

const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);

describeBrowser(
  'prepaid limits per city (issue 45): the manager chooses 上海 2025, the desk is refused over it',
  (env) => {
    it('chooses the rule, sees the cards sold before it that are over it, and a sale over it is refused with the figures', async () => {
      const { api, page, server } = env();
      const f = await makeFixture(api, '限');
      const name = `百节私教卡${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName: name,
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 2_500_000,
        totalCount: 100,
        courseIds: [f.courseId],
      });
      // Sold before the store chose any limits.
      await api.ok('insert/member/card', {
        mid: f.memberId,
        cardId: product.id,
        totalCount: 100,
        payment: { amount: 2_500_000, method: 'cash', remark: null },
      });

      await page.goto(`${server.url}/card/list?tab=limits`);
      await page.getByText(PREPAID_RULE_SET_NAMES.shanghai2025).click();
      await page.getByText('单卡 20000.00 元，课时 60 节').waitFor();
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await toast(page, '保存成功');
      const over = page.locator('.ant-table-row', { hasText: name });
      await over.getByText('次卡（课时卡）课时数不超过60节，本次100节').waitFor();
      await over.getByText(`会员预付合计剩余${yuan(2_500_000)}，超过${yuan(2_000_000)}`).waitFor();
      await shot(page, 'prepaid-limits-shanghai');

      // The desk sells the same card again: refused, naming the limit and the figures.
      await page.goto(`${server.url}/card/list?tab=member&member_id=${f.memberId}`);
      await page.getByTestId('member-card-table').waitFor();
      await page.getByRole('button', { name: /发\s*卡/ }).click();
      const m = modal(page, '发卡');
      await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), name, name);
      await m.getByText('微信', { exact: true }).click();
      await m.getByRole('button', { name: '确认发卡' }).click();
      await toast(
        page,
        PrepaidMsg.over(
          PREPAID_RULE_SET_NAMES.shanghai2025,
          '次卡（课时卡）单卡金额',
          yuan(2_000_000),
          yuan(2_500_000),
        ),
      );
      await shot(page, 'prepaid-limits-refused-sale');
    });
  },
);
