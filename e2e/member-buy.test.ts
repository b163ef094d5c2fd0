// A member buys a card on the phone (issue 28): 购卡 → WeChat's QR → the stand-in's pay page →
// 我已支付 → the new card in 我的会员卡 → a class booked with it; and 充值 of a money card through
// Alipay's page, coming back to the page that waits for it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeBrowser, phoneContext, shot, type Api, type BrowserEnv } from './harness.ts';
import { addSession, makeFixture, signInNewMember } from './seed.ts';
import { SECRET, startSmsStandIn } from '../apps/server/test/sms-stand-in.ts';
import { tickAndCode, type SmsStandIn } from './contract-sign.ts';

const standIns = standInsOfFile();
/** The store's text provider: the contract's signing code reaches the member through it. */
let sms: SmsStandIn;
beforeAll(async () => {
  sms = await startSmsStandIn();
});
afterAll(() => sms?.close());

/** Store-local (Asia/Shanghai) `YYYY-MM-DD HH:mm` of now plus `minutes`. */
function shanghai(minutes: number): { date: string; time: string } {
  const t = new Date(Date.now() + minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
  return { date: t.slice(0, 10), time: t.slice(11, 16) };
}

/** The store takes WeChat Pay and Alipay (the stand-ins), lists top-ups of 500 and 1000 元, and texts codes. */
async function payOnline(api: Api): Promise<void> {
  await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
  await api.ok('update/sms/setting', sms.setting('tencent', SECRET.tencent));
}

/**
 * A phone's WeChat: its browser's user agent, and WeChat's pay sheet (WeixinJSBridge) standing in
 * as the member paying at the stand-in for the order named by the JSAPI parameters.
 */
async function wechatPhone(browser: Browser): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    reducedMotion: 'reduce',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
  });
  await context.exposeFunction('payAtStandIn', async (pkg: string) => {
    const order = [...standIns.wx.orders.values()].find((o) => `prepay_id=${o.prepayId}` === pkg);
    if (!order) return false;
    await standIns.wx.pay(order.outTradeNo);
    return true;
  });
  await context.addInitScript(() => {
    const w = window as unknown as { payAtStandIn(pkg: string): Promise<boolean>; WeixinJSBridge: object };
    w.WeixinJSBridge = {
      invoke: (_name: string, args: { package: string }, done: (r: { err_msg: string }) => void) =>
        void w
          .payAtStandIn(args.package)
          .then((ok) => done({ err_msg: ok ? 'get_brand_wcpay_request:ok' : 'get_brand_wcpay_request:fail' })),
    };
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return [context, page];
}

/** A new member of the store (no card yet), signed in on a phone with a code the desk gives. */
async function memberOnPhone(
  env: BrowserEnv,
  api: Api,
  storeId: number,
  name: string,
  o: { wechat?: boolean; query?: string } = {},
) {
  const [context, page] = o.wechat ? await wechatPhone(env.browser) : await phoneContext(env.browser);
  const { memberId, mobile } = await signInNewMember(page, api, env.server.url, storeId, name, o.query ?? '');
  return { context, page, memberId, mobile };
}

describeBrowser(
  'a member buys a card on the phone',
  (env) => {
    it('购卡 a 10次卡 by WeChat QR on the stand-in, 我已支付, the card in 我的会员卡, then a class booked with it', async () => {
      const { api } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      await payOnline(api);
      const f = await makeFixture(api, '购');
      const cardName = `10次卡${f.memberId}`;
      // On sale online for 300 元, accepted by the fixture's course.
      await api.ok('insert/card/product', {
        cardName,
        bigType: 1,
        cardType: 1,
        perCount: 1,
        price: 100000,
        totalCount: 10,
        validDays: 90,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 30000,
      });
      const at = shanghai(60 * 3);
      const tid = await addSession(api, f, at.date, at.time);
      const { context, page, memberId, mobile } = await memberOnPhone(env(), api, storeId, `买卡会员${f.memberId}`);
      try {
        // 会员卡: none yet; 购卡 lists what is on sale
        await page.getByText('会员卡', { exact: true }).tap();
        await page.getByText('还没有会员卡，可点“购卡”在线购买，或到前台办理').waitFor();
        await shot(page, 'member-buy-no-card');
        await page.getByRole('button', { name: '购卡' }).tap();
        const product = page.getByTestId('product').filter({ hasText: cardName });
        await product.getByText('300.00 元').waitFor();
        expect(await product.innerText()).toContain('10 次，有效期90天');
        await shot(page, 'member-buy-products');

        // the purchase sheet: outside WeChat, WeChat's QR or Alipay's page
        await product.getByRole('button', { name: '购买' }).tap();
        const sheet = page.getByTestId('pay-sheet');
        await sheet.getByTestId('pay-wechat_native').waitFor();
        await sheet.getByTestId('pay-alipay_wap').waitFor();
        expect(await sheet.getByTestId('pay-wechat_native').getAttribute('aria-checked')).toBe('true');
        // the contract read, ticked and signed with the texted code, then paid
        await tickAndCode(page, sms, mobile);
        await shot(page, 'member-buy-sheet');
        await sheet.getByRole('button', { name: '确认支付 300.00 元' }).tap();

        // the wait: WeChat's QR (long-press hint) and 我已支付
        const wait = page.getByTestId('order-wait');
        const qr = wait.getByTestId('pay-qr');
        await qr.waitFor();
        expect(await wait.innerText()).toContain('长按二维码保存到相册');
        await shot(page, 'member-buy-qr');
        // not paid yet: 我已支付 says so
        await wait.getByRole('button', { name: '我已支付' }).tap();
        await page.getByText('还没有收到付款').waitFor();

        // the member pays on the stand-in's page (the QR's address, in this browser)
        const payUrl = (await qr.getAttribute('data-text'))!;
        expect(payUrl.startsWith(standIns.wx.base)).toBe(true);
        const payPage = await context.newPage();
        await payPage.goto(payUrl);
        await payPage.getByRole('button', { name: '确认支付' }).tap();
        await payPage.getByText('支付成功').waitFor();
        await payPage.close();

        // back: 我已支付, and the new card is in 我的会员卡
        await wait.getByRole('button', { name: '我已支付' }).tap();
        await page.getByText('支付成功，会员卡已到账').waitFor();
        const myCard = page.getByTestId('my-card').filter({ hasText: cardName });
        await myCard.getByText('余 10 次').waitFor();
        await myCard.getByText('刚买的').waitFor();
        await shot(page, 'member-buy-new-card');
        const cards = await api.ok<{ cards: { id: number; cardName: string }[] }>('query/member/info', {
          id: memberId,
        });
        const card = cards.cards.find((c) => c.cardName === cardName);
        expect(card).toBeDefined();

        // 我的订单: 已支付
        await page.getByRole('button', { name: '我的订单' }).tap();
        const order = page.getByTestId('my-order').filter({ hasText: cardName });
        await order.getByText('已支付').waitFor();
        expect(await order.innerText()).toContain('300.00 元 · 微信扫码支付');
        await shot(page, 'member-buy-orders');
        await page.getByRole('button', { name: '返回我的会员卡' }).tap();

        // book the class with the new card
        await page.getByText('课表').tap();
        await page.getByTestId(`day-${at.date}`).tap();
        const session = page.getByTestId(`session-${tid}`);
        await session.tap();
        const bookSheet = page.getByTestId('session-sheet');
        await bookSheet.getByTestId(`card-${card!.id}`).tap();
        await bookSheet.getByRole('button', { name: '预约', exact: true }).tap();
        await page.getByText('预约成功').waitFor();
        await session.getByText('已预约').waitFor();
        await page.getByText('会员卡', { exact: true }).tap();
        await page.getByTestId('my-card').filter({ hasText: cardName }).getByText('余 9 次').waitFor();
        await shot(page, 'member-buy-booked');
      } finally {
        await context.close();
      }
    });

    it("inside WeChat: the authorisation code gives the openid, WeChat's own sheet pays, the card lands", async () => {
      const { api } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      await payOnline(api);
      const f = await makeFixture(api, '微');
      const cardName = `体验卡${f.memberId}`;
      await api.ok('insert/card/product', {
        cardName,
        bigType: 1,
        cardType: 2,
        perCount: 1,
        price: 5000,
        totalCount: 1,
        courseIds: [f.courseId],
        onlineSale: 1,
        onlinePrice: 990,
        trial: 1,
      });
      const { context, page, mobile } = await memberOnPhone(env(), api, storeId, `微信会员${f.memberId}`, {
        wechat: true,
      });
      try {
        // WeChat sent the page back from its web authorisation (snsapi_base) with a code and the state
        // the server gave this member's session (a code with any other state pays as nobody).
        const wxCode = standIns.wx.oauthCode('o-member-in-wechat');
        const state = await page.evaluate(async () => {
          const r = await fetch('/member/api/insert/wechat/state', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          return ((await r.json()) as { data: { state: string } }).data.state;
        });
        await page.goto(`${env().server.url}/m/?store=${storeId}&code=${wxCode}&state=${state}`);
        await page.getByText(`微信会员${f.memberId}，你好`).waitFor();
        await page.getByText('会员卡', { exact: true }).tap();
        await page.getByRole('button', { name: '购卡' }).tap();
        const product = page.getByTestId('product').filter({ hasText: cardName });
        await product.getByText('体验卡 · 限购一次').waitFor();
        await product.getByRole('button', { name: '购买' }).tap();
        const sheet = page.getByTestId('pay-sheet');
        // inside WeChat: WeChat pays in place; Alipay's page would not open here
        await sheet.getByTestId('pay-wechat_jsapi').getByText('在微信中直接付款').waitFor();
        expect(await sheet.getByTestId('pay-alipay_wap').count()).toBe(0);
        const code = await tickAndCode(page, sms, mobile);
        await shot(page, 'member-buy-wechat-sheet');
        await sheet.getByRole('button', { name: '确认支付 9.90 元' }).tap();
        await page.getByText('支付成功，会员卡已到账').waitFor();
        await page.getByTestId('my-card').filter({ hasText: cardName }).getByText('余 1 次').waitFor();
        const order = [...standIns.wx.orders.values()].find((o) => o.openid === 'o-member-in-wechat');
        expect(order?.tradeType).toBe('JSAPI');

        // a second 体验卡: refused before anything is paid
        await page.getByRole('button', { name: '购卡' }).tap();
        await product.getByRole('button', { name: '购买' }).tap();
        // ticked and the last code typed again (a new one is a minute away): the 体验卡 rule answers first
        await page.getByTestId('contract-agree').tap();
        await page.getByTestId('contract-code').locator('input').fill(code);
        await sheet.getByRole('button', { name: '确认支付 9.90 元' }).tap();
        await page.locator('.adm-dialog').getByText('体验卡每位会员只能购买一次').waitFor();
        await shot(page, 'member-buy-trial-once');
        await page.locator('.adm-dialog').getByRole('button', { name: '知道了' }).tap();
      } finally {
        await context.close();
      }
    });

    it('充值 a money card through Alipay: off to its page and back, the top-up waits and lands', async () => {
      const { api } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      await payOnline(api);
      const f = await makeFixture(api, '充');
      const money = await api.ok<{ id: number }>('insert/card/product', {
        cardName: `储值卡${f.memberId}`,
        bigType: 2,
        cardType: 2,
        perCount: 10000,
        price: 100000,
        courseIds: [],
      });
      const { context, page, memberId } = await memberOnPhone(env(), api, storeId, `充值会员${f.memberId}`);
      try {
        await api.ok('insert/member/card', { mid: memberId, cardId: money.id, totalCount: 20000, expireTime: null });
        await page.getByText('会员卡', { exact: true }).tap();
        const myCard = page.getByTestId('my-card').filter({ hasText: `储值卡${f.memberId}` });
        await myCard.getByText('余 200.00 元').waitFor();
        await myCard.getByRole('button', { name: '充值' }).tap();
        const sheet = page.getByTestId('pay-sheet');
        await sheet.getByRole('radio', { name: '1000.00 元' }).tap();
        await sheet.getByTestId('pay-alipay_wap').tap();
        await shot(page, 'member-topup-sheet');
        await sheet.getByRole('button', { name: '确认支付 1000.00 元' }).tap();

        // Alipay's page (the stand-in), then 返回商家 back to the members' page
        await page.waitForURL(`${standIns.ali.base}/**`);
        await page.getByRole('button', { name: '确认支付' }).tap();
        await page.getByText('支付成功').waitFor();
        await page.getByRole('link', { name: '返回商家' }).tap();
        await page.waitForURL(`**/m/?store=${storeId}*`);
        // back: the page asks at once, and the top-up is on the card
        await page.getByText('充值成功').waitFor();
        await myCard.getByText('余 1200.00 元').waitFor();
        await myCard.getByText('刚充值').waitFor();
        await shot(page, 'member-topup-done');
        await page.getByRole('button', { name: '我的订单' }).tap();
        const order = page.getByTestId('my-order').filter({ hasText: '会员卡充值' });
        await order.getByText('已支付').waitFor();
        expect(await order.innerText()).toContain('1000.00 元 · 支付宝');
      } finally {
        await context.close();
      }
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
