import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { modal, toast } from './ui.ts';

const HEADINGS = [
  '上课时间',
  '上课老师',
  '会员',
  '会员卡',
  '扣除',
  '单位',
  '手机号',
  '课程名称',
  '场地',
  '上课人数',
  '备注',
  '状态',
];

async function readSheet(file: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describeBrowser('export', (env) => {
  it('starts from the week in view and exports it to an .xlsx: 扣除 a number, 单位, 场地 and 状态', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '导');
    const monday = mondayOf(6);
    const sunday = addDays(monday, 6);
    const day = addDays(monday, 2);
    const tid = await addSession(api, f, day, '21:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 2, remark: '带孩子' });
    const tree = await api.ok<{ id: number; children: { id: number; name: string }[] }[]>('query/area/tree');
    const room = tree.flatMap((v) => v.children).find((r) => r.id === f.roomId)!.name;

    // The calendar shows that week: the export starts from it, nothing to type.
    await page.goto(`${server.url}/course/calendar?date=${day}`);
    await page.locator(`.session-event[data-session-id="${tid}"]`).waitFor();
    await page.getByRole('button', { name: '导出预约' }).click();
    const m = modal(page, '导出预约');
    const inputs = m.locator('.ant-picker-range input');
    expect([await inputs.nth(0).inputValue(), await inputs.nth(1).inputValue()]).toEqual([monday, sunday]);
    await shot(page, 'modal-export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      m.getByRole('button', { name: /导\s*出/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`【团课】${monday}-${sunday}预约.xlsx`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'range-export.xlsx');
    await download.saveAs(file);
    await toast(page, '操作成功');
    const rows = await readSheet(file);
    expect(rows[0]).toEqual(HEADINGS);
    const mine = rows.slice(1).filter((r) => r[2] === f.memberName);
    expect(mine.length).toBe(1);
    const [courseTime, teacher, member, card, used, unit, mobile, courseName, area, count, remark, state] = mine[0];
    expect(String(courseTime)).toContain(`${day} 21:00`);
    expect(teacher).toBe(f.teacherName);
    expect(member).toBe(f.memberName);
    expect(card).toBe(`十次卡导${f.courseName.slice(3)}`);
    // 扣除 is a number (it adds up in Excel), its unit beside it: classes for count cards.
    expect(used).toBe(2);
    expect(unit).toBe('次');
    expect(mobile).toBe(f.memberMobile);
    expect(courseName).toBe(f.courseName);
    // 场地: the session's room.
    expect(area).toBe(room);
    expect(count).toBe(2);
    expect(remark).toBe('带孩子');
    // 状态: what became of the booking (a class not held yet: booked).
    expect(state).toBe('已预约');
  });

  it('export: another week in view, another range', async () => {
    const { page, server } = env();
    const monday = mondayOf(9);
    await page.goto(`${server.url}/course/calendar?date=${addDays(monday, 3)}`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    await page.getByRole('button', { name: '导出预约' }).click();
    const inputs = modal(page, '导出预约').locator('.ant-picker-range input');
    await expect.poll(() => inputs.nth(0).inputValue()).toBe(monday);
    expect(await inputs.nth(1).inputValue()).toBe(addDays(monday, 6));
    await modal(page, '导出预约')
      .getByRole('button', { name: /取\s*消/ })
      .click();
  });

  it('exports one session from its drawer, named by start time and course', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '单导');
    // A money card the course accepts: 50.00 元 a class.
    const wallet = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `储值卡单导${f.memberId}`,
      bigType: 2,
      cardType: 2,
      perCount: 5000,
      price: 100000,
      courseIds: [f.courseId],
    });
    const mc = await api.ok<{ id: number }>('insert/member/card', {
      mid: f.memberId,
      cardId: wallet.id,
      totalCount: 100000,
    });
    const day = addDays(mondayOf(6), 4);
    const tid = await addSession(api, f, day, '21:00');
    await api.ok('add/member/reservation', { mcId: mc.id, tid, studentCount: 1 });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: '导出本节预约' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${day} 2100${f.courseName.slice(0, 15)}.xlsx`);
    const file = path.join(ARTIFACTS, 'session-export.xlsx');
    await download.saveAs(file);
    const rows = await readSheet(file);
    expect(rows[0]).toEqual(HEADINGS);
    expect(rows[1][2]).toBe(f.memberName);
    // A money card: 50 in 元 (a number with two decimals shown).
    expect(rows[1][4]).toBe(50);
    expect(rows[1][5]).toBe('元');

    // A course name with characters no file name takes: each becomes _.
    const odd = await api.ok<{ id: number }>('insert/store/course', {
      name: `瑜伽/普拉提:入门?${f.memberId}`,
      count: 12,
      duration: 60,
      color: '#52c41a',
      cardIds: [f.productId],
    });
    await api.ok('insert/timetable', {
      courseId: odd.id,
      teacherId: f.teacherId,
      reservableCount: 12,
      date: day,
      time: '07:00',
      isOnline: 0,
      areaId: f.roomId,
      bookId: null,
    });
    const days = await api.ok<{ list: { id: number; courseName: string }[] }[]>('query/timetable/by/date', {
      fromDate: day,
      toDate: day,
    });
    const oddId = days.flatMap((d) => d.list).find((x) => x.courseName.startsWith('瑜伽/普拉提'))!.id;
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${oddId}`);
    const [oddDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.ant-drawer', { hasText: '课程详情' }).getByRole('button', { name: '导出本节预约' }).click(),
    ]);
    expect(oddDownload.suggestedFilename()).toBe(`${day} 0700${`瑜伽_普拉提_入门_${f.memberId}`.slice(0, 15)}.xlsx`);
  });
});
