// 会员导入 (issue 30 item 5-6): a manager opens 会员 → 导入, uploads another system's CSV, maps a
// column the headings do not name, gets the dry run's problems row by row, uploads the corrected
// file and imports it, its bar showing the members and cards written; 导出全部数据 downloads the
// store's workbook, its bar showing the rows written of the store's total.
import fs from 'node:fs';
import path from 'node:path';
import { NO_PREPAID_LIMITS } from '@studio/contract';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { pickIn } from './ui.ts';

const mobile = (i: number) =>
  `137${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}${String(i).padStart(4, '0')}`;

/** A 次卡 of 365 days sold at 1,000 元, named `name` and a number; answers its name. */
async function countCard(api: { ok: (path: string, body: Record<string, unknown>) => Promise<unknown> }, name: string) {
  const cardName = `${name}${Date.now() % 100000}`;
  const card = { bigType: 1, cardType: 1, validDays: 365, perCount: 1, price: 100000, courseIds: [] };
  await api.ok('insert/card/product', { cardName, ...card });
  return cardName;
}

describeBrowser('member import (会员导入)', (env) => {
  it('uploads a file with errors, then the corrected file, maps its columns, checks it and imports it', async () => {
    const { page, api, server } = env();
    const product = await countCard(api, '导入次卡');
    const people = [0, 1, 2, 3].map((i) => ({ name: `导入会员${i}`, mobile: mobile(i) }));
    // Another system's headings: 课时余额 is not one the import guesses.
    const head = '会员姓名,手机号码,性别,卡类型,课时余额,到期日期';
    const bad = [
      head,
      `${people[0].name},${people[0].mobile},男,${product},10,2030-12-31`,
      `${people[1].name},1380013,女,${product},5,2030-12-31`,
      `${people[2].name},${people[2].mobile},女,黄金卡,5,2030-12-31`,
      `${people[3].name},${people[3].mobile},女,${product},-3,2030-12-31`,
    ].join('\n');
    const good = [
      head,
      `${people[0].name},${people[0].mobile},男,${product},10,2030-12-31`,
      `${people[1].name},${people[1].mobile},女,${product},5,2030-12-31`,
      `${people[2].name},${people[2].mobile},女,${product},5,2030-12-31`,
      `${people[3].name},${people[3].mobile},女,,,`,
    ].join('\n');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const badFile = path.join(ARTIFACTS, 'import-bad.csv');
    const goodFile = path.join(ARTIFACTS, 'import-good.csv');
    fs.writeFileSync(badFile, `\uFEFF${bad}`);
    fs.writeFileSync(goodFile, `\uFEFF${good}`);

    // 会员 → 会员导入 from the side menu.
    await page.goto(`${server.url}/member/list`);
    await page.getByRole('menuitem', { name: '会员导入' }).click();
    await page.waitForURL('**/member/import');
    await page.getByText('点击或拖入 .xlsx 或 .csv 文件').waitFor();
    await shot(page, 'import-upload');
    await page.locator('input[type=file]').setInputFiles(badFile);

    // The mapping: guessed from the headings, 课时余额 chosen by hand.
    const mapping = page.getByRole('table', { name: '列对应' });
    await mapping.waitFor();
    await expect.poll(() => page.getByText('共 4 行会员数据').count()).toBe(1);
    const select = (column: string) => mapping.getByRole('row').filter({ hasText: column }).locator('.ant-select');
    expect(await select('会员姓名').innerText()).toContain('姓名');
    expect(await select('卡类型').innerText()).toContain('卡种');
    expect(await select('课时余额').innerText()).toContain('不导入');
    await pickIn(page, select('课时余额'), '剩余次数或余额');
    await shot(page, 'import-mapping');
    await page.getByRole('button', { name: '预 检' }).click();

    // The dry run: each problem with its row, column and reason; nothing can be imported.
    const report = page.getByRole('table', { name: '预检问题' });
    await report.waitFor();
    await page.getByText('文件中有 3 处问题').waitFor();
    const rows = report.locator('.ant-table-tbody tr.ant-table-row');
    expect(await rows.count()).toBe(3);
    expect((await rows.nth(0).innerText()).replace(/\s+/g, ' ')).toContain('3 手机号码 手机号格式不正确');
    expect((await rows.nth(1).innerText()).replace(/\s+/g, ' ')).toContain('4 卡类型 卡种不存在');
    expect((await rows.nth(2).innerText()).replace(/\s+/g, ' ')).toContain('5 课时余额 余额为负');
    expect(await page.getByRole('button', { name: '开始导入' }).isDisabled()).toBe(true);
    await shot(page, 'import-dry-run-errors');

    // The corrected file: the hand-made choice is kept, the dry run passes, the import runs.
    await page.getByRole('button', { name: '重新上传' }).click();
    await page.locator('input[type=file]').setInputFiles(goodFile);
    await mapping.waitFor();
    expect(await select('课时余额').innerText()).toContain('剩余次数或余额');
    await page.getByRole('button', { name: '预 检' }).click();
    await page.getByText('预检通过').waitFor();
    expect(await page.getByText('将新增 4 位会员').count()).toBe(1);
    await shot(page, 'import-dry-run-ok');
    await page.getByRole('button', { name: '开始导入' }).click();
    await page.locator('.ant-result-title', { hasText: '导入完成' }).waitFor();
    expect(await page.getByText('已新增 4 位会员').count()).toBe(1);
    // The import's bar with the server's own figures: 4 members and 3 cards written, of 7.
    const bar = page.getByTestId('import-progress');
    await expect
      .poll(() => bar.getByTestId('import-progress-text').innerText())
      .toBe('已导入 7 / 7 条（会员和会员卡）');
    expect(await bar.locator('.ant-progress-status-success').count()).toBe(1);
    await shot(page, 'import-done');
    const found = await api.ok<{ list: { id: number; name: string; mobile: string }[] }>('query/member/list', {
      page: 1,
      pageSize: 50,
      param: '导入会员',
    });
    expect(found.list.map((m) => m.mobile).sort()).toEqual(people.map((p) => p.mobile).sort());
    const first = found.list.find((m) => m.mobile === people[0].mobile)!;
    const info = await api.ok<{ cards: { totalCount: number; usedCount: number; expireTime: string }[] }>(
      'query/member/info',
      { id: first.id },
    );
    expect(info.cards.map((c) => [c.totalCount - c.usedCount, c.expireTime])).toEqual([[10, '2030-12-31 23:59:59']]);

    // 导出全部数据: the store's workbook, a sheet each.
    await page.getByRole('button', { name: '继续导入' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出全部数据' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/全部数据-\d{8}\.xlsx$/);
    const file = path.join(ARTIFACTS, 'export-all.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['会员', '会员卡', '流水', '预约', '课程', '订单', '收款']);
    const mobiles: string[] = [];
    wb.getWorksheet('会员')!.eachRow((r) => mobiles.push(String((r.values as unknown[])[2])));
    for (const p of people) expect(mobiles).toContain(p.mobile);
    // The export's bar: every row of every sheet written, of the store's total counted first.
    const rowsWritten = wb.worksheets.reduce((n, w) => n + w.actualRowCount - 1, 0);
    const exported = page.getByTestId('export-progress');
    await expect
      .poll(() => exported.getByTestId('export-progress-text').innerText())
      .toBe(`已导出 ${rowsWritten.toLocaleString('zh-CN')} / ${rowsWritten.toLocaleString('zh-CN')} 行`);
    expect(await exported.locator('.ant-progress-status-success').count()).toBe(1);
    await shot(page, 'export-done');
  });

  it('the template has a 潜客 sheet; a workbook with members and leads imports both, a known mobile merged', async () => {
    const { page, api, server } = env();
    await page.goto(`${server.url}/member/import`);
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'download 下载导入模板', exact: true }).click(),
    ]);
    const templateFile = path.join(ARTIFACTS, 'import-template.xlsx');
    await template.saveAs(templateFile);
    const tw = new ExcelJS.Workbook();
    await tw.xlsx.readFile(templateFile);
    expect(tw.worksheets.map((w) => w.name)).toEqual(['会员卡', '潜客']);
    expect((tw.getWorksheet('潜客')!.getRow(1).values as unknown[]).slice(1)).toEqual([
      '姓名',
      '手机号',
      '来源',
      '跟进人',
      '阶段',
      '备注',
      '营销同意',
    ]);

    const known = mobile(90);
    await api.ok('insert/lead', { name: '老潜客', mobile: known, source: '电话', ownerId: null });
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('会员卡').addRows([
      ['姓名', '手机号'],
      ['表格会员', mobile(91)],
    ]);
    wb.addWorksheet('潜客').addRows([
      ['姓名', '手机号', '来源', '跟进人', '阶段', '备注', '营销同意'],
      ['表格潜客甲', mobile(92), '团购', '', '已联系', '想练普拉提', '是'],
      ['表格潜客乙', mobile(93), '', '', '', '', ''],
      ['老潜客', known, '', '', '', '又来电', ''],
    ]);
    const file = path.join(ARTIFACTS, 'import-leads.xlsx');
    await wb.xlsx.writeFile(file);
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('table', { name: '列对应' }).waitFor();
    await page.getByRole('button', { name: '预 检' }).click();
    await page.getByText('预检通过').waitFor();
    await page.getByText('将新增 2 位潜客').first().waitFor();
    await page.getByText('将合并 1 位已有潜客').first().waitFor();
    await page.getByText('潜客表中 1 行需要留意').waitFor();
    expect(await page.getByText('超出本店的预付卡限额').count()).toBe(0);
    await shot(page, 'import-leads-dry-run');
    await page.getByRole('button', { name: '开始导入' }).click();
    await page.locator('.ant-result-title', { hasText: '导入完成' }).waitFor();
    await page.getByText('已新增 2 位潜客').first().waitFor();
    const leads = await api.ok<{ list: { name: string; stage: string; source: string }[] }>('query/lead/list', {
      scope: 'all',
      param: '表格潜客',
      page: 1,
    });
    expect(leads.list.map((l) => [l.name, l.stage, l.source]).sort()).toEqual([
      ['表格潜客乙', 'new', '导入'],
      ['表格潜客甲', 'contacted', '团购'],
    ]);

    // A workbook of only a 潜客 sheet: nothing to map, straight to 预检.
    const only = new ExcelJS.Workbook();
    only.addWorksheet('潜客').addRows([
      ['姓名', '手机号', '来源', '跟进人', '阶段', '备注', '营销同意'],
      ['单表潜客', mobile(94), '', '', '', '', ''],
    ]);
    const onlyFile = path.join(ARTIFACTS, 'import-leads-only.xlsx');
    await only.xlsx.writeFile(onlyFile);
    await page.getByRole('button', { name: '继续导入' }).click();
    await page.locator('input[type=file]').setInputFiles(onlyFile);
    await page.getByText('只有潜客表，无需对应列，可直接预检').waitFor();
    await page.getByText('潜客表共 1 行').waitFor();
    expect(await page.getByRole('table', { name: '列对应' }).count()).toBe(0);
    await shot(page, 'import-leads-only');
    await page.getByRole('button', { name: '预 检' }).click();
    await page.getByText('预检通过').waitFor();
    await page.getByRole('button', { name: '开始导入' }).click();
    await page.getByText('已新增 1 位潜客').first().waitFor();
  });

  it("warns in the dry run and after the import of the cards over the store's prepaid limits, and imports them", async () => {
    const { page, api, server } = env();
    const product = await countCard(api, '限额次卡');
    await api.ok('update/prepaid/limit/setting', { ruleSet: 'shanghai2025', custom: NO_PREPAID_LIMITS });
    const [over, within] = [mobile(7), mobile(8)];
    const text = [
      '会员姓名,手机号码,卡类型,剩余次数或余额,实付金额',
      `超额会员,${over},${product},80,25000`,
      `正常会员,${within},${product},10,1000`,
    ].join('\n');
    const file = path.join(ARTIFACTS, 'import-over-limits.csv');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(file, `\uFEFF${text}`);
    try {
      await page.goto(`${server.url}/member/import`);
      await page.getByText('点击或拖入 .xlsx 或 .csv 文件').waitFor();
      await page.locator('input[type=file]').setInputFiles(file);
      await page.getByRole('table', { name: '列对应' }).waitFor();
      await page.getByRole('button', { name: '预 检' }).click();
      await page.getByText('预检通过').waitFor();
      await page.getByText('1 张卡超出本店的预付卡限额').waitFor();
      const warned = page.getByRole('table', { name: '超出预付卡限额的卡' });
      const rows = warned.locator('.ant-table-tbody tr.ant-table-row');
      expect(await rows.count()).toBe(1);
      const line = (await rows.nth(0).innerText()).replace(/\s+/g, ' ');
      expect(line).toContain('2 - 超出预付卡限额');
      expect(line).toContain('课时数不超过60节，本次80节');
      expect(await page.getByRole('button', { name: '开始导入' }).isDisabled()).toBe(false);
      await shot(page, 'import-prepaid-warnings');
      await page.getByRole('button', { name: '开始导入' }).click();
      await page.locator('.ant-result-title', { hasText: '导入完成' }).waitFor();
      expect(await page.getByText('已新增 2 位会员').count()).toBe(1);
      expect(await page.getByText('1 张卡超出本店的预付卡限额').count()).toBe(1);
      const found = await api.ok<{ list: { mobile: string }[] }>('query/member/list', {
        page: 1,
        pageSize: 50,
        param: over,
      });
      expect(found.list.map((m) => m.mobile)).toEqual([over]);
    } finally {
      await api.ok('update/prepaid/limit/setting', { ruleSet: 'none', custom: NO_PREPAID_LIMITS });
    }
  });
});
