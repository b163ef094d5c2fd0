import { expect, it } from 'vitest';
import { runReminders } from '../apps/server/src/features/reminders/public.ts';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { SECRET, startSmsStandIn } from '../apps/server/test/sms-stand-in.ts';
import { MP, startWechatMpStandIn } from '../apps/server/test/wechat-mp-stand-in.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addDays, addMemberWithCard, addSession, makeFixture, signInNewMember } from './seed.ts';
import { toast, typeRange } from './ui.ts';

const todayInShanghai = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);

/** A phone's WeChat: its built-in browser (the user agent says MicroMessenger), held in one hand with touch. */
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
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160083 MMWEBSDK/20240301 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return [context, page];
}

describeBrowser(
  '消息提醒 and 消息记录; a member switches a reminder off on the phone',
  (env) => {
    it('the job sends a day of class reminders by SMS (a local stand-in), and 消息记录 lists them with the day against the cap', async () => {
      const { page, api, server } = env();
      const sms = await startSmsStandIn();
      try {
        await api.ok('update/sms/setting', sms.setting('tencent', SECRET.tencent));
        // The settings screen: the class reminder's SMS template, with its preview.
        await page.goto(`${server.url}/settings/notify`);
        const row = page.getByTestId('notify-kind-class_reminder');
        await row.getByLabel('短信模板 ID').fill('1234567');
        await page.getByRole('button', { name: '保存消息提醒设置' }).click();
        await toast(page, '操作成功');
        await api.ok('update/notify/setting', {
          classReminderHours: 2,
          quietFrom: '22:00',
          quietTo: '08:00',
          wechat: { appId: '', baseUrl: '', templates: [] },
          sms: { templates: [{ kind: 'class_reminder', templateId: '1234567', params: ['course', 'time'] }] },
        });
        await page.reload();
        await page.getByTestId('notify-preview-class_reminder').getByText('流瑜伽').first().waitFor();
        await shot(page, 'notify-settings');

        const f = await makeFixture(api, '提醒');
        // A day far enough ahead that the demo store has no classes then: only this test's reminders.
        const day = addDays(todayInShanghai(), 120);
        const nine = await addSession(api, f, day, '09:00');
        const six = await addSession(api, f, day, '18:00');
        const other = await addMemberWithCard(api, f, '王提醒', 10);
        await api.ok('add/member/reservation', { mcId: f.mcId, tid: nine, studentCount: 1, remark: '' });
        await api.ok('add/member/reservation', { mcId: f.mcId, tid: six, studentCount: 1, remark: '' });
        await api.ok('add/member/reservation', { mcId: other.cardId, tid: six, studentCount: 1, remark: '' });
        const deps = {
          db: server.database.db,
          dialect: 'sqlite' as const,
          config: { outboundAllowHosts: parseAllowHosts(new URL(sms.base).host) },
        };
        for (const t of ['06:00', '07:00', '08:00', '12:00', '16:00', '17:00']) {
          await runReminders(deps, () => `${day} ${t}:00`);
        }
        expect(sms.received.map((r) => r.signatureOk)).toEqual([true, true, true]);

        await page.goto(`${server.url}/notify/log`);
        await typeRange(page, page.getByTestId('notify-log-filters').locator('.ant-picker-range'), day, day);
        const table = page.getByTestId('notify-log-table');
        await table.getByRole('link', { name: f.memberName }).first().waitFor();
        await table.getByRole('link', { name: '王提醒' }).waitFor();
        expect(await table.getByText('已发送').count()).toBe(3);
        // Each sent on its first try (发送次数).
        expect(await table.getByText('1 次', { exact: true }).count()).toBe(3);
        await page.getByTestId('notify-day-table').getByText('3 / 500').waitFor();
        await shot(page, 'notify-log');
      } finally {
        await sms.close();
      }
    });

    it('a member opens 我的 → 消息提醒 on the phone and switches 上课提醒 off', async () => {
      const { api, server, browser } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      const [context, page] = await phoneContext(browser);
      try {
        const { memberId } = await signInNewMember(page, api, server.url, storeId, '赵提醒');
        await page.getByText('我的', { exact: true }).tap();
        const sw = page.getByTestId('notify-switch-class_reminder');
        await sw.waitFor();
        expect(await sw.getAttribute('aria-checked')).toBe('true');
        await sw.tap();
        await page.getByText('已关闭').waitFor();
        await page.waitForFunction(
          () =>
            document.querySelector('[data-testid="notify-switch-class_reminder"]')?.getAttribute('aria-checked') ===
            'false',
        );
        await page.getByText('已关闭').waitFor({ state: 'hidden' });
        await shot(page, 'member-notify-prefs');
        const rows = await server.database.db
          .selectFrom('notifyPref')
          .select(['kind', 'off'])
          .where('memberId', '=', memberId)
          .execute();
        expect(rows).toEqual([{ kind: 'class_reminder', off: 1 }]);
      } finally {
        await context.close();
      }
    });

    it("opened inside WeChat, once the member signs in the members' page goes through WeChat's authorisation (snsapi_base, the stand-in) with a state the server gave the session, and back with a code that binds the openid", async () => {
      const { api, server, browser } = env();
      const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
      const mp = await startWechatMpStandIn();
      // The service account: its API and its web authorisation page are the stand-in's; the page's
      // host is the account's authorised domain (网页授权域名); the phone's WeChat user is this openid.
      mp.state.authorisedDomain = new URL(server.url).host;
      mp.state.webUser = 'o-e2e-member-in-wechat';
      const [context, page] = await wechatPhone(browser);
      try {
        await api.ok('update/notify/setting', {
          classReminderHours: 2,
          quietFrom: '22:00',
          quietTo: '08:00',
          wechat: {
            appId: MP.appId,
            appSecret: MP.appSecret,
            baseUrl: mp.base,
            authorizeBaseUrl: mp.base,
            templates: [],
          },
          sms: { templates: [] },
        });
        // Where the page goes: recorded as the browser asks for each address.
        const visited: string[] = [];
        page.on('request', (r) => {
          if (r.isNavigationRequest()) visited.push(r.url());
        });
        const { memberId } = await signInNewMember(page, api, server.url, storeId, '钱微信');
        await page.getByText('已绑定微信，提醒将通过公众号发送').waitFor();
        const visit = mp.authorizeVisits.at(-1)!;
        expect(mp.authorizeVisits.length).toBe(1);
        expect(visit).toEqual({
          appid: MP.appId,
          redirectUri: `${server.url}/m/?store=${storeId}`,
          responseType: 'code',
          scope: 'snsapi_base',
          state: expect.stringMatching(/^[\w-]{22,}$/),
        });
        // The state is the session's, taken once by the binding.
        expect(await server.database.db.selectFrom('wechatOauthState').select('state').execute()).toEqual([]);
        const toWechat = visited.findIndex((u) => u.startsWith(`${mp.base}/connect/oauth2/authorize?`));
        expect(toWechat).toBeGreaterThan(0);
        expect(visited[toWechat + 1]).toMatch(
          new RegExp(`^${server.url}/m/\\?store=${storeId}&code=code_\\w+&state=${visit.state}$`),
        );
        // The one-use code is not left in the address.
        expect(page.url()).toBe(`${server.url}/m/?store=${storeId}`);

        await page.getByText('我的', { exact: true }).tap();
        const prefs = page.getByTestId('notify-prefs');
        await prefs.getByText('已绑定微信').waitFor();
        await page.getByText('已绑定微信，提醒将通过公众号发送').waitFor({ state: 'hidden' });
        await shot(page, 'member-wechat-bound');
        const row = await server.database.db
          .selectFrom('member')
          .select('wechatOpenid')
          .where('id', '=', memberId)
          .executeTakeFirstOrThrow();
        expect(row.wechatOpenid).toBe('o-e2e-member-in-wechat');

        // Opened again in the same WeChat tab: no second trip to the authorisation.
        await page.reload();
        await page.getByText('钱微信，你好').waitFor();
        expect(mp.authorizeVisits.length).toBe(1);
      } finally {
        await context.close();
        await mp.close();
        await api.ok('update/notify/setting', {
          classReminderHours: 2,
          quietFrom: '22:00',
          quietTo: '08:00',
          wechat: { appId: '', baseUrl: '', templates: [] },
          sms: { templates: [] },
        });
      }
    });
  },
  { outboundAllowHosts: parseAllowHosts('127.0.0.1') },
);
