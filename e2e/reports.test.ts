import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { typeRange } from './ui.ts';

async function readSheet(file: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** How many distinct colours a chart's canvas shows (a blank canvas has one); runs in the page. */
function canvasColours(id: string): number {
  const canvas = document.querySelector(`[data-testid="${id}"] canvas`) as HTMLCanvasElement | null;
  if (!canvas) return 0;
  const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

describeBrowser('reports (数据报表) and card alerts', (env) => {
  it('shows the overview of a chosen range, paints the charts, and exports a report that reads back', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '报');
    // Two classes next week: one booked by 2 people, one empty.
    const from = mondayOf(30); // beyond the demo store's classes
    const to = addDays(from, 6);
    const tid = await addSession(api, f, addDays(from, 1), '09:00', { count: 10 });
    await addSession(api, f, addDays(from, 3), '19:00', { count: 8 });
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 2, remark: '' });
    const want = await api.ok<{ sessions: number; seats: number; booked: number }>('query/report/overview', {
      fromDate: from,
      toDate: to,
    });
    expect(want).toMatchObject({ sessions: 2, seats: 18, booked: 2 });

    await page.goto(`${server.url}/report/overview`);
    await page.getByText('数据报表').first().waitFor();
    await typeRange(page, page.getByTestId('report-range'), from, to);
    const overview = page.getByTestId('report-overview');
    await expect.poll(() => page.getByTestId('stat-sessions').innerText()).toContain('2');
    expect(await page.getByTestId('stat-seats').innerText()).toContain('18');
    expect(await page.getByTestId('stat-booked').innerText()).toContain('2');
    expect(await page.getByTestId('stat-fill').innerText()).toContain('11.1%');
    await overview.waitFor();
    // The daily trend's chart has drawn lines (more than a blank canvas's one colour).
    await expect.poll(() => page.evaluate(canvasColours, 'report-by-day-chart')).toBeGreaterThan(3);
    await shot(page, 'reports-overview');

    await page.getByRole('tab', { name: '按时段' }).click();
    await expect.poll(() => page.evaluate(canvasColours, 'report-by-slot-chart')).toBeGreaterThan(3);
    await shot(page, 'reports-heatmap');

    await page.getByRole('tab', { name: '按课程' }).click();
    const section = page.getByTestId('report-by-course');
    await section.getByRole('cell', { name: f.courseName }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: '导出Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`按课程统计${from}至${to}.xlsx`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'report-by-course.xlsx');
    await download.saveAs(file);
    const rows = await readSheet(file);
    expect(rows[0]).toEqual(['课程', '课程节数', '座位数', '预约人数', '上座率']);
    expect(rows.slice(1)).toEqual([[f.courseName, 2, 18, 2, '11.1%']]);
  });

  it('draws the trend and the heatmap with their labels apart on the usual desk screens', async () => {
    const { page, server } = env();
    // The demo studio's own month: every day and hour has classes to draw.
    for (const [width, height] of [
      [1366, 768],
      [1920, 1080],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto(`${server.url}/report/overview`);
      await expect.poll(() => page.evaluate(canvasColours, 'report-by-day-chart')).toBeGreaterThan(3);
      expect(await page.getByTestId('stat-late').innerText()).toContain('迟到取消');
      await page
        .getByTestId('report-by-day-chart')
        .screenshot({ path: path.join(ARTIFACTS, `reports-trend-${width}.png`) });
      await page.getByRole('tab', { name: '按时段' }).click();
      await expect.poll(() => page.evaluate(canvasColours, 'report-by-slot-chart')).toBeGreaterThan(3);
      await page
        .getByTestId('report-by-slot-chart')
        .screenshot({ path: path.join(ARTIFACTS, `reports-heatmap-${width}.png`) });
    }
  });

  it('lists cards running low with a link to the member', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '醒');
    // The fixture's card holds 10 classes; using 9 leaves 1, at or below the default of 2.
    const used = await api.ok<{ id: number }>('insert/member/card', {
      mid: f.memberId,
      cardId: f.productId,
      totalCount: 1,
      expireTime: null,
    });
    await page.goto(`${server.url}/card/alert`);
    await page.getByTestId('alert-search').locator('input').fill(f.memberName);
    await page.getByTestId('alert-search').locator('input').press('Enter');
    const row = page.locator('tr', { hasText: f.memberName }).filter({ hasText: '1 次' });
    await row.waitFor();
    expect(await row.innerText()).toContain('次数不足');
    expect(used.id).toBeGreaterThan(0);
    await shot(page, 'card-alerts');
    // The daily digest: switched on at 08:30 with the conditions on screen.
    const digest = page.getByTestId('digest-setting');
    await digest.getByRole('switch').click();
    await digest.locator('.ant-picker input').click();
    await digest.locator('.ant-picker input').fill('08:30');
    await page.keyboard.press('Enter');
    await digest.getByRole('button', { name: '保存推送设置' }).click();
    await page.locator('.ant-message-notice', { hasText: '保存成功' }).waitFor();
    expect(await api.ok('query/card/alert/digest', {})).toEqual({
      enabled: 1,
      time: '08:30',
      days: 30,
      minCount: 2,
      minMoney: 10000,
    });
    // The other tab lists members who have not come (the fixture's member never booked a class).
    await page.getByRole('tab', { name: '久未到店' }).click();
    await page.getByTestId('inactive-days').waitFor();
    await page.getByRole('tab', { name: '会员卡提醒' }).click();
    await row.getByRole('link', { name: f.memberName }).click();
    await page.waitForURL(/\/member\/detail\?member_id=/);
    expect(page.url()).toContain(`member_id=${f.memberId}`);
  });
});
