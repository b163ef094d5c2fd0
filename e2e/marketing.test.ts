// 营销短信 (issue 44, item 7): the manager saves the marketing template, chooses leads as the audience,
// writes the text; the preview counts those who agreed and those left out (no consent), the send
// queues one text each (ending with 回T退订) and says so in a toast. The text's link opens the members'
// 退订 page on a phone: one tap, 已退订, and the lead is left out of the next preview.
import { expect, it } from 'vitest';
import { unsubscribeToken } from '../apps/server/src/features/marketing/token.ts';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { toast } from './ui.ts';

describeBrowser('营销短信 (店长)', (env) => {
  it('the manager previews who gets the text and who is left out, and sends it', async () => {
    const { server, page, api } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    await api.ok('update/sms/setting', {
      provider: 'tencent',
      keyId: 'AKIDe2e',
      secret: 'e2e-secret',
      signName: '悦动健身',
      templateId: '1000001',
      appId: '1400000000',
      region: '',
      endpoint: '',
      promotionTemplateId: '',
      dailyCap: 100,
    });
    // Two leads: one agreed at the desk (到店), one never asked.
    const yes = await api.ok<{ id: number }>('insert/lead', {
      name: '同意营销甲',
      mobile: '13955550001',
      source: '到店',
      ownerId: null,
    });
    await api.ok('insert/lead', { name: '未同意乙', mobile: '13955550002', source: '到店', ownerId: null });
    await api.ok('update/lead/consent', { id: yes.id, granted: true, way: 'visit' });
    const expected = await api.ok<{ recipients: number; excluded: number }>('query/marketing/preview', {
      members: false,
      leads: true,
    });
    expect(expected.recipients).toBeGreaterThanOrEqual(1);
    expect(expected.excluded).toBeGreaterThanOrEqual(1);

    await page.goto(`${server.url}/lead/marketing`);
    const setting = page.getByTestId('marketing-setting');
    await setting.getByTestId('marketing-template').fill('1000002');
    await setting.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '已保存');
    await setting.getByTestId('marketing-uplink').getByText(`/sms/uplink/tencent/${storeId}/`).waitFor();

    const send = page.getByTestId('marketing-send');
    // Leads instead of members.
    await send.getByTestId('marketing-members').click();
    await send.getByTestId('marketing-leads').click();
    // The form checks the text before calling the server.
    const submit = send.getByTestId('marketing-submit');
    await send.getByTestId('marketing-text').fill('周末瑜伽体验课八折，欢迎到店');
    const preview = send.getByTestId('marketing-preview');
    const stat = (title: string) =>
      preview.locator('.ant-statistic', { hasText: title }).locator('.ant-statistic-content-value');
    await expect.poll(() => stat('将收到').textContent()).toBe(String(expected.recipients));
    expect(await stat('未同意、已退订').textContent()).toBe(String(expected.excluded));
    await preview
      .getByTestId('marketing-sample')
      .getByText(/回T退订$/)
      .waitFor();
    await shot(page, 'marketing-send');

    await submit.click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /发\s*送/ })
      .click();
    await toast(page, `已提交发送给 ${expected.recipients} 人`);
    const queued = await server.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('topic', '=', 'sms.marketing')
      .execute();
    const texts = queued.map((r) => JSON.parse(r.payload) as { mobile: string; text: string });
    expect(texts.map((t) => t.mobile)).toContain('13955550001');
    expect(texts.map((t) => t.mobile)).not.toContain('13955550002');
    expect(texts.every((t) => t.text.startsWith('周末瑜伽体验课八折') && t.text.endsWith('回T退订'))).toBe(true);

    // The same text again (a second click, another tab): refused, saying why; nothing more queued.
    await send.getByTestId('marketing-text').fill('周末瑜伽体验课八折，欢迎到店');
    await expect.poll(() => stat('将收到').textContent()).toBe(String(expected.recipients));
    await submit.click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /发\s*送/ })
      .click();
    await toast(page, '这条营销短信刚刚已发送给同一批对象');
    expect(
      await server.database.db.selectFrom('outbox').select('id').where('topic', '=', 'sms.marketing').execute(),
    ).toHaveLength(queued.length);

    // 发送记录: the send with its time, sender, text, audience and counts.
    await page.getByRole('tab', { name: '发送记录' }).click();
    const sends = page.getByTestId('marketing-sends');
    const row = sends.locator('tbody tr', { hasText: '周末瑜伽体验课八折' });
    await row.getByText(`${expected.recipients} 人（会员 0，潜客 ${expected.recipients}）`).waitFor();
    await row.getByText(`未同意不发送 ${expected.excluded} 人`).waitFor();
    await row.getByText('潜客', { exact: true }).waitFor();
    await row
      .getByTestId('marketing-send-result')
      .getByText(/已发送 \d+/)
      .waitFor();
    const [h] = (
      await api.ok<{ list: { sent: number; failed: number; withdrawn: number; waiting: number }[] }>(
        'query/marketing/send/list',
        { page: 1 },
      )
    ).list;
    expect(h.sent + h.failed + h.withdrawn + h.waiting).toBe(expected.recipients);
    expect(await sends.locator('tbody tr').count()).toBe(1);
    await shot(page, 'marketing-sends');
  });

  it('the link in the text opens the 退订 page on a phone: one tap, 已退订, left out of the next send', async () => {
    const { server, browser, api } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const lead = await api.ok<{ id: number }>('insert/lead', {
      name: '退订测试丙',
      mobile: '13955550003',
      source: '电话',
      ownerId: null,
    });
    await api.ok('update/lead/consent', { id: lead.id, granted: true, way: 'phone' });
    const before = await api.ok<{ recipients: number }>('query/marketing/preview', { members: false, leads: true });
    const token = await unsubscribeToken(server.database.db, storeId, '13955550003');
    const [context, page] = await phoneContext(browser);
    try {
      await page.goto(`${server.url}/m/?u=${token}`);
      const screen = page.getByTestId('unsubscribe');
      await screen.getByText('退订悦动健身工作室的营销短信').waitFor();
      await shot(page, 'unsubscribe-ask');
      await screen.getByTestId('unsubscribe-submit').tap();
      await screen.getByText('已退订').waitFor();
      await shot(page, 'unsubscribe-done');
    } finally {
      await context.close();
    }
    const info = await api.ok<{ consents: { granted: boolean; way: string }[] }>('query/lead/info', { id: lead.id });
    expect(info.consents[0]).toMatchObject({ granted: false, way: 'link' });
    const after = await api.ok<{ recipients: number }>('query/marketing/preview', { members: false, leads: true });
    expect(after.recipients).toBe(before.recipients - 1);
  });
});
