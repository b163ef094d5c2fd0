// The desk's 扫码收款 (issue 28): the front desk opens 扫码收款 on a member's page, chooses a card sold
// online and WeChat, a QR shows; the member pays at the stand-in's pay page (the QR's address); the
// modal, which asks every 2.5 s, says 收款成功 and the new card is in the member's cards.
import { expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/src/test/payment-stand-ins.ts';
import { Api, DESK, describeBrowser, loginWithCookie, newContext, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { field, modal, pick } from './ui.ts';

const standIns = standInsOfFile();

describeBrowser(
  '前台扫码收款',
  (env) => {
    it('the desk shows a WeChat QR for a member; paid at the stand-in, the modal says so and the card is there', async () => {
      const { api, server, browser } = env();
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      const f = await makeFixture(api, '扫');
      const cardName = `二十次卡${f.memberId}`;
      await api.ok('insert/card/product', {
        cardName,
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 200000,
        totalCount: 20,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 180000,
      });

      const deskApi = new Api(server.url);
      await deskApi.login(DESK.account, DESK.password);
      const context = await newContext(browser);
      try {
        await loginWithCookie(context, deskApi);
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
        await page.getByTestId('desk-pay').click();
        const dialog = modal(page, '扫码收款');
        await pick(page, field(dialog, '卡种'), cardName);
        await dialog.getByText('微信', { exact: true }).click();
        await dialog.getByRole('button', { name: '生成收款码' }).click();

        const qr = dialog.getByTestId('desk-pay-qr');
        await qr.waitFor();
        await dialog.getByText('¥1800.00').waitFor();
        const codeUrl = (await qr.getAttribute('data-text')) ?? '';
        const order = [...standIns.wx.orders.values()].find((o) => codeUrl === standIns.wx.payPageUrl(o.outTradeNo));
        expect(order, codeUrl).toBeTruthy();
        await shot(page, 'desk-pay-qr');

        // The member scans it: the stand-in's pay page (the QR's address) and 确认支付.
        const paid = await fetch(codeUrl, { method: 'POST' });
        expect(paid.status).toBe(200);
        await dialog.getByTestId('desk-pay-paid').getByText('收款成功，会员卡已到账').waitFor();
        // The member's cards refreshed behind the modal.
        const cards = page
          .locator('.ant-card')
          .filter({ has: page.locator('.ant-card-head-title', { hasText: /^会员卡$/ }) });
        await cards.locator('.ant-table-row', { hasText: cardName }).getByText('20 次').first().waitFor();
        await shot(page, 'desk-pay-paid');
        await dialog.getByRole('button', { name: /^完\s*成$/ }).click();
        await dialog.waitFor({ state: 'detached' });

        const o = await api.ok<{ status: string; memberCardId: number | null }>('query/pay/order', {
          orderNo: order!.outTradeNo,
        });
        expect(o.status).toBe('paid');
        expect(o.memberCardId).not.toBeNull();

        // The manager's 线上订单 lists it: paid, taken by the desk.
        const manager = env().page;
        await manager.goto(`${server.url}/pay/orders`);
        const row = manager.getByTestId('pay-order-table').locator('.ant-table-row', { hasText: order!.outTradeNo });
        await row.getByText('已支付').waitFor();
        expect(await row.innerText()).toContain('1800.00');
        expect(await row.innerText()).toContain('微信扫码');
        await shot(manager, 'desk-pay-order-list');
      } finally {
        await context.close();
      }
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
