// The desk's 扫码收款 (issue 28): the front desk opens 扫码收款 on a member's page, chooses a card sold
// online and WeChat, a QR shows; the member pays at the stand-in's pay page (the QR's address); the
// modal, which asks every 2.5 s, says 收款成功 and the new card is in the member's cards. The manager's
// 线上订单 lists it; 对账 of a day lists the bill's differences; 退款 pays it back through WeChat.
import { expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { addDays, localDateTime } from '../apps/server/src/lib/time.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
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

        // 对账 of yesterday: WeChat's bill holds this order at another amount and an order we never made.
        const yesterday = addDays(localDateTime('Asia/Shanghai').slice(0, 10), -1);
        standIns.wx.setBill(yesterday, [
          { outTradeNo: order!.outTradeNo, tradeId: '4200000000000001', amountFen: 170000, kind: 'pay' },
          { outTradeNo: 'P20990101000000100001', tradeId: '4200000000000002', amountFen: 100, kind: 'pay' },
        ]);
        await manager.getByRole('tab', { name: '对账' }).click();
        await manager.getByText('微信支付：这一天还没有对账').waitFor();
        await manager.getByRole('button', { name: '重新对账' }).click();
        await manager.getByText('微信支付：两边一致 0 笔，差异 2 处').waitFor();
        const diffs = manager.getByTestId('reconcile-wechat');
        const differs = diffs.locator('.ant-table-row', { hasText: order!.outTradeNo });
        expect(await differs.innerText()).toMatch(/金额不一致\s+1800\.00\s+1700\.00/);
        await diffs
          .locator('.ant-table-row', { hasText: '渠道有、本店无' })
          .getByText('本店没有这个订单号，请核实')
          .waitFor();
        await shot(manager, 'pay-reconcile');

        // 退款: the whole order back to WeChat with a reason; the card is closed and the order 已退款.
        await manager.getByRole('tab', { name: '订单' }).click();
        await row.getByRole('button', { name: '退款' }).click();
        const refund = modal(manager, '退款');
        await refund.getByRole('button', { name: '确认退款' }).click();
        await refund.getByText('请填写退款原因').waitFor();
        await field(refund, '退款原因').locator('input').fill('会员搬家');
        await shot(manager, 'pay-order-refund');
        await refund.getByRole('button', { name: '确认退款' }).click();
        await refund.waitFor({ state: 'detached' });
        // The order's status (its refund's tag below says 退款中 or 已退款 as WeChat answered).
        await row.getByText('已退款', { exact: true }).first().waitFor();
        const after = await api.ok<{ status: string; refunded: number }>('query/pay/order', {
          orderNo: order!.outTradeNo,
        });
        expect(after).toMatchObject({ status: 'refunded', refunded: 180000 });
      } finally {
        await context.close();
      }
    });

    it("the desk's 退卡 of a card bought online goes back the way the money came (原路退回), in full within the cooling-off days", async () => {
      const { api, server, browser } = env();
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      const f = await makeFixture(api, '原');
      const cardName = `线上十次卡${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName,
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 100000,
        totalCount: 10,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 88000,
      });
      const deskApi = new Api(server.url);
      await deskApi.login(DESK.account, DESK.password);
      // Sold at the counter by the desk's WeChat QR, paid at the stand-in.
      const made = await deskApi.ok<{ orderNo: string; codeUrl: string }>('create/pay/order', {
        mid: f.memberId,
        productId: product.id,
        method: 'wechat_native',
      });
      expect((await fetch(made.codeUrl, { method: 'POST' })).status).toBe(200);
      expect((await api.ok<{ status: string }>('query/pay/order', { orderNo: made.orderNo })).status).toBe('paid');
      const context = await newContext(browser);
      try {
        await loginWithCookie(context, deskApi);
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
        const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: cardName });
        await row.getByText('退卡').click();
        const dialog = modal(page, `退卡：${cardName}`);
        await dialog.getByTestId('refund-amount').getByText('880.00 元').waitFor();
        await dialog
          .getByTestId('refund-online')
          .getByText(`这张卡是线上购买的（订单 ${made.orderNo}），退款将原路退回到会员的微信支付`)
          .waitFor();
        // No cash or method to choose: the form asks for the reason.
        expect(await dialog.getByText('退款方式').count()).toBe(0);
        await dialog.getByRole('button', { name: '确认退款' }).click();
        await dialog.getByText('请填写退款原因').waitFor();
        await field(dialog, '退款原因').locator('input').fill('七天内不想练了');
        await dialog.getByText('请填写退款原因').waitFor({ state: 'hidden' });
        await shot(page, 'desk-refund-online-card');
        await dialog.getByRole('button', { name: '确认退款' }).click();
        await dialog.waitFor({ state: 'detached' });
        await row.getByText('已退卡').waitFor();
        const after = await api.ok<{ status: string; refunded: number }>('query/pay/order', { orderNo: made.orderNo });
        expect(after).toMatchObject({ status: 'refunded', refunded: 88000 });
        expect(standIns.wx.refunds.size).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    });

    it('线上订单 shows an ABNORMAL refund as 退款异常 with what to do; a top-up paid online offers 线上订单退款, not 退回', async () => {
      const { api, page } = env();
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      standIns.wx.control.settleRefunds = 'manual';
      const f = await makeFixture(api, '异');
      const cardName = `储值卡${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName,
        bigType: 2,
        cardType: 2,
        perCount: 100,
        price: 100000,
        totalCount: 100000,
        courseIds: [f.courseId],
      });
      const card = await api.ok<{ id: number }>('insert/member/card', {
        mid: f.memberId,
        cardId: product.id,
        totalCount: 10000,
      });
      // A top-up of 500.00 元 paid by WeChat (the desk's QR), then 200.00 元 of it refunded: WeChat says ABNORMAL.
      const o = await api.ok<{ orderNo: string; codeUrl: string }>('create/pay/order', {
        mid: f.memberId,
        mcId: card.id,
        amount: 50000,
        method: 'wechat_native',
      });
      expect((await fetch(o.codeUrl, { method: 'POST' })).status).toBe(200);
      await api.ok('refund/pay/order', { orderNo: o.orderNo, amount: 20000, reason: '多充了' });
      const r = [...standIns.wx.refunds.values()].find((x) => x.outTradeNo === o.orderNo);
      expect((await standIns.wx.settleRefund(r!.outRefundNo, 'ABNORMAL')).map((d) => d.status)).toEqual([204]);

      await page.goto(`${env().server.url}/pay/orders`);
      const row = page.getByTestId('pay-order-table').locator('.ant-table-row', { hasText: o.orderNo });
      const refunds = row.getByTestId('pay-order-refunds');
      await refunds.getByText('退款异常', { exact: true }).waitFor();
      await refunds.getByText('请到微信支付商户平台处理异常退款', { exact: false }).waitFor();
      expect(await refunds.innerText()).toContain('200.00 元');
      await shot(page, 'pay-order-refund-abnormal');

      // The card's ledger: the online top-up is refunded from 线上订单, not at the desk.
      await page.goto(`${env().server.url}/member/detail?member_id=${f.memberId}`);
      const cardRow = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: cardName });
      await cardRow.getByText('流水', { exact: true }).click();
      const drawer = page.locator('.ant-drawer');
      const topupRow = drawer.locator('.ant-table-row', { hasText: '充值' }).filter({ hasText: '500.00' });
      await topupRow.getByTestId('topup-online-refund').waitFor();
      expect(await topupRow.getByText('退回', { exact: true }).count()).toBe(0);
      await topupRow.getByTestId('topup-online-refund').hover();
      await page.getByText(`线上支付的充值（订单号 ${o.orderNo}）`, { exact: false }).waitFor();
      await shot(page, 'ledger-online-topup');
      await topupRow.getByTestId('topup-online-refund').click();
      await page.waitForURL(/\/pay\/orders/);
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
