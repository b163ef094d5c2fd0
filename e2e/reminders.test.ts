import { expect, it } from 'vitest';
import { runReminders } from '../apps/server/src/features/reminders/public.ts';
import { parseAllowHosts } from '../apps/server/src/lib/outbound.ts';
import { SECRET, startSmsStandIn } from '../apps/server/src/test/sms-stand-in.ts';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addDays, addMemberWithCard, addSession, makeFixture, signInNewMember } from './seed.ts';
import { toast, typeRange } from './ui.ts';

const todayInShanghai = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);

describeBrowser('消息提醒 and 消息记录; a member switches a reminder off on the phone', (env) => {
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
});
