// 在线收款 (issue 28): the manager fills WeChat Pay and Alipay in the back office, pointed at the
// local stand-ins, and 测试连接 says the keys work; a card product is put on sale online.
import { expect, it } from 'vitest';
import { OnlineSaleMsg, PayMsg, WECHAT_KEY_MODE_LABEL } from '@studio/contract';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { standInsOfFile } from '../apps/server/test/payment-stand-ins.ts';
import { describeBrowser, shot } from './harness.ts';
import { makeFixture } from './seed.ts';
import { field, modal, toast } from './ui.ts';

const standIns = standInsOfFile();

/** antd spaces two-character button labels (保 存). */
const label = (text: string) => new RegExp(`^${text.split('').join('\\s*')}$`);

describeBrowser(
  '在线收款 settings',
  (env) => {
    it('the manager fills WeChat Pay and Alipay, checked before sending; 测试连接 says the keys work', async () => {
      const { page, server, api } = env();
      await page.goto(`${server.url}/settings/pay`);
      await page.getByRole('menuitem', { name: '在线收款' }).waitFor();
      const wechat = page.getByTestId('pay-wechat');
      const alipay = page.getByTestId('pay-alipay');
      await wechat.getByRole('switch').waitFor();
      await shot(page, 'pay-settings-empty');

      // Switched on and saved empty: the form says what is missing, in the server's words, and sends nothing.
      await wechat.getByRole('switch').click();
      await page.getByTestId('pay-save').click();
      await wechat.getByText(PayMsg.missing('商户号')).waitFor();
      await wechat.getByText(PayMsg.missing('APIv3 密钥')).waitFor();
      await wechat.getByText(PayMsg.missing('商户 API 私钥')).waitFor();
      await page.locator('#pay_wechat_apiV3Key').fill('too-short');
      await page.locator('#pay_wechat_privateKey').fill('not a key');
      await wechat.getByText(PayMsg.apiV3Key).waitFor();
      await wechat.getByText(PayMsg.merchantKey).waitFor();
      await shot(page, 'pay-settings-invalid');
      const before = await api.ok<{ wechat: { enabled: boolean } }>('query/pay/setting');
      expect(before.wechat.enabled).toBe(false);

      // The stand-ins' keys and addresses, as a manager pastes them from the merchant platforms.
      const w = standIns.wx.config();
      await page.locator('#pay_wechat_mchId').fill(w.mchid);
      await page.locator('#pay_wechat_appId').fill(w.appid);
      await page.locator('#pay_wechat_serialNo').fill(w.merchantSerialNo);
      await page.locator('#pay_wechat_apiV3Key').fill(w.apiV3Key);
      await page.locator('#pay_wechat_privateKey').fill(w.merchantPrivateKey);
      await page.locator('#pay_wechat_platformPublicKeyId').fill(w.publicKey.id);
      await page.locator('#pay_wechat_platformPublicKey').fill(w.publicKey.pem);
      await page.locator('#pay_wechat_appSecret').fill(w.appSecret);
      await page.locator('#pay_wechat_baseUrl').fill(w.apiBase);
      await page.locator('#pay_wechat_oauthBaseUrl').fill(w.oauthBase);
      const a = standIns.ali.config();
      await alipay.getByRole('switch').click();
      await page.locator('#pay_alipay_appId').fill(a.appId);
      await page.locator('#pay_alipay_sellerId').fill(a.sellerId);
      await page.locator('#pay_alipay_privateKey').fill(a.appPrivateKey);
      await page.locator('#pay_alipay_alipayPublicKey').fill(a.alipayPublicKey);
      await page.locator('#pay_alipay_gateway').fill(a.gateway);
      // 充值金额 in 元 (fen on the wire)
      const topups = page.getByTestId('pay-topups');
      for (const [i, yuan] of ['500', '1000', '2000'].entries()) {
        await page.getByTestId('pay-topup-add').click();
        await topups.getByLabel(`充值金额 ${i + 1}`, { exact: true }).fill(yuan);
      }
      await page.getByTestId('pay-save').click();
      await toast(page, '在线收款设置已保存');

      // Read back: secrets only as 已设置, the fields emptied (left empty, they are kept).
      await wechat.getByText('已设置').nth(2).waitFor();
      expect(await page.locator('#pay_wechat_apiV3Key').inputValue()).toBe('');
      expect(await page.locator('#pay_wechat_mchId').inputValue()).toBe(w.mchid);
      const saved = await api.ok<{
        wechat: { enabled: boolean; secretsSet: boolean; baseUrl: string };
        alipay: { enabled: boolean; secretsSet: boolean };
        topupAmounts: number[];
      }>('query/pay/setting');
      expect(saved.wechat).toMatchObject({ enabled: true, secretsSet: true, baseUrl: w.apiBase });
      expect(saved.alipay).toMatchObject({ enabled: true, secretsSet: true });
      expect(saved.topupAmounts).toEqual([50000, 100000, 200000]);
      expect(JSON.stringify(saved)).not.toContain(w.apiV3Key);

      // 测试连接: each provider is asked about a made-up order; the answer in words.
      const onPublicKey = PayMsg.connectionKeys(
        '微信支付',
        `${WECHAT_KEY_MODE_LABEL.public_key}（微信支付公钥 ${w.publicKey.id}）`,
      );
      await page.getByTestId('pay-test-wechat').click();
      await page.getByTestId('pay-test-result-wechat').getByText(onPublicKey).waitFor();
      await page.getByTestId('pay-test-alipay').click();
      await page.getByTestId('pay-test-result-alipay').getByText(PayMsg.connectionOk('支付宝')).waitFor();
      await shot(page, 'pay-settings-saved');

      // Saving again with the secrets left empty keeps them; a wrong key shows the provider's refusal.
      await page.locator('#pay_wechat_mchId').fill('1900000001');
      await page.getByTestId('pay-test-wechat').click();
      const failed = page.getByTestId('pay-test-result-wechat');
      await failed.getByText('微信支付连接失败').waitFor();
      await shot(page, 'pay-settings-test-failed');
      await page.locator('#pay_wechat_mchId').fill(w.mchid);
      await page.getByTestId('pay-save').click();
      await toast(page, '在线收款设置已保存');
      await page.getByTestId('pay-test-wechat').click();
      await page.getByTestId('pay-test-result-wechat').getByText(onPublicKey).waitFor();
    });

    it('WeChat Pay keys: the screen shows the mode; a merchant switching adds its platform certificate and 测试连接 proves both keys (issue 42)', async () => {
      const { page, server, api } = env();
      const w = standIns.wx.config();
      await page.goto(`${server.url}/settings/pay`);
      const mode = page.getByTestId('pay-wechat-key-mode');
      await mode.getByText(`验签方式：${WECHAT_KEY_MODE_LABEL.public_key}`).waitFor();
      await mode.getByText(`微信支付公钥 ID：${w.publicKey.id}`).waitFor();
      // Not a certificate: refused before sending.
      await page
        .locator('#pay_wechat_platformCertificates')
        .fill('-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----');
      await page.getByTestId('pay-save').click();
      await page.getByTestId('pay-wechat').getByText(PayMsg.platformCertificate).waitFor();
      // WeChat Pay now signs with the public key or the platform certificate (the merchant is switching).
      standIns.wx.control.keys = 'switching';
      try {
        await page.locator('#pay_wechat_platformCertificates').fill(w.certificate.pem);
        await page.getByTestId('pay-save').click();
        await toast(page, '在线收款设置已保存');
        await mode.getByText(`验签方式：${WECHAT_KEY_MODE_LABEL.switching}`).waitFor();
        await mode.getByText(`平台证书 ${w.certificate.serialNo}`, { exact: false }).waitFor();
        await page.getByTestId('pay-test-wechat').click();
        await page
          .getByTestId('pay-test-result-wechat')
          .getByText(
            PayMsg.connectionKeys(
              '微信支付',
              `${WECHAT_KEY_MODE_LABEL.switching}（微信支付公钥 ${w.publicKey.id}、平台证书 ${w.certificate.serialNo}）`,
            ),
          )
          .waitFor();
        await shot(page, 'pay-settings-wechat-switching');
        const saved = await api.ok<{ wechat: { keyMode: string; platformCertificates: { serialNo: string }[] } }>(
          'query/pay/setting',
        );
        expect(saved.wechat.keyMode).toBe('switching');
        expect(saved.wechat.platformCertificates.map((c) => c.serialNo)).toEqual([w.certificate.serialNo]);

        // The switch done: the certificate dropped, the public key alone.
        standIns.wx.control.keys = 'public_key';
        await page.getByText('切换已完成，删除平台证书').click();
        await page.getByTestId('pay-save').click();
        await toast(page, '在线收款设置已保存');
        await mode.getByText(`验签方式：${WECHAT_KEY_MODE_LABEL.public_key}`).waitFor();
        await shot(page, 'pay-settings-wechat-public-key');
      } finally {
        standIns.wx.control.keys = 'public_key';
      }
    });

    it('a card product is put on sale online with its price, and sold once per member as a 体验卡', async () => {
      const { page, server, api } = env();
      const f = await makeFixture(api, '售');
      await page.goto(`${server.url}/card/list`);
      const row = page.locator('.ant-table-row', { hasText: `十次卡售` });
      await row.getByText('编辑').click();
      const dialog = modal(page, '编辑卡种');
      await field(dialog, '卡内次数').locator('input').fill('10');
      await field(dialog, '线上售卖').getByRole('switch').click();
      // 线上价格 starts at the product's price; emptied, the form asks for it
      const price = field(dialog, '线上价格').locator('input');
      expect(await price.inputValue()).not.toBe('');
      await price.fill('');
      await dialog.getByRole('button', { name: label('保存') }).click();
      await field(dialog, '线上价格').getByText(OnlineSaleMsg.onlinePrice).waitFor();
      await price.fill('300');
      await field(dialog, '体验卡').getByRole('switch').click();
      await shot(page, 'pay-product-online');
      await dialog.getByRole('button', { name: label('保存') }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText('线上 300.00 元').waitFor();
      await row.getByText('体验卡').waitFor();
      const products =
        await api.ok<{ id: number; onlineSale: number; onlinePrice: number; trial: number }[]>(
          'query/card/product/list',
        );
      expect(products.find((p) => p.id === f.productId)).toMatchObject({ onlineSale: 1, onlinePrice: 30000, trial: 1 });
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
