import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { confirmBulk, field, modal, pickIn, toast, typeInto } from './ui.ts';

/** Chooses the week holding `date` in the week picker of `container` (month by month to its day). */
async function pickWeek(page: Page, container: Locator, date: string): Promise<void> {
  await container.locator('.ant-picker').first().click();
  const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').last();
  const target = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  for (let i = 0; i < 36; i++) {
    const year = parseInt(await panel.locator('.ant-picker-year-btn').innerText(), 10);
    const month = parseInt(await panel.locator('.ant-picker-month-btn').innerText(), 10);
    const shown = year * 12 + month;
    if (shown === target) break;
    await panel.locator(shown < target ? '.ant-picker-header-next-btn' : '.ant-picker-header-prev-btn').click();
  }
  await panel.locator(`td[title="${date}"].ant-picker-cell-in-view`).click();
  await panel.waitFor({ state: 'hidden' });
}

/** 138****5678. */
const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;

describeBrowser('从课表生成 (the weekly template from a week of the timetable)', (env) => {
  it('starts from the demo’s week; 从课表生成 previews a week and replaces the template; the template schedules the same classes; its undo names the refund', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '模');
    const tree = await api.ok<{ id: number; children: { id: number; name: string }[] }[]>('query/area/tree');
    const room = tree.flatMap((v) => v.children).find((r) => r.id === f.roomId)!.name;
    // The week to take: two classes of the fixture, in the room and without a venue.
    const source = mondayOf(4);
    await addSession(api, f, addDays(source, 1), '08:00');
    await addSession(api, f, addDays(source, 3), '19:30', { areaId: null });

    // 周固定课表 is not empty: the demo's recurring week is there.
    await page.goto(`${server.url}/course/fix_booking_timetable`);
    const rows = page.getByTestId('fix-row');
    await rows.first().waitFor();
    const demoRows = (await api.ok<unknown[]>('query/fix/timetable/list')).length;
    expect(demoRows).toBeGreaterThan(20);
    expect(await rows.count()).toBe(demoRows);
    await shot(page, 'template-demo-week');

    // A week without classes is refused, saying so.
    await page.getByRole('button', { name: '从课表生成' }).click();
    const m = modal(page, '从课表生成周课表');
    await pickWeek(page, m, addDays(mondayOf(9), 2));
    await m.getByRole('button', { name: /预\s*览/ }).click();
    await toast(page, '所选的一周没有课程，无法生成周课表，请选择有课程的一周');

    // The fixture's week: the preview lists the rows it makes, and asks replace or add.
    await pickWeek(page, m, addDays(source, 2));
    await m.getByRole('button', { name: /预\s*览/ }).click();
    const preview = m.getByTestId('from-week-preview');
    await preview.waitFor();
    const text = await preview.innerText();
    expect(text).toContain(`将按 ${source} 起这一周的 2 节课生成周课表`);
    expect(text).toContain(`周二 08:00 ${f.courseName} · ${f.teacherName} · ${room} · 12人`);
    expect(text).toContain(`周四 19:30 ${f.courseName} · ${f.teacherName} · 12人`);
    expect(text).toContain(`周课表现在有 ${demoRows} 节课`);
    await m.getByText('替换现有').waitFor();
    await m.getByText('添加到现有').waitFor();
    await shot(page, 'template-from-week-preview');
    // Nothing written by the preview.
    expect((await api.ok<unknown[]>('query/fix/timetable/list')).length).toBe(demoRows);
    await m.getByRole('button', { name: '替换并生成' }).click();
    await toast(page, '已从课表生成周课表');
    await m.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count()).toBe(2);
    await page.locator('.fix-day[data-weekday="2"]').getByTestId('fix-row').getByText('08:00').waitFor();
    await page.locator('.fix-day[data-weekday="4"]').getByTestId('fix-row').getByText('19:30').waitFor();
    await shot(page, 'template-from-week');

    // A fixed student on the Tuesday row (the row editor is tested on its own), then 周课表排课.
    const tuesday = (await api.ok<{ id: number; weekday: number; time: string }[]>('query/fix/timetable/list')).find(
      (r) => r.weekday === 2,
    )!;
    await api.ok('update/fix/timetable', {
      id: tuesday.id,
      weekday: 2,
      time: '08:00',
      courseId: f.courseId,
      teacherId: f.teacherId,
      areaId: f.roomId,
      reservableCount: 12,
      bookId: null,
      students: [{ mcId: f.mcId, studentCount: 1 }],
    });
    await page.reload();
    await rows.first().waitFor();
    const target = mondayOf(7);
    await page.getByRole('button', { name: '周课表排课' }).click();
    const w = modal(page, '周课表排课');
    await typeInto(page, field(w, '开课日期').locator('input'), target);
    await w.getByRole('button', { name: '开始排课' }).click();
    // The batch preview names each class it makes: date, time, course, teacher, room.
    const list = page.getByTestId('bulk-sessions');
    await list.waitFor();
    expect(
      (await list.innerText())
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ).toEqual([
      '新增的课程：',
      `${addDays(target, 1)}（周二）08:00-09:00 ${f.courseName} · ${f.teacherName} · ${room}`,
      `${addDays(target, 3)}（周四）19:30-20:30 ${f.courseName} · ${f.teacherName}`,
    ]);
    await shot(page, 'template-run-preview');
    const lines = await confirmBulk(page, '排课');
    expect(lines).toContain('将新增 2 节课');
    expect(lines).toContain('将预约 1 人次，扣除 1 次');
    await toast(page, '周固定课表排课成功');
    const week = await api.ok<{ list: { fromTime: string; courseName: string; realCount: number }[] }[]>(
      'query/timetable/by/date',
      { fromDate: target, toDate: addDays(target, 6), teacherId: f.teacherId },
    );
    expect(week.flatMap((d) => d.list).map((s) => [s.fromTime.slice(0, 16), s.courseName, s.realCount])).toEqual([
      [`${addDays(target, 1)} 08:00`, f.courseName, 1],
      [`${addDays(target, 3)} 19:30`, f.courseName, 0],
    ]);
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(1);

    // Its undo from 操作日志 says what it returns: the member, the class and the amount.
    await page.goto(`${server.url}/audit/log`);
    const table = page.getByTestId('audit-table');
    await table.locator('.ant-table-row').first().waitFor();
    await pickIn(page, page.getByTestId('audit-kind'), '批量操作');
    const run = table.locator('.ant-table-row', { hasText: '新增2节课' }).first();
    await run.getByRole('button', { name: /撤\s*销/ }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '撤销这次批量操作' });
    const said = confirm.getByTestId('undo-preview');
    await said.waitFor();
    const undoText = await said.innerText();
    expect(undoText).toContain('删除这次操作新增的 2 节课');
    expect(undoText).toContain('取消 1 个预约');
    expect(undoText).toContain('将退回 1 次，涉及 1 位会员');
    expect(undoText).toContain(`${f.memberName}（${masked(f.memberMobile)}）· 十次卡模`);
    expect(undoText).toContain(`${f.courseName} ${addDays(target, 1).slice(5)} 08:00 · 退回 1 次`);
    await shot(page, 'audit-undo-preview');
    await confirm.getByRole('button', { name: /撤\s*销/ }).click();
    await toast(page, '已撤销');
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(0);
  });
});
