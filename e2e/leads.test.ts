// 潜客 (issue 44): a seller (the desk account) adds a lead, follows it up and moves its stage in the
// drawer, sees it in 我的待跟进; the manager sees the path in 转化漏斗, opens the list behind a
// number and exports the funnel.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { Api, ARTIFACTS, DESK, describeBrowser, loginWithCookie, newContext, shot } from './harness.ts';
import { field, modal, pick, toast, typeInto } from './ui.ts';

const LEAD = { name: '体验潜客王', mobile: '13911112222' };
const drawer = (page: Page) => page.locator('.ant-drawer', { hasText: `潜客 ${LEAD.name}` });

describeBrowser('leads (潜客) and the funnel', (env) => {
  it('a seller adds a lead, follows up, moves its stage; the manager sees the funnel', async () => {
    const { browser, server, page: managerPage, api } = env();
    // The demo store's day (its time zone: Asia/Shanghai).
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());

    // The seller: the demo store's desk account, in its own browser context.
    const deskApi = new Api(server.url);
    await deskApi.login(DESK.account, DESK.password);
    const context = await newContext(browser);
    await loginWithCookie(context, deskApi);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);

    await page.goto(`${server.url}/lead/list`);
    await page.getByRole('tab', { name: '我的潜客' }).waitFor();
    await page.getByRole('button', { name: '添加潜客' }).click();
    const add = modal(page, '添加潜客');
    // The form checks with the contract's words before calling the server.
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await add.getByText('请输入潜客姓名').waitFor();
    await field(add, '姓名').locator('input').fill(LEAD.name);
    await field(add, '手机号').locator('input').fill(LEAD.mobile);
    await pick(page, field(add, '来源'), '团购');
    await field(add, '意向').locator('input').fill('普拉提');
    await shot(page, 'leads-add');
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '已添加');

    // The drawer of the new lead: follow up by WeChat with a next date of today.
    const d = drawer(page);
    await d.getByTestId('lead-fields').getByText('新线索').waitFor();
    await field(d, '方式').getByText('微信').click();
    await field(d, '跟进内容').locator('textarea').fill('加了微信，发了课表');
    await typeInto(page, field(d, '下次跟进日期').locator('input'), today);
    await d.getByRole('button', { name: '记录跟进' }).click();
    await toast(page, '已记录跟进');
    await d.getByTestId('lead-follow-ups').getByText('加了微信，发了课表').waitFor();
    await d.getByTestId('lead-fields').getByText('已联系').waitFor();
    // Stage: 已约体验.
    await pick(page, field(d, '阶段').last(), '已约体验');
    await d.getByRole('button', { name: '保存阶段' }).click();
    await toast(page, '阶段已修改');
    await d.getByTestId('lead-fields').getByText('已约体验').waitFor();
    await shot(page, 'lead-drawer');
    await d.locator('.ant-drawer-close').click();
    await d.waitFor({ state: 'hidden' });

    // 我的待跟进: due today.
    await page.getByRole('tab', { name: '我的待跟进' }).click();
    const todo = page.getByTestId('lead-todo').locator('tr', { hasText: LEAD.name });
    expect(await todo.innerText()).toContain('今天');
    await shot(page, 'lead-todo');

    // The manager's 转化漏斗 of this month: the lead, contacted, trial booked.
    const led = await api.ok<{ list: { id: number; stage: string }[] }>('query/lead/list', {
      scope: 'all',
      param: LEAD.mobile,
      page: 1,
    });
    expect(led.list.map((l) => l.stage)).toEqual(['trial_booked']);
    const mp = managerPage;
    await mp.goto(`${server.url}/lead/funnel`);
    const total = mp.getByTestId('funnel-total');
    await expect.poll(() => total.getByTestId('funnel-trialBooked-全部').innerText()).toBe('1');
    expect(await total.getByTestId('funnel-leads-全部').innerText()).toBe('1');
    expect(await total.getByTestId('funnel-contacted-全部').innerText()).toBe('1');
    expect(await total.getByTestId('funnel-converted-全部').innerText()).toBe('0');
    await shot(mp, 'lead-funnel');
    // The list behind the 团购 row's 已约体验.
    await mp.getByTestId('funnel-trialBooked-团购').click();
    const list = modal(mp, '团购 · 已约体验');
    await list.getByTestId('funnel-list').getByText(LEAD.name).waitFor();
    await shot(mp, 'lead-funnel-list');
    await list.locator('.ant-modal-close').click();
    await list.waitFor({ state: 'hidden' });

    const [download] = await Promise.all([
      mp.waitForEvent('download'),
      mp.getByRole('button', { name: '导出Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^转化漏斗_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'lead-funnel.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['步骤', '人数', '占新增潜客'],
      ['新增潜客', 1, '100.0%'],
      ['已联系', 1, '100.0%'],
      ['已约体验', 1, '100.0%'],
      ['已体验', 0, '0.0%'],
      ['已成交', 0, '0.0%'],
    ]);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['漏斗', '按来源', '按跟进人']);
    await context.close();
  });
});
