// 电子合同 signing (issue 45, item 2) on a phone (390x844, touch): a member buys a card online, reads
// the contract, ticks 我已阅读并同意, signs with the code texted to them (the SMS stand-in), pays on
// the WeChat Pay stand-in, and downloads the signed PDF (its text names the member and the card); the
// desk sells a card (待签约), shows the signing QR, and the member signs through its link on the phone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInPaySetting, standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
import { SECRET, startSmsStandIn } from '../apps/server/test/sms-stand-in.ts';
import { accessibilityProblems, ARTIFACTS, describeBrowser, phoneContext, shot } from './harness.ts';
import { makeFixture, signInNewMember } from './seed.ts';
import { modal } from './ui.ts';
import { tickAndCode } from './contract-sign.ts';

const standIns = standInsOfFile();
let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
beforeAll(async () => {
  sms = await startSmsStandIn();
});
afterAll(() => sms?.close());

/**
 * The text of a PDF's pages, as pdf.js reads it (from the fonts' ToUnicode maps). Reading text draws
 * nothing: the DOMMatrix pdf.js asks for at load (for drawing, which Node lacks) is a bare stand-in.
 */
async function pdfText(file: string): Promise<string> {
  const g = globalThis as { DOMMatrix?: unknown };
  g.DOMMatrix ??= class DOMMatrix {};
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(file)), useSystemFonts: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str : '')).join('');
  }
  return text;
}

describeBrowser(
  'contracts signed on the phone',
  (env) => {
    it('buys a card online: reads the contract, signs with the texted code, pays, downloads the signed PDF', async () => {
      const { api, server } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      await api.ok('update/pay/setting', standInPaySetting(standIns.wx, standIns.ali));
      await api.ok('update/sms/setting', sms.setting('tencent', SECRET.tencent));
      const f = await makeFixture(api, '签');
      const cardName = `签约十次卡${f.memberId}`;
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
      const [context, page] = await phoneContext(env().browser);
      try {
        const name = `签约会员${f.memberId}`;
        const { mobile } = await signInNewMember(page, api, server.url, storeId, name);
        await page.getByText('会员卡', { exact: true }).tap();
        await page.getByRole('button', { name: '购卡' }).tap();
        await page.getByTestId('product').filter({ hasText: cardName }).getByRole('button', { name: '购买' }).tap();
        const sheet = page.getByTestId('pay-sheet');
        const text = sheet.getByTestId('contract-text');
        await text.getByText(`乙方（会员）：${name}`, { exact: false }).waitFor();
        expect(await text.innerText()).toContain(`「${cardName}」`);
        // 确认支付 before the tick and the code: said, nothing ordered
        await sheet.getByRole('button', { name: '确认支付 300.00 元' }).tap();
        await page.getByRole('dialog').getByText('请先阅读合同并勾选「我已阅读并同意」').waitFor();
        await page.getByRole('button', { name: '知道了' }).tap();
        await tickAndCode(page, sms, mobile);
        await shot(page, 'contract-sign-before-pay');
        expect(await accessibilityProblems(page)).toEqual([]);
        await sheet.getByRole('button', { name: '确认支付 300.00 元' }).tap();
        const wait = page.getByTestId('order-wait');
        const qr = wait.getByTestId('pay-qr');
        await qr.waitFor();
        const payPage = await context.newPage();
        await payPage.goto((await qr.getAttribute('data-text'))!);
        await payPage.getByRole('button', { name: '确认支付' }).tap();
        await payPage.getByText('支付成功').waitFor();
        await payPage.close();
        await wait.getByRole('button', { name: '我已支付' }).tap();
        await page.getByText('支付成功，会员卡已到账').waitFor();
        const myCard = page.getByTestId('my-card').filter({ hasText: cardName });
        await myCard.getByTestId('card-contract').getByText('已签约').waitFor();
        await myCard.getByRole('button', { name: '查看合同' }).tap();
        await page.getByTestId('contract-signed').getByText(`${name} 于`, { exact: false }).waitFor();
        expect(await page.getByTestId('contract-signed').innerText()).toContain('签署（手机验证码）');
        await shot(page, 'contract-signed-online');
        expect(await accessibilityProblems(page)).toEqual([]);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: '下载合同 PDF' }).tap(),
        ]);
        const file = path.join(ARTIFACTS, 'contract-signed-online.pdf');
        await download.saveAs(file);
        expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
        const words = (await pdfText(file)).replace(/\s+/g, '');
        expect(words).toContain(name);
        expect(words).toContain(cardName);
        expect(words).toContain('签署方式：手机验证码');
      } finally {
        await context.close();
      }
    });

    it('the desk sells a card (待签约), shows the QR; the member signs through its link on the phone', async () => {
      const { api, page, server } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      await api.ok('update/sms/setting', sms.setting('tencent', SECRET.tencent));
      const f = await makeFixture(api, '扫');
      const [context, phone] = await phoneContext(env().browser);
      try {
        const name = `扫码会员${f.memberId}`;
        const { memberId, mobile } = await signInNewMember(phone, api, server.url, storeId, name);
        await api.ok('insert/member/card', {
          mid: memberId,
          cardId: f.productId,
          totalCount: 10,
          expireTime: null,
          payment: { amount: 50000, method: 'cash', remark: null },
        });
        await page.goto(`${server.url}/member/detail?member_id=${memberId}`);
        const row = page.getByTestId('member-card-table').locator('tr', { hasText: f.productName }).last();
        await row.getByText('合同', { exact: true }).click();
        const dialog = modal(page, `合同：${f.productName}`);
        await dialog.getByTestId('card-contract-status').getByText('待签约').waitFor();
        await dialog.getByTestId('contract-qr-button').click();
        const link = dialog.getByTestId('contract-link');
        await link.getByTestId('contract-qr').waitFor();
        await shot(page, 'contract-desk-qr');
        expect(await accessibilityProblems(page)).toEqual([]);
        const url = (await link.getAttribute('data-url'))!;
        expect(url).toContain('&sign=');

        // the member's phone opens the QR's link: the contract, 待签约; tick, code, 签署合同
        await phone.goto(url);
        const signing = phone.getByTestId('contract-page');
        await signing.getByTestId('contract-status').getByText('待签约').waitFor();
        expect(await signing.getByTestId('contract-text').innerText()).toContain(`乙方（会员）：${name}`);
        await tickAndCode(phone, sms, mobile);
        await shot(phone, 'contract-sign-qr');
        expect(await accessibilityProblems(phone)).toEqual([]);
        await phone.getByRole('button', { name: '签署合同' }).tap();
        await signing.getByTestId('contract-status').getByText('已签约').waitFor();
        expect(await phone.getByTestId('contract-signed').innerText()).toContain('签署（扫码签署）');
        await shot(phone, 'contract-signed-qr');

        // the desk's open contract turns 已签约 (it asks while its QR is shown): who, how, when, from
        // where and the PDF's SHA-256
        await dialog.getByTestId('card-contract-status').getByText('已签约').waitFor();
        const signature = await dialog.getByTestId('contract-signature').innerText();
        expect(signature).toContain(name);
        expect(signature).toContain('扫码签署');
        expect(signature).toMatch(/[0-9a-f]{64}/);
        await shot(page, 'contract-desk-signed');
      } finally {
        await context.close();
      }
    });

    it('平板手写: the member draws a signature on the desk’s screen; the card turns 已签约', async () => {
      const { api, page, server } = env();
      const f = await makeFixture(api, '写');
      await api.ok('insert/member/card', {
        mid: f.memberId,
        cardId: f.productId,
        totalCount: 10,
        expireTime: null,
        payment: { amount: 30000, method: 'cash', remark: null },
      });
      await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
      const row = page.getByTestId('member-card-table').locator('tr', { hasText: f.productName }).last();
      await row.getByText('合同', { exact: true }).click();
      const dialog = modal(page, `合同：${f.productName}`);
      await dialog.getByTestId('contract-tablet-button').click();
      const pad = dialog.getByTestId('signature-pad');
      // nothing drawn: said before anything is sent
      await pad.getByTestId('signature-submit').click();
      await pad.getByText('请先在签名板上签名').waitFor();
      const box = (await pad.getByLabel('签名板').boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + 120);
      await page.mouse.down();
      for (const [x, y] of [
        [90, 60],
        [140, 140],
        [200, 50],
        [260, 130],
      ]) {
        await page.mouse.move(box.x + x, box.y + y, { steps: 5 });
      }
      await page.mouse.up();
      await shot(page, 'contract-tablet-drawn');
      await pad.getByTestId('signature-submit').click();
      await dialog.getByTestId('card-contract-status').getByText('已签约').waitFor();
      expect(await dialog.getByTestId('contract-signature').innerText()).toContain('平板手写');
      expect(await accessibilityProblems(page)).toEqual([]);
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
