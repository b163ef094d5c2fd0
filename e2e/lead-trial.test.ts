// 体验课 (issue 44, item 3): a seller (the desk account) takes a lead from the pool, books them into
// tonight's group class from the 潜客 drawer (约体验课, no card); the class's drawer lists them marked
// 体验, where 到店 makes the lead 已体验.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DESK, describeBrowser, shot, staffPage } from './harness.ts';
import { addSessionTonight, makeFixture } from './seed.ts';
import { field, modal, pick, toast, typeInto } from './ui.ts';

const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const tomorrowInStore = () => new Date(Date.now() + 32 * 3600_000).toISOString().slice(0, 10);

/** 公海: the seller takes the lead, then opens its drawer from 我的潜客. */
async function takeAndOpen(page: Page, url: string, name: string) {
  await page.goto(`${url}/lead/list`);
  await page.getByRole('tab', { name: '公海' }).click();
  await page.getByTestId('lead-table-pool').locator('tr', { hasText: name }).getByText('领取').click();
  await toast(page, '已领取');
  await page.getByRole('tab', { name: '我的潜客' }).click();
  await page.getByTestId('lead-table-all').locator('tr', { hasText: name }).getByText('跟进').click();
  return page.locator('.ant-drawer', { hasText: `潜客 ${name}` });
}

describeBrowser('trial classes (体验课) of leads', (env) => {
  it('a seller books a lead’s trial from the 潜客 drawer and marks 到店 in the class drawer', async () => {
    const { browser, server, api } = env();
    const f = await makeFixture(api, '体验');
    const tid = await addSessionTonight(api, f, server.database.db, todayInStore());
    const name = `体验课潜客${tid}`;
    const mobile = `136${String(tid).padStart(8, '0')}`;
    await api.ok('insert/lead', { name, mobile, source: '电话', ownerId: null });

    const { api: deskApi, context, page } = await staffPage(browser, server.url, DESK);

    const d = await takeAndOpen(page, server.url, name);

    // 约体验课: today's classes with a seat left; the form asks for one before calling the server.
    await d.getByRole('button', { name: '约体验课' }).click();
    const m = modal(page, '约体验课');
    await m.getByRole('button', { name: '确定约课' }).click();
    await m.getByText('请选择课程').waitFor();
    await m.getByTestId('trial-sessions').getByText(f.courseName).click();
    await shot(page, 'lead-trial-book');
    await m.getByRole('button', { name: '确定约课' }).click();
    await toast(page, '已约体验课');
    await d.getByTestId('lead-fields').getByText('已约体验').waitFor();
    const trials = d.getByTestId('lead-trials');
    await trials.getByText('已约', { exact: true }).waitFor();
    expect(await trials.innerText()).toContain(f.courseName);
    // One booked trial at a time: the button says why it is off.
    expect(await d.getByRole('button', { name: '约体验课' }).isDisabled()).toBe(true);
    await shot(page, 'lead-trial-drawer');

    // The class's drawer: the lead marked 体验, 到店 as for members.
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const table = page.getByTestId('trial-table');
    const trialRow = table.locator('tr', { hasText: name });
    await trialRow.getByText('体验', { exact: true }).waitFor();
    expect(await trialRow.innerText()).toContain('已预约');
    await shot(page, 'session-trial-row');
    await trialRow.getByRole('button', { name: '到店' }).click();
    await trialRow.getByText('已到店').waitFor();
    await shot(page, 'session-trial-attended');

    // The lead is 已体验, its trial taken by the class's teacher.
    const [lead] = (
      await deskApi.ok<{ list: { id: number; stage: string }[] }>('query/lead/list', {
        scope: 'all',
        param: mobile,
        page: 1,
      })
    ).list;
    expect(lead.stage).toBe('trial_done');
    const info = await deskApi.ok<{ trials: { status: number; teacherName: string }[] }>('query/lead/info', {
      id: lead.id,
    });
    expect(info.trials).toEqual([expect.objectContaining({ status: 2, teacherName: f.teacherName })]);
    await context.close();
  });

  it('a seller books a lead’s 私教体验 in a teacher’s free time: a lesson of its own, no card', async () => {
    const { browser, server, api } = env();
    const u = String(Date.now() % 1e6);
    const teacherName = `私教老师${u}`;
    const teacher = await api.ok<{ id: number }>('insert/teacher', { name: teacherName });
    await api.ok('update/teacher/hours', {
      teacherId: teacher.id,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '09:00', endTime: '12:00' })),
    });
    const typeName = `体验私教${u}`;
    await api.ok('insert/lesson/type', {
      name: typeName,
      kind: 'one_on_one',
      duration: 60,
      teachers: [{ teacherId: teacher.id, level: null }],
      prices: [],
      areaIds: [],
      equipment: [],
      description: null,
    });
    const name = `私教潜客${u}`;
    const mobile = `135${u.padStart(8, '0')}`;
    await api.ok('insert/lead', { name, mobile, source: '电话', ownerId: null });

    const { api: deskApi, context, page } = await staffPage(browser, server.url, DESK);
    const d = await takeAndOpen(page, server.url, name);

    await d.getByRole('button', { name: '约体验课' }).click();
    const m = modal(page, '约体验课');
    await m.getByText('私教体验').click();
    await pick(page, field(m, '私教课程'), typeName);
    await pick(page, field(m, '老师'), teacherName);
    await typeInto(page, m.getByLabel('上课日期'), tomorrowInStore());
    await pick(page, field(m, '老师空闲时间'), '10:00');
    await shot(page, 'lead-trial-lesson-book');
    await m.getByRole('button', { name: '确定约课' }).click();
    await toast(page, '已约私教体验课');
    await d.getByTestId('lead-fields').getByText('已约体验').waitFor();
    const trials = d.getByTestId('lead-trials');
    await trials.getByText(typeName).waitFor();
    await shot(page, 'lead-trial-lesson-drawer');

    const [lead] = (
      await deskApi.ok<{ list: { id: number; stage: string }[] }>('query/lead/list', {
        scope: 'all',
        param: mobile,
        page: 1,
      })
    ).list;
    const info = await deskApi.ok<{ trials: { status: number; teacherName: string; startTime: string }[] }>(
      'query/lead/info',
      { id: lead.id },
    );
    expect(info.trials).toEqual([
      expect.objectContaining({ status: 1, teacherName, startTime: `${tomorrowInStore()} 10:00:00` }),
    ]);
    await context.close();
  });
});
