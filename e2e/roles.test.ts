import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { Api, describeBrowser, newContext, shot } from './harness.ts';
import { addDays, addMemberWithCard, addSession, makeFixture, mondayOf, type Fixture } from './seed.ts';
import { field, modal, pick, pickIn, toast } from './ui.ts';

/** Today's date in the store's time zone (Asia/Shanghai). */
const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

const DESK = { name: '前台小周', account: 'desk01', password: 'desk2026ok' };
const TEACHER = { name: '林悦老师', account: 'linyue', password: 'teach2026ok', teacher: '林悦' };
const REFUSAL = '您的账号没有权限打开这个页面，请联系店长';

/**
 * A page of a fresh browser context logged in as `account` (a desk or teacher account) through the
 * login page: it lands on 今日; the page is then taken to the calendar.
 */
async function loginAs(browser: Browser, base: string, account: string, password: string): Promise<Page> {
  const context = await newContext(browser);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${base}/login`);
  await page.getByPlaceholder('账号 / 手机号').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL('**/today');
  await page.getByTestId('today-summary').waitFor();
  await page.getByRole('menuitem', { name: '课程表' }).click();
  await page.waitForURL('**/course/calendar');
  await page.locator('.fc').waitFor();
  return page;
}

const menuOf = (page: Page) => page.locator('.side-menu [role=menuitem]').allInnerTexts();

/** The ids of the sessions the calendar shows. */
const shownSessions = async (page: Page) =>
  (await page.locator('.session-event').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-session-id')))))
    .filter(Boolean)
    .sort((a, b) => a - b);

describeBrowser('staff roles (员工, 前台, 老师, 操作日志)', (env) => {
  let lin = 0;
  let desk: Page | undefined;

  it('the manager adds a desk account and a teacher account on 员工', async () => {
    const { page, api, server } = env();
    lin = (await api.ok<{ id: number; name: string }[]>('query/teacher/list')).find((t) => t.name === '林悦')!.id;
    await page.goto(`${server.url}/staff/list`);
    await page.getByTestId('staff-table').getByText('admin').waitFor();

    // 前台: the form checks the fields first (StaffMsg), then the server adds the account.
    await page.getByRole('button', { name: /新增员工/ }).click();
    let m = modal(page, '新增员工');
    await field(m, '姓名').locator('input').fill(DESK.name);
    await field(m, '账号').locator('input').fill(DESK.account);
    await field(m, '初始密码').locator('input').fill('abcdefgh');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await m.getByText('密码须同时包含字母和数字').waitFor();
    await field(m, '初始密码').locator('input').fill(DESK.password);
    await m.getByText('前台', { exact: true }).click();
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '员工已添加');
    await m.waitFor({ state: 'hidden' });

    // 老师: the teacher picker appears for 老师 and is required there.
    await page.getByRole('button', { name: /新增员工/ }).click();
    m = modal(page, '新增员工');
    await field(m, '姓名').locator('input').fill(TEACHER.name);
    await field(m, '账号').locator('input').fill(TEACHER.account);
    await field(m, '初始密码').locator('input').fill(TEACHER.password);
    expect(await field(m, '对应老师').count()).toBe(0);
    await m.getByText('老师', { exact: true }).click();
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await m.getByText('老师账号请选择对应的老师').waitFor();
    await pick(page, field(m, '对应老师'), TEACHER.teacher, TEACHER.teacher);
    await shot(page, 'staff-new-teacher');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '员工已添加');
    await m.waitFor({ state: 'hidden' });

    const table = page.getByTestId('staff-table');
    await table.getByText(TEACHER.account).waitFor();
    expect(await table.locator('tr', { hasText: DESK.account }).innerText()).toContain('前台');
    const teacherRow = await table.locator('tr', { hasText: TEACHER.account }).innerText();
    expect(teacherRow).toContain('老师');
    expect(teacherRow).toContain(TEACHER.teacher);
    expect(teacherRow).toContain('启用');
    await shot(page, 'staff-list');
    const staff = await api.ok<{ account: string; role: string; teacherId: number | null }[]>('query/staff/list');
    expect(staff.find((s) => s.account === DESK.account)).toMatchObject({ role: 'desk', teacherId: null });
    expect(staff.find((s) => s.account === TEACHER.account)).toMatchObject({ role: 'teacher', teacherId: lin });
  });

  it('the desk sees no settings, staff or log; a direct link is refused; the desk changes its own password', async () => {
    const { browser, server } = env();
    desk = await loginAs(browser, server.url, DESK.account, DESK.password);
    const menu = await menuOf(desk);
    expect(menu).toEqual(expect.arrayContaining(['今日', '课程表', '会员卡', '会员']));
    for (const hidden of ['门店设置', '预约设置', '员工', '操作日志', '数据报表']) expect(menu).not.toContain(hidden);
    expect(await desk.getByTestId('staff-name').innerText()).toContain('前台');
    // The calendar keeps the desk's tools, not the manager's links.
    await desk.getByRole('button', { name: /批量删除/ }).waitFor();
    expect(await desk.getByRole('link', { name: '预约设置' }).count()).toBe(0);

    for (const path of ['/settings/store', '/staff/list', '/audit/log', '/course_setting/course_setting']) {
      await desk.goto(`${server.url}${path}`);
      await desk.getByTestId('role-refusal').getByText(REFUSAL).waitFor();
    }
    await shot(desk, 'role-refusal');
    await desk.getByTestId('role-refusal').getByRole('link', { name: '返回课程表' }).click();
    await desk.waitForURL('**/course/calendar');

    // Card products are the manager's: the desk reads them.
    await desk.goto(`${server.url}/card/list`);
    await desk.locator('.ant-table-row').first().waitFor();
    expect(await desk.getByRole('button', { name: /添加卡种/ }).count()).toBe(0);

    // 修改密码 in the header.
    await desk.getByRole('button', { name: /修改密码/ }).click();
    const m = modal(desk, '修改密码');
    await field(m, '原密码').locator('input').fill(DESK.password);
    await field(m, '新密码').first().locator('input').fill('newdesk2026');
    await field(m, '确认新密码').locator('input').fill('newdesk2027');
    await m.getByRole('button', { name: /确认修改/ }).click();
    await m.getByText('两次输入的新密码不一致').waitFor();
    await shot(desk, 'change-password');
    await field(m, '确认新密码').locator('input').fill('newdesk2026');
    await m.getByRole('button', { name: /确认修改/ }).click();
    await toast(desk, '密码已修改');
    await m.waitFor({ state: 'hidden' });
    const again = new Api(server.url);
    await again.login(DESK.account, 'newdesk2026');
    await expect(new Api(server.url).login(DESK.account, DESK.password)).rejects.toThrow();
    // This page's own login goes on.
    await desk.goto(`${server.url}/member/list`);
    const first = desk.locator('.ant-table-row').first();
    await first.waitFor();
    // Who sees what: the list shows the desk mobiles masked; 查看 shows one whole (and logs the view).
    const cell = first.locator('td').nth(1);
    expect(await cell.innerText()).toMatch(/1\d{2}\*{4}\d{4}/);
    await shot(desk, 'desk-member-list-masked');
    await cell.getByTestId('reveal-mobile').click();
    await cell.getByTestId('mobile-whole').waitFor();
    expect(await cell.getByTestId('mobile-whole').innerText()).toMatch(/^1\d{10}$/);
    // 编辑 from the list edits the whole number, not the masked one.
    await first.getByText('编辑').click();
    const edit = modal(desk, '编辑会员');
    await expect.poll(() => field(edit, '手机号').locator('input').inputValue()).toMatch(/^1\d{10}$/);
    await edit.getByRole('button', { name: /取\s*消/ }).click();
    await desk.context().close();
  });

  it('the teacher sees only their own sessions and signs a member in, with no booking or money buttons', async () => {
    const { browser, server, api } = env();
    const f: Fixture = await makeFixture(api, '师');
    const today = todayInStore();
    // A class of 林悦 later today (this week) with a member waiting for sign-in (sign-in mode).
    await api.ok('insert/timetable', {
      courseId: f.courseId,
      teacherId: lin,
      reservableCount: 8,
      date: today,
      time: '23:00',
      isOnline: 0,
      areaId: f.roomId,
      bookId: null,
    });
    const monday = mondayOf(0);
    const week = { fromDate: monday, toDate: addDays(monday, 6) };
    type Day = { list: { id: number; courseName: string }[] };
    const ids = (days: Day[]) =>
      days
        .flatMap((d) => d.list)
        .map((s) => s.id)
        .sort((a, b) => a - b);
    const all = (await api.ok<Day[]>('query/timetable/by/date', week)).flatMap((d) => d.list);
    const tid = all.find((s) => s.courseName === f.courseName)!.id;
    const linsByManager = ids(await api.ok<Day[]>('query/timetable/by/date', { ...week, teacherId: lin }));
    const store = (await api.ok('/api/auth/me')).posts[0].storeId;
    await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 1 });
    try {
      await api.ok('add/member/group/pending', { mid: f.memberId, tid, mcId: f.mcId, studentCount: 1, remark: '' });
      const second = await addMemberWithCard(api, f, `今日会员${tid}`);
      await api.ok('add/member/group/pending', {
        mid: second.id,
        tid,
        mcId: second.cardId,
        studentCount: 1,
        remark: '',
      });

      const teacherApi = new Api(server.url);
      await teacherApi.login(TEACHER.account, TEACHER.password);
      // The server answers the teacher only their sessions: those of 林悦 as the manager filters them.
      const own = ids(await teacherApi.ok<Day[]>('query/timetable/by/date', week));
      expect(own).toEqual(linsByManager);
      expect(own).toContain(tid);
      expect(all.length).toBeGreaterThan(own.length);

      const page = await loginAs(browser, server.url, TEACHER.account, TEACHER.password);
      // 工作时间: their own working hours (issue 43); 课时费: their own statement (issue 30).
      expect(await menuOf(page)).toEqual(['今日', '课程表', '潜客', '工作时间', '课时费']);
      await page.locator(`.session-event[data-session-id="${tid}"]`).waitFor();
      await expect.poll(() => shownSessions(page)).toEqual(own);
      expect(await page.getByTestId('teacher-filter').count()).toBe(0);
      for (const b of ['添加课程', '批量排课', '批量删除', '导出预约']) {
        expect(await page.getByRole('button', { name: b }).count()).toBe(0);
      }
      await shot(page, 'teacher-calendar');

      await page.locator(`.session-event[data-session-id="${tid}"]`).click();
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByTestId('session-header').waitFor();
      for (const b of [/预约会员/, /编\s*辑/, /删\s*除/, /导出本节预约/]) {
        expect(await drawer.getByRole('button', { name: b }).count()).toBe(0);
      }
      const row = drawer.getByTestId('pending-table').locator('tr', { hasText: f.memberName });
      await row.getByText('待签到').waitFor();
      // The teacher sees the member's name, the mobile masked, and no 查看.
      expect(await row.innerText()).toMatch(/1\d{2}\*{4}\d{4}/);
      expect(await row.getByTestId('reveal-mobile').count()).toBe(0);
      expect(await row.getByRole('button', { name: /取消预约/ }).count()).toBe(0);
      await shot(page, 'teacher-drawer');
      await row.getByRole('button', { name: /签\s*到/ }).click();
      const confirm = page.locator('.ant-modal-confirm', { hasText: '签到确认' });
      await confirm.getByRole('button', { name: /确认签到/ }).click();
      await toast(page, '操作成功');
      await row.getByText('已签到').waitFor();
      const card = (await api.ok('query/member/info', { id: f.memberId })).cards[0];
      expect(card.usedCount).toBe(1);

      // 今日: only the teacher's classes; sign-in with the card the booking named; no check-in QR.
      await page.goto(`${server.url}/today`);
      const todayCard = page.getByTestId(`today-session-${tid}`);
      await todayCard.waitFor();
      for (const title of await page.locator('.today-session .ant-card-head-title').allInnerTexts()) {
        expect(title).toContain(TEACHER.teacher);
      }
      expect(await page.getByTestId('checkin-qr-button').count()).toBe(0);
      const waiting = todayCard.locator('tr', { hasText: `今日会员${tid}` });
      await waiting.getByRole('button', { name: /签\s*到/ }).click();
      await toast(page, `今日会员${tid} 签到成功`);
      await waiting.getByText('已签到').waitFor();
      await shot(page, 'teacher-today');

      // Screens of the desk are refused.
      await page.goto(`${server.url}/member/list`);
      await page.getByTestId('role-refusal').getByText(REFUSAL).waitFor();
      await page.context().close();
    } finally {
      await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 0 });
    }
  });

  it('the manager finds a card refund by the member’s name in 操作日志 and exports the entries', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '日志');
    await api.ok('refund/member/card', { id: f.mcId, amount: 0, method: 'cash', remark: '会员搬家' });

    await page.goto(`${server.url}/audit/log`);
    const table = page.getByTestId('audit-table');
    await table.locator('.ant-table-row').first().waitFor();
    await page.getByTestId('audit-member').locator('input').fill(f.memberName);
    // The table keeps the unfiltered page until the filtered one arrives: wait for that answer.
    const filtered = page.waitForResponse(
      (r) => r.url().endsWith('/query/audit/log') && (r.request().postData() ?? '').includes(f.memberName),
    );
    await page.getByTestId('audit-member').locator('input').press('Enter');
    await filtered;
    const rows = table.locator('.ant-table-row');
    await expect
      .poll(async () => {
        const texts = await rows.allInnerTexts();
        return texts.length > 0 && texts.every((t) => t.includes(f.memberName));
      })
      .toBe(true);
    const refund = rows.filter({ hasText: '退卡' });
    await refund.first().waitFor();
    expect(await refund.first().innerText()).toContain('会员卡');
    await shot(page, 'audit-member');

    // 导出: the filtered entries as 操作日志_<from>_<to>.xlsx (the last 7 days by default).
    const today = todayInStore();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /导\s*出/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`操作日志_${addDays(today, -6)}_${today}.xlsx`);
  });

  it('the manager undoes a batch delete from 操作日志: the classes are back in the calendar', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '撤销');
    const table = page.getByTestId('audit-table');
    // A batch delete of two classes in a week to come, on the fixture's venue only.
    const monday = mondayOf(3);
    await addSession(api, f, addDays(monday, 1), '09:00');
    await addSession(api, f, addDays(monday, 3), '19:00');
    const deleted = await api.ok<{ count: number }>('batch/cancel/timetable', {
      fromDate: monday,
      toDate: addDays(monday, 6),
      areaId: f.areaId,
    });
    expect(deleted.count).toBe(2);
    const ofCourse = async () =>
      (
        await api.ok<{ list: { id: number; courseName: string; fromTime: string }[] }[]>('query/timetable/by/date', {
          fromDate: monday,
          toDate: addDays(monday, 6),
        })
      )
        .flatMap((d) => d.list)
        .filter((s) => s.courseName === f.courseName);
    expect(await ofCourse()).toHaveLength(0);

    await page.goto(`${server.url}/audit/log`);
    await table.locator('.ant-table-row').first().waitFor();
    await pickIn(page, page.getByTestId('audit-kind'), '批量操作');
    const bulk = table.locator('.ant-table-row', { has: page.getByRole('button', { name: /撤\s*销/ }) }).first();
    await bulk.waitFor();
    await shot(page, 'audit-bulk');
    await bulk.getByRole('button', { name: /撤\s*销/ }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '撤销这次批量操作' });
    await confirm.getByRole('button', { name: /撤\s*销/ }).click();
    await toast(page, '已撤销');
    await table.getByTestId('audit-undone').first().waitFor();
    await shot(page, 'audit-undone');

    const back = await ofCourse();
    expect(back.map((s) => s.fromTime.slice(11, 16)).sort()).toEqual(['09:00', '19:00']);
    await page.goto(`${server.url}/course/calendar?date=${monday}`);
    for (const s of back) await page.locator(`.session-event[data-session-id="${s.id}"]`).waitFor();
  });

  it('the manager disables the desk account after a confirm (its login ends) and resets the teacher’s password', async () => {
    const { page, server } = env();
    const deskApi = new Api(server.url);
    await deskApi.login(DESK.account, 'newdesk2026');
    expect((await deskApi.call('query/member/list', { page: 1, pageSize: 10 })).code).toBe(0);

    await page.goto(`${server.url}/staff/list`);
    const row = page.getByTestId('staff-table').locator('tr', { hasText: DESK.account });
    await row.getByText('编辑').click();
    const m = modal(page, `编辑员工：${DESK.name}`);
    await field(m, '手机号').locator('input').fill('13900000001');
    await field(m, '状态').locator('.ant-switch').click();
    await shot(page, 'staff-edit');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '停用后，该员工的登录立即结束' });
    await confirm.getByRole('button', { name: /停\s*用/ }).click();
    await toast(page, '员工已保存');
    await m.waitFor({ state: 'hidden' });
    await row.getByText('停用').waitFor();
    expect(await row.innerText()).toContain('13900000001');
    expect((await deskApi.call('query/member/list', { page: 1, pageSize: 10 })).code).toBe(401);
    await expect(new Api(server.url).login(DESK.account, 'newdesk2026')).rejects.toThrow();

    // 重置密码: the teacher's new password works, the old one no longer.
    await page.getByTestId('staff-table').locator('tr', { hasText: TEACHER.account }).getByText('重置密码').click();
    const reset = modal(page, `重置密码：${TEACHER.name}`);
    await field(reset, '新密码').first().locator('input').fill('reset2026ok');
    await field(reset, '确认新密码').locator('input').fill('reset2026ok');
    await shot(page, 'staff-reset-password');
    await reset.getByRole('button', { name: /重置密码/ }).click();
    await toast(page, '密码已重置');
    await new Api(server.url).login(TEACHER.account, 'reset2026ok');
    await expect(new Api(server.url).login(TEACHER.account, TEACHER.password)).rejects.toThrow();
  });
});
