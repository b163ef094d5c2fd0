import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { modal, toast, typeRange } from './ui.ts';

const HEADINGS = ['上课时间', '上课老师', '会员', '会员卡', '扣除', '手机号', '课程名称', '上课人数', '备注', '状态'];

async function readSheet(file: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describeBrowser('export', (env) => {
  it('exports a date range to an .xlsx with the nine headings and the rows', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '导');
    const day = addDays(mondayOf(6), 2);
    const tid = await addSession(api, f, day, '21:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 2, remark: '带孩子' });

    await page.goto(`${server.url}/course/calendar`);
    await page.getByRole('button', { name: '导出预约' }).click();
    const m = modal(page, '导出预约');
    await typeRange(page, m.locator('.ant-picker-range'), day, day);
    await shot(page, 'modal-export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      m.getByRole('button', { name: /导\s*出/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`【团课】${day}-${day}预约.xlsx`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'range-export.xlsx');
    await download.saveAs(file);
    await toast(page, '操作成功');
    const rows = await readSheet(file);
    expect(rows[0]).toEqual(HEADINGS);
    expect(rows.length).toBe(2);
    const [courseTime, teacher, member, card, used, mobile, courseName, count, remark, state] = rows[1];
    expect(String(courseTime)).toContain(`${day} 21:00`);
    expect(teacher).toBe(f.teacherName);
    expect(member).toBe(f.memberName);
    expect(card).toBe(`十次卡导${f.courseName.slice(3)}`);
    // Deductions read as on the screens: classes for count cards (yuan for money cards, below).
    expect(used).toBe('2 次');
    expect(mobile).toBe(f.memberMobile);
    expect(courseName).toBe(f.courseName);
    expect(count).toBe(2);
    expect(remark).toBe('带孩子');
    // 状态: what became of the booking (a class not held yet: booked).
    expect(state).toBe('已预约');
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
    expect(rows[1][4]).toBe('50.00 元');

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
