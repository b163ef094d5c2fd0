import { CardMsg, REFUND_ROUNDING } from '@studio/contract';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
import { Api, DESK, describeBrowser, loginWithCookie, newContext, shot, type BrowserEnv } from './harness.ts';
import { addDays, addSession, makeFixture, type Fixture } from './seed.ts';
import { field, modal, toast } from './ui.ts';

/** Store-local (Asia/Shanghai) today, `YYYY-MM-DD`. */
const today = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);

// Refund rules a desk can explain (issue 42, item 9): the 退卡 dialog opened for each state of the
// refund quote, as the desk and as the manager, and its words read: 售卡当天 (not 第0天), a leave not
// yet begun or a booking not yet taken does not open the card, inside the cooling-off days never
// 已过冷静期, and when 确认退款 is not offered the box says why.
const standIns = standInsOfFile();

describeBrowser(
  '退卡: the refund dialog says each state of the quote in words',
  (env) => {
    let desk: Page | undefined;
    let deskApi: Api | undefined;
    /** A page of the desk (前台) account, opened once. */
    async function deskPage(e: BrowserEnv): Promise<Page> {
      if (desk) return desk;
      const api = new Api(e.server.url);
      await api.login(DESK.account, DESK.password);
      deskApi = api;
      const context = await newContext(e.browser);
      await loginWithCookie(context, api);
      desk = await context.newPage();
      desk.setDefaultTimeout(15_000);
      return desk;
    }

    /** A 90-day card (refund fee 10%) sold today at the desk for 880.00 元 to the fixture's member. */
    async function soldToday(tag: string): Promise<{ f: Fixture; name: string; mcId: number }> {
      const { api } = env();
      const f = await makeFixture(api, tag);
      const name = `退卡说明${tag}${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName: name,
        bigType: 1,
        cardType: 1,
        perCount: 1,
        price: 88000,
        validDays: 90,
        courseIds: [f.courseId],
        refundFeePercent: 10,
        leaveAllowed: 1,
        leaveTimes: 3,
        leaveDaysMax: 7,
      });
      // the course takes the new product's cards too
      const { id: mcId } = await api.ok<{ id: number }>('insert/member/card', {
        mid: f.memberId,
        cardId: product.id,
        totalCount: 10,
        payment: { amount: 88000, method: 'wechat', remark: null },
      });
      return { f, name, mcId };
    }

    /** Opens 退卡 of the card on `page` and answers the dialog, its quote's words, its box and whether 确认退款 is offered. */
    async function openRefund(page: Page, f: Fixture, name: string) {
      await page.goto(`${env().server.url}/card/list?tab=member&member_id=${f.memberId}`);
      const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: name });
      await row.getByText('退卡', { exact: true }).click();
      const m = modal(page, `退卡：${name}`);
      const quote = m.getByTestId('refund-quote');
      await quote.waitFor();
      const words = await quote.innerText();
      const note = await m.getByTestId('refund-note').innerText();
      const offered = !(await m.getByRole('button', { name: '确认退款' }).isDisabled());
      return { m, row, words, note, offered };
    }

    /**
     * A money card on sale online (100.00 元, `fee`% refund fee) bought by the desk's WeChat QR and
     * topped up 500.00 元 by its `topupMethod` QR, each paid at the stand-in.
     */
    async function boughtAndToppedUpOnline(tag: string, topupMethod: 'wechat_native' | 'alipay_precreate', fee = 0) {
      const { api, server } = env();
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      const f = await makeFixture(api, tag);
      const name = `线上储值卡${f.memberId}`;
      const product = await api.ok<{ id: number }>('insert/card/product', {
        cardName: name,
        bigType: 2,
        cardType: 2,
        perCount: 5000,
        price: 10000,
        totalCount: 10000,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 10000,
        refundFeePercent: fee,
      });
      await deskPage(env());
      const sale = await deskApi!.ok<{ orderNo: string; codeUrl: string }>('create/pay/order', {
        mid: f.memberId,
        productId: product.id,
        method: 'wechat_native',
      });
      expect((await fetch(sale.codeUrl, { method: 'POST' })).status).toBe(200);
      const card = await server.database.db
        .selectFrom('memberCard')
        .select('id')
        .where('memberId', '=', f.memberId)
        .where('cardId', '=', product.id)
        .executeTakeFirstOrThrow();
      const topup = await deskApi!.ok<{ orderNo: string; codeUrl: string }>('create/pay/order', {
        mid: f.memberId,
        mcId: card.id,
        amount: 50000,
        method: topupMethod,
      });
      expect((await fetch(topup.codeUrl, { method: 'POST' })).status).toBe(200);
      return { f, name, mcId: card.id, sale, topup };
    }

    const close = async (m: Locator) => {
      await m.getByRole('button', { name: /取\s*消/ }).click();
      await m.waitFor({ state: 'hidden' });
    };

    it('within the cooling-off days, unused: 售卡当天, in full, the desk may refund it', async () => {
      const { f, name } = await soldToday('新');
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('冷静期全额退款');
      expect(d.words).toContain('售卡当天，在7天冷静期内，未上课、未请假、未转卡：全额退还实付 880.00 元');
      expect(d.words).not.toContain('第0天');
      expect(d.note).toContain('退卡后卡内余额');
      expect(d.note).toContain(REFUND_ROUNDING);
      expect(d.offered).toBe(true);
      await shot(page, 'refund-words-cooling-unused');
      await close(d.m);
    });

    it('within the cooling-off days, a leave registered for next week: still in full, never 已过冷静期', async () => {
      const { f, name, mcId } = await soldToday('假');
      const t = today();
      await env().api.ok('add/card/leave', { mcId, fromDate: addDays(t, 7), toDate: addDays(t, 9), reason: '出差' });
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('冷静期全额退款');
      expect(d.words).toContain('售卡当天，在7天冷静期内，未上课、请假尚未开始、未转卡：全额退还实付 880.00 元');
      expect(d.words).not.toContain('已过');
      expect(d.note).not.toContain('已过冷静期');
      expect(d.offered).toBe(true);
      await shot(page, 'refund-words-cooling-future-leave');
      await close(d.m);
    });

    it('within the cooling-off days, a booking not yet taken: in full, but cancel the booking first', async () => {
      const { f, name, mcId } = await soldToday('约');
      const tid = await addSession(env().api, f, addDays(today(), 2), '09:00');
      await env().api.ok('add/member/reservation', { tid, mcId, studentCount: 1, remark: '' });
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('冷静期全额退款');
      expect(d.words).toContain('售卡当天，在7天冷静期内，已约1节课尚未上课、未请假、未转卡：全额退还实付 880.00 元');
      expect(d.note).toBe(`${CardMsg.refundOpenBookings}（还有 1 节）`);
      expect(d.offered).toBe(false);
      await shot(page, 'refund-words-cooling-future-booking');
      await close(d.m);
    });

    it('within the cooling-off days, a leave begun: 冷静期内，但已请假, the manager refunds by the rule', async () => {
      const { f, name, mcId } = await soldToday('休');
      const t = today();
      await env().api.ok('add/card/leave', { mcId, fromDate: t, toDate: addDays(t, 2), reason: '生病' });
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('按卡种退卡规则');
      expect(d.words).toContain('售卡当天，在7天冷静期内，但已请假，不能全额退款，按卡种规则');
      expect(d.words).not.toContain('已过');
      expect(d.note).toBe(CardMsg.refundOpened);
      expect(d.offered).toBe(false);
      await shot(page, 'refund-words-cooling-leave-begun');
      await close(d.m);
    });

    it('within the cooling-off days, a class taken (a used card): 但已上课, the desk is told why', async () => {
      const { f, name, mcId } = await soldToday('用');
      const t = today();
      const tid = await addSession(env().api, f, addDays(t, 3), '09:00');
      await env().api.ok('add/member/reservation', { tid, mcId, studentCount: 1, remark: '' });
      // the class is moved to earlier today: taken
      await env()
        .server.database.db.updateTable('timetable')
        .set({ startTime: `${t} 00:00:00`, endTime: `${t} 00:00:30` })
        .where('id', '=', tid)
        .execute();
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('售卡当天，在7天冷静期内，但已上课，不能全额退款，按卡种规则');
      expect(d.words).toContain('剩余 9 次 / 10 次');
      expect(d.note).toBe(CardMsg.refundOpened);
      expect(d.offered).toBe(false);
      await shot(page, 'refund-words-cooling-used');
      await close(d.m);
    });

    it('after the cooling-off days: the desk is told it is the manager’s, the manager refunds by the rule', async () => {
      const { f, name, mcId } = await soldToday('过');
      await env()
        .server.database.db.updateTable('memberCard')
        .set({ createdAt: `${addDays(today(), -10)} 10:00:00` })
        .where('id', '=', mcId)
        .execute();
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('售卡后第10天，已过7天冷静期，按卡种规则');
      expect(d.note).toBe(CardMsg.refundManager);
      expect(d.offered).toBe(false);
      await shot(page, 'refund-words-after-desk');
      await close(d.m);

      const manager = env().page;
      const g = await openRefund(manager, f, name);
      // 880.00 paid, 10 of 10 left, less 10% (88.00): 792.00
      expect(g.words).toContain('按卡种退卡规则');
      expect(g.words).toContain('售卡后第10天，已过7天冷静期，按卡种规则：实付 880.00 元，剩余 10 次 / 10 次');
      expect(g.words).toContain('应退 792.00 元（金额按分计算，不足 1 分的部分舍去）');
      expect(await g.m.getByTestId('refund-amount').innerText()).toBe('792.00 元');
      expect(g.note).toContain('退卡后卡内余额');
      expect(g.offered).toBe(true);
      await expect.poll(() => g.m.getByLabel('退款金额').inputValue()).toBe('792.00');
      await g.m.getByText('现金', { exact: true }).click();
      await shot(manager, 'refund-words-after-manager');
      await g.m.getByRole('button', { name: '确认退款' }).click();
      await toast(manager, '退款成功');
      await g.row.getByText('已退卡').waitFor();
    });

    it('a card bought and topped up online: 退款去向 names each order, all of it goes back, the card closed once', async () => {
      const { api } = env();
      const { f, name, sale, topup } = await boughtAndToppedUpOnline('线', 'wechat_native');
      const page = await deskPage(env());
      const d = await openRefund(page, f, name);
      expect(d.words).toContain('冷静期全额退款');
      expect(d.words).toContain('全额退还实付 600.00 元');
      const parts = await d.m.getByTestId('refund-parts').innerText();
      expect(parts).toContain(`购卡订单 ${sale.orderNo}：原路退回微信支付 100.00 元`);
      expect(parts).toContain(`充值订单 ${topup.orderNo}：原路退回微信支付 500.00 元`);
      expect(await d.m.getByTestId('refund-online').innerText()).toContain('各笔订单按上面的退款去向一起退回');
      expect(d.offered).toBe(true);
      await expect.poll(() => d.m.getByLabel('购卡订单退款金额').inputValue()).toBe('100.00');
      await field(d.m, '退款原因').locator('input').fill('七天内不想练了');
      await shot(page, 'refund-words-online-parts');
      await d.m.getByRole('button', { name: '确认退款' }).click();
      await d.m.waitFor({ state: 'detached' });
      await d.row.getByText('已退卡').waitFor();
      for (const o of [sale, topup]) {
        const after = await api.ok<{ status: string }>('query/pay/order', { orderNo: o.orderNo });
        expect(after.status).toBe('refunded');
      }
    });

    it('线上订单 退款 of a card order past the cooling-off days: the quote’s parts shown, this order’s part by default, checked before sending', async () => {
      const { api, server, page } = env();
      // Bought by the desk's WeChat QR, topped up by its Alipay QR.
      const { name, mcId, sale, topup } = await boughtAndToppedUpOnline('单', 'alipay_precreate', 10);
      // Sold ten days ago: past the 7 cooling-off days, the product's rule (less 10%) over 600.00 元 paid.
      await server.database.db
        .updateTable('memberCard')
        .set({ createdAt: `${addDays(today(), -10)} 10:00:00` })
        .where('id', '=', mcId)
        .execute();

      await page.goto(`${server.url}/pay/orders`);
      const row = page.getByTestId('pay-order-table').locator('.ant-table-row', { hasText: sale.orderNo });
      await row.getByRole('button', { name: '退款' }).click();
      const m = modal(page, `退款：${name}`);
      await m.getByTestId('refund-quote').waitFor();
      expect(await m.getByTestId('refund-quote').innerText()).toContain('按卡种退卡规则');
      // 600.00 × 100% − 10% = 540.00: 90.00 back through the card order, 450.00 through the top-up.
      const parts = await m.getByTestId('refund-parts').innerText();
      expect(parts).toContain(`购卡订单 ${sale.orderNo}：原路退回微信支付 90.00 元（本订单）`);
      expect(parts).toContain(`充值订单 ${topup.orderNo}：原路退回支付宝 450.00 元`);
      const amount = m.getByLabel('退款金额');
      await expect.poll(() => amount.inputValue()).toBe('90.00');

      // More than this order's part, or nothing, is refused in the dialog before anything is sent.
      await amount.fill('100');
      await m.getByRole('button', { name: '确认退款' }).click();
      await field(m, '本订单退款金额').getByText('退款金额超过订单可退金额（还可退 90.00 元）').waitFor();
      await amount.fill('0');
      await m.getByRole('button', { name: '确认退款' }).click();
      await field(m, '本订单退款金额').getByText('退款金额应大于 0').waitFor();
      expect((await api.ok<{ refunded: number }>('query/pay/order', { orderNo: sale.orderNo })).refunded).toBe(0);

      await amount.fill('90');
      await field(m, '退款原因').locator('input').fill('搬家，不再上课');
      await shot(page, 'pay-order-refund-parts');
      await m.getByRole('button', { name: '确认退款' }).click();
      await toast(page, '退款已提交，款项将原路退回');
      await m.waitFor({ state: 'detached' });
      await row.getByText('部分退款', { exact: true }).waitFor();
      expect(await api.ok('query/pay/order', { orderNo: sale.orderNo })).toMatchObject({ refunded: 9000 });
      expect(await api.ok('query/pay/order', { orderNo: topup.orderNo })).toMatchObject({ refunded: 45000 });
      // The closed card's quote is not asked about behind the closing dialog (no error toast).
      expect(await page.locator('.ant-message-error').count()).toBe(0);
      await shot(page, 'pay-order-refund-done');
      // The card order again: the card is closed, the dialog says so and offers nothing.
      await row.getByRole('button', { name: '退款' }).click();
      const again = modal(page, `退款：${name}`);
      await again.getByText(CardMsg.refunded).waitFor();
      expect(await again.getByRole('button', { name: '确认退款' }).isDisabled()).toBe(true);
      await again.getByRole('button', { name: /取\s*消/ }).click();
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
