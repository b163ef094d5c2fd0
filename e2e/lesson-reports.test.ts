import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { addDays, mondayOf } from './seed.ts';
import { typeInto, typeRange } from './ui.ts';

/**
 * 私教报表 (issue 43 item 8): the manager opens the report for a range holding a teacher's two
 * lessons paid from a lesson pack sold today, and sees the lessons and their value by type and
 * teacher, the teacher's 排课率, the pack sold and consumed, and the 预收款 still owed on it.
 */
describeBrowser('私教报表', (env) => {
  it('shows lessons and their value, the teacher’s week, the pack sold and consumed, and what is still owed', async () => {
    const { page, api, server } = env();
    const tag = String(Date.now() % 100000);
    const { id: teacherId } = await api.ok<{ id: number }>('insert/teacher', { name: `报表老师${tag}` });
    // Tuesdays to Thursdays 09:00-12:00: nine hours a week.
    await api.ok('update/teacher/hours', {
      teacherId,
      weekly: [2, 3, 4].map((weekday) => ({ weekday, startTime: '09:00', endTime: '12:00' })),
    });
    const type = await api.ok<{ id: number }>('insert/lesson/type', {
      name: `报表私教${tag}`,
      kind: 'one_on_one',
      duration: 60,
      cancelCutoffMinutes: 0,
      teachers: [{ teacherId, level: null }],
      prices: [],
      areaIds: [],
      equipment: [],
      description: null,
    });
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `报表课包${tag}`,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 120000,
      courseIds: [type.id],
    });
    const member = await api.ok<{ id: number }>('insert/member', {
      name: `报表会员${tag}`,
      mobile: `139${tag.padStart(8, '0')}`,
      gender: 2,
    });
    // 4 lessons for 1,000.00 元: each is worth 250.00 元.
    const card = await api.ok<{ id: number }>('insert/member/card', {
      mid: member.id,
      cardId: pack.id,
      totalCount: 4,
      expireTime: null,
      payment: { amount: 100000, method: 'wechat', remark: null },
    });
    await api.ok('update/lesson/setting', { teacherConfirms: 0, confirmHours: 12 });
    const tuesday = addDays(mondayOf(1), 1);
    for (const date of [tuesday, addDays(tuesday, 1)]) {
      await api.ok('add/lesson', {
        courseId: type.id,
        teacherId,
        date,
        time: '10:00',
        members: [{ mid: member.id, mcId: card.id }],
      });
    }
    const from = addDays(mondayOf(0), 0);
    const to = addDays(mondayOf(1), 6);

    await page.goto(`${server.url}/report/lessons`);
    await page.getByText('私教报表').first().waitFor();
    await typeRange(page, page.getByTestId('report-range'), from, to);

    // 按课程和老师: two lessons, none taught yet, 2 lessons from the pack worth 500.00 元.
    const byType = page.getByTestId('lesson-report-by-type');
    const row = byType.locator('tr', { hasText: `报表私教${tag}` });
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).map((x) => x.trim())).toEqual([
      `报表私教${tag}`,
      '1对1',
      `报表老师${tag}`,
      '2',
      '0',
      '2',
      '0',
      '2',
      '0.00',
      '500.00',
    ]);
    await shot(page, 'lesson-reports-by-type');

    // 老师排课率: next week 9 hours of work, 2 of them booked.
    await page.getByRole('tab', { name: '老师排课率' }).click();
    const use = page.getByTestId('lesson-report-utilisation').locator('tr', { hasText: `报表老师${tag}` });
    await expect.poll(() => use.count()).toBe(2);
    const next = use.filter({ hasText: '22.2%' });
    expect((await next.locator('td').allInnerTexts()).slice(2)).toEqual(['9', '2', '2', '22.2%']);
    await shot(page, 'lesson-reports-utilisation');

    // 课包销售与消耗: one pack of 4 lessons sold for 1,000.00 元, 2 lessons (500.00 元) taken.
    await page.getByRole('tab', { name: '课包销售与消耗' }).click();
    const packs = page.getByTestId('lesson-report-packs');
    const packRow = packs.locator('tr', { hasText: `报表课包${tag}` });
    await packRow.waitFor();
    expect((await packRow.locator('td').allInnerTexts()).map((x) => x.trim())).toEqual([
      `报表课包${tag}`,
      '不限',
      '1',
      '4',
      '1000.00',
      '2',
      '500.00',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      packs.getByRole('button', { name: '导出Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`私教课包销售与消耗${from}至${to}.xlsx`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'lesson-report-packs.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => sheet.push((r.values as unknown[]).slice(1)));
    expect(sheet[0]).toEqual(['课包', '限定', '售出（张）', '售出课时', '收款（元）', '消耗课时', '消耗金额（元）']);
    expect(sheet).toContainEqual([`报表课包${tag}`, '不限', 1, 4, '1000.00', 2, '500.00']);

    // 预收款: 2 lessons left on the pack, 500.00 元 still owed; the total agrees with the server's.
    await page.getByRole('tab', { name: '预收款' }).click();
    const owedRow = page.getByTestId('lesson-report-owed').locator('tr', { hasText: `报表课包${tag}` });
    await owedRow.waitFor();
    expect((await owedRow.locator('td').allInnerTexts()).map((x) => x.trim())).toEqual([
      `报表课包${tag}`,
      '1',
      '2',
      '500.00',
    ]);
    const owed = await api.ok<{ asOf: string; total: { value: number } }>('query/report/lesson/outstanding', {});
    expect(await page.getByTestId('stat-owed-value').innerText()).toContain((owed.total.value / 100).toFixed(2));
    await shot(page, 'lesson-reports-owed');

    // 截至昨天: the pack was sold today, so it was owed nothing then; the figures are the server's as of that day.
    const yesterday = addDays(owed.asOf, -1);
    await typeInto(page, page.getByTestId('lesson-owed-date').locator('input'), yesterday);
    await expect.poll(() => page.getByTestId('lesson-owed-note').innerText()).toContain(`截至 ${yesterday} 当天结束`);
    await expect.poll(() => owedRow.count()).toBe(0);
    const then = await api.ok<{ total: { lessons: number } }>('query/report/lesson/outstanding', { date: yesterday });
    expect(await page.getByTestId('stat-owed-lessons').innerText()).toContain(String(then.total.lessons));
    await shot(page, 'lesson-reports-owed-yesterday');
  });
});
