// 异常订单 (issue 42, item 1): the desk's WeChat QR for a card on sale online; the manager stops selling
// the card (停用) before the member pays; the member pays at the stand-in's page. The order cannot be
// fulfilled: 今日 tells the manager, 线上订单 lists it as 异常订单 with its reason and one action,
// 原路退款 (in full), which pays it back through WeChat and leaves it 已退款.
import { PayExceptionMsg } from '@studio/contract';
import { expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
import { Api, DESK, describeBrowser, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { field, modal } from './ui.ts';

const standIns = standInsOfFile();

describeBrowser(
  '线上订单：异常订单',
  (env) => {
    it('线上订单 lists a paid order that could not be fulfilled as 异常订单 with its reason, and 原路退款 pays it back', async () => {
      const { api, server, page } = env();
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      const f = await makeFixture(api, '异');
      const cardName = `停售十次卡${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName,
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 100000,
        totalCount: 10,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 66000,
      });
      const deskApi = new Api(server.url);
      await deskApi.login(DESK.account, DESK.password);
      const made = await deskApi.ok<{ orderNo: string; codeUrl: string }>('create/pay/order', {
        mid: f.memberId,
        productId: product.id,
        method: 'wechat_native',
      });
      // 停用 before the member pays; then the member pays at WeChat (the stand-in's page).
      await api.ok('delete/card/product', { id: product.id });
      expect((await fetch(made.codeUrl, { method: 'POST' })).status).toBe(200);
      const o = await api.ok<{ status: string; memberCardId: number | null }>('query/pay/order', {
        orderNo: made.orderNo,
      });
      expect(o).toMatchObject({ status: 'exception', memberCardId: null });

      // 今日 tells the manager.
      await page.goto(`${server.url}/today`);
      const alert = page.getByTestId('today-pay-exceptions');
      await alert.getByText('请到 线上订单 原路退款', { exact: false }).waitFor();
      await shot(page, 'today-pay-exception');
      await alert.getByText('去处理').click();
      await page.waitForURL(/\/pay\/orders/);

      const row = page.getByTestId('pay-order-table').locator('.ant-table-row', { hasText: made.orderNo });
      await row.getByText('异常订单', { exact: true }).waitFor();
      await row.getByTestId('pay-order-exception').getByText(PayExceptionMsg.productGone, { exact: false }).waitFor();
      expect(await row.getByRole('button').allInnerTexts()).toEqual(['原路退款']);
      await shot(page, 'pay-order-exception');

      await row.getByRole('button', { name: '原路退款' }).click();
      const dialog = modal(page, '原路退款');
      await dialog.getByText('全额退回', { exact: false }).waitFor();
      await field(dialog, '退款原因').locator('input').fill('卡种已停售，原路退回');
      await shot(page, 'pay-order-exception-refund');
      await dialog.getByRole('button', { name: '确认退款' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText('已退款', { exact: true }).first().waitFor();
      // The reason stays with the order after its refund; no action is left.
      await row.getByTestId('pay-order-exception').waitFor();
      expect(await row.getByRole('button').count()).toBe(0);
      const after = await api.ok<{ status: string; refunded: number }>('query/pay/order', { orderNo: made.orderNo });
      expect(after).toMatchObject({ status: 'refunded', refunded: 66000 });
      expect([...standIns.wx.refunds.values()].some((r) => r.outTradeNo === made.orderNo)).toBe(true);
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
