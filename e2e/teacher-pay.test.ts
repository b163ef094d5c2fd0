// 课时费 (issue 30): a manager opens last month's statement under 员工 → 课时费 (a 私教 1对1 beside
// the classes, issue 43 item 7), closes the month and exports it (a sheet per teacher and 汇总); a teacher account sees its own statement only; the desk
// (前台) sees its own 推广链接 from the header once the manager made it.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { ARTIFACTS, Api, DESK, describeBrowser, loginWithCookie, newContext, shot, TEACHER } from './harness.ts';
import { field, modal, pick } from './ui.ts';
import { addDays, addMemberWithCard, addSession, makeFixture } from './seed.ts';

/** The store's (Asia/Shanghai) month before this one, `YYYY-MM`. */
function lastMonth(): string {
  const now = new Date(Date.now() + 8 * 3600_000);
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

describeBrowser('teacher pay (课时费)', (env) => {
  it("opens last month's statement, closes the month and exports it; a teacher sees only their own", async () => {
    const { page, api, server } = env();
    const db = server.database.db;
    const month = lastMonth();
    const f = await makeFixture(api, '薪');
    // Two classes of last month (made next week, booked, then moved back: a past class cannot be made).
    const future = addDays(new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10), 7);
    const plans = [
      { day: `${month}-05`, time: '09:00', end: '10:00', members: 3, came: 2 },
      { day: `${month}-19`, time: '19:00', end: '20:00', members: 7, came: 6 },
    ];
    for (const [i, p] of plans.entries()) {
      const tid = await addSession(api, f, addDays(future, i), p.time);
      const cards = [f.mcId];
      for (let j = 1; j < p.members; j++) cards.push((await addMemberWithCard(api, f, `课时学员${i}${j}`, 10)).cardId);
      for (const mcId of cards) await api.ok('add/member/reservation', { tid, mcId, studentCount: 1, remark: '' });
      await db
        .updateTable('timetable')
        .set({ startTime: `${p.day} ${p.time}:00`, endTime: `${p.day} ${p.end}:00` })
        .where('id', '=', tid)
        .execute();
      const booked = await db
        .selectFrom('reservation')
        .select('id')
        .where('timetableId', '=', tid)
        .orderBy('id')
        .execute();
      for (const b of booked.slice(0, p.came)) await api.ok('mark/attendance', { reservationId: b.id, attended: 1 });
    }
    // Tiers by heads that came: 1+ 80 元, 6+ 120 元, at least 50 元 a class; and a 交通补贴.
    await api.ok('update/teacher/pay/rule', {
      teacherId: f.teacherId,
      courseId: null,
      kind: 'tiered',
      tiers: [
        { minHeads: 1, amount: 8000 },
        { minHeads: 6, amount: 12000 },
      ],
      minimum: 5000,
      fromDate: `${month}-01`,
    });
    await api.ok('add/teacher/pay/adjustment', { teacherId: f.teacherId, month, amount: 3000, reason: '交通补贴' });
    // A 私教 1对1 the teacher (高级) gave last month, the member came: 150 元 by the type's 高级 rule.
    const lessonName = `私教普拉提${f.teacherName}`;
    const type = await api.ok<{ id: number }>('insert/lesson/type', {
      name: lessonName,
      kind: 'one_on_one',
      duration: 60,
      cancelCutoffMinutes: 0,
      teachers: [{ teacherId: f.teacherId, level: 'senior' }],
      prices: [{ level: 'senior', price: 30000 }],
      areaIds: [],
      equipment: [],
      description: null,
    });
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `私教课包${f.teacherName}`,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 300000,
      courseIds: [type.id],
    });
    const packCard = await api.ok<{ id: number }>('insert/member/card', {
      mid: f.memberId,
      cardId: pack.id,
      totalCount: 10,
      expireTime: null,
    });
    const lesson = await api.ok<{ id: number }>('add/lesson', {
      courseId: type.id,
      teacherId: f.teacherId,
      date: addDays(future, 5),
      time: '15:00',
      members: [{ mid: f.memberId, mcId: packCard.id }],
      outsideReason: '补录上月私教',
    });
    await db
      .updateTable('timetable')
      .set({ startTime: `${month}-21 15:00:00`, endTime: `${month}-21 16:00:00` })
      .where('id', '=', lesson.id)
      .execute();
    const [lessonBooking] = await db
      .selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', lesson.id)
      .execute();
    await api.ok('mark/attendance', { reservationId: lessonBooking.id, attended: 1 });
    await api.ok('update/teacher/pay/rule', {
      teacherId: f.teacherId,
      courseId: type.id,
      level: 'senior',
      kind: 'per_class',
      amount: 15000,
      fromDate: `${month}-01`,
    });
    // Another teacher's class of last month, with no rule: closing names it and asks to confirm.
    const g = await makeFixture(api, '缺');
    const unruledTid = await addSession(api, g, future, '10:00');
    await db
      .updateTable('timetable')
      .set({ startTime: `${month}-12 10:00:00`, endTime: `${month}-12 11:00:00` })
      .where('id', '=', unruledTid)
      .execute();

    // 员工 → 课时费 from the side menu, then last month (the default).
    await page.goto(`${server.url}/staff/list`);
    await page.getByRole('menuitem', { name: '课时费' }).click();
    await page.waitForURL('**/staff/pay');
    const card = page.getByTestId(`pay-teacher-${f.teacherId}`);
    await card.waitFor();
    expect(await page.getByTestId('pay-month').locator('input').inputValue()).toBe(month);
    await expect.poll(() => card.getByTestId('pay-teacher-total').innerText()).toContain('应发 ¥380.00');
    const rows = card.locator('.ant-table-tbody tr.ant-table-row');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toContain('80.00');
    expect(await rows.nth(0).innerText()).toContain('团课');
    expect(await rows.nth(1).innerText()).toContain('120.00');
    // The lesson beside the classes: its type, 1对1 at the teacher's level, and its pay.
    const lessonRow = await rows.nth(2).innerText();
    for (const text of [`${month}-21`, lessonName, '1对1·高级', '按节固定 150.00 元', '150.00'])
      expect(lessonRow).toContain(text);
    expect(await card.getByTestId('pay-lesson-total').innerText()).toBe('其中私教/小班 1 节 ¥150.00');
    expect(await card.getByTestId('pay-adjustments').innerText()).toContain('交通补贴');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'teacher-pay-statement');

    // 结算并关闭该月: the statement is marked closed and stays as it was.
    await page.getByRole('button', { name: '结算并关闭该月' }).click();
    const unruled = page.getByTestId('pay-unruled-confirm');
    await unruled.waitFor();
    // The confirm names the classes without a rule as the server would refuse them (the demo
    // store's teachers have none either); the class of the teacher without a rule is among them.
    const refused = await api.call('close/teacher/pay/month', { month });
    expect(refused.code).not.toBe(0);
    expect(await unruled.innerText()).toBe(refused.msg);
    const statement = await api.ok<{ teachers: { teacherId: number; rows: { ruleId: number | null }[] }[] }>(
      'query/teacher/pay/statement',
      { month },
    );
    const unruledCount = statement.teachers.flatMap((t) => t.rows).filter((r) => r.ruleId === null).length;
    expect(refused.msg).toContain(`${month} 有 ${unruledCount} 节课没有课时费规则`);
    expect(statement.teachers.find((t) => t.teacherId === g.teacherId)?.rows.map((r) => r.ruleId)).toEqual([null]);
    if (unruledCount <= 10)
      expect(refused.msg).toContain(`${month.slice(5)}-12 10:00 ${g.courseName}（${g.teacherName}）`);
    await shot(page, 'teacher-pay-close-unruled');
    await page.getByRole('button', { name: '仍然结算关闭', exact: true }).click();
    await expect.poll(() => page.getByTestId('pay-month-state').innerText()).toContain('已结算关闭');
    await expect.poll(() => card.getByTestId('pay-teacher-total').innerText()).toContain('应发 ¥380.00');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'teacher-pay-closed');

    // 导出Excel: 汇总 first, then a sheet per teacher with the classes, the adjustment and the total.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`课时费${month}.xlsx`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, 'teacher-pay.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const names = wb.worksheets.map((w) => w.name);
    expect(names[0]).toBe('汇总');
    expect(names).toContain(f.teacherName);
    const values = (name: string) => {
      const out: unknown[][] = [];
      wb.getWorksheet(name)!.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
      return out;
    };
    expect(values('汇总')).toContainEqual([f.teacherName, 3, 350, 30, 380]);
    const sheet = values(f.teacherName);
    expect(sheet[0]).toEqual([
      '日期',
      '时间',
      '课程',
      '类型',
      '上课方式',
      '预约人数',
      '到课人数',
      '计费规则',
      '金额（元）',
    ]);
    expect(sheet[1].slice(0, 7)).toEqual([`${month}-05`, '09:00', f.courseName, '团课', '到店', 3, 2]);
    expect(sheet[1][8]).toBe(80);
    expect(sheet[2].slice(5)).toEqual([7, 6, expect.stringContaining('按人数阶梯'), 120]);
    expect(sheet[3]).toEqual([
      `${month}-21`,
      '15:00',
      lessonName,
      '1对1·高级',
      '到店',
      1,
      1,
      '按节固定 150.00 元',
      150,
    ]);
    expect([sheet.at(-1)![0], sheet.at(-1)![8]]).toEqual(['应发合计', 380]);
    expect(sheet.at(-2)![7]).toBe('交通补贴');

    // The demo teacher account: its own statement (a class of theirs last month), nothing of the others.
    const teacherApi = new Api(server.url);
    await teacherApi.login(TEACHER.account, TEACHER.password);
    const mine = (await teacherApi.ok<{ posts: { teacherId: number | null }[] }>('/api/auth/me')).posts[0].teacherId!;
    // Made at 14:20, an hour the demo timetable leaves free (the demo teacher has classes at 12:10).
    const theirs = await addSession(api, { ...f, teacherId: mine }, addDays(future, 3), '14:20');
    await db
      .updateTable('timetable')
      .set({ startTime: `${month}-12 12:00:00`, endTime: `${month}-12 13:00:00` })
      .where('id', '=', theirs)
      .execute();
    await api.ok('reopen/teacher/pay/month', { month, reason: '补一节老师账号的课' });
    const own = await teacherApi.ok<{ teachers: { teacherId: number; rows: { tid: number }[] }[] }>(
      'query/teacher/pay/statement',
      { month, teacherId: f.teacherId },
    );
    expect(own.teachers.map((t) => t.teacherId)).toEqual([mine]);
    expect(own.teachers[0].rows.map((r) => r.tid)).toContain(theirs);
    const context = await newContext(env().browser);
    try {
      const [name, value] = teacherApi.cookie.split('=');
      await context.addCookies([{ name, value, url: server.url }]);
      const tp = await context.newPage();
      tp.setDefaultTimeout(15_000);
      await tp.goto(`${server.url}/staff/pay`);
      await tp.getByText('我的课时费').waitFor();
      await tp.getByTestId('pay-statement').waitFor();
      await tp.getByTestId(`pay-teacher-${mine}`).waitFor();
      expect(await tp.getByTestId(`pay-teacher-${mine}`).innerText()).toContain(`${month}-12`);
      expect(await tp.getByTestId(`pay-teacher-${f.teacherId}`).count()).toBe(0);
      expect(await tp.getByText(f.teacherName).count()).toBe(0);
      expect(await tp.getByRole('tab', { name: '销售提成' }).count()).toBe(0);
      expect(await tp.getByRole('button', { name: '结算并关闭该月' }).count()).toBe(0);
      expect(await tp.getByRole('button', { name: '添加调整' }).count()).toBe(0);
      await shot(tp, 'teacher-pay-own');
    } finally {
      await context.close();
    }
  });

  it("sets a tiered rule through the form and a seller's rate; 销售提成 lists the month per seller", async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '规');
    await page.goto(`${server.url}/staff/pay?tab=rules`);
    await page.getByRole('button', { name: '新增规则' }).click();
    const form = modal(page, '新增课时费规则');
    await pick(page, field(form, '老师'), f.teacherName, f.teacherName);
    await form.getByText('按人数阶梯').click();
    await form.getByLabel('第1档金额').fill('80');
    await form.getByRole('button', { name: '添加一档' }).click();
    await form.getByLabel('第2档起始人数').fill('6');
    await form.getByLabel('第2档金额').fill('120');
    await field(form, '每节保底').locator('input').fill('50');
    await shot(page, 'teacher-pay-rule-form');
    await form.getByRole('button', { name: '保 存' }).click();
    const row = page.getByTestId('pay-rules').getByRole('row').filter({ hasText: f.teacherName });
    await row.waitFor();
    expect(await row.innerText()).toContain('按人数阶梯（到课人数）1人起 80.00 元，6人起 120.00 元，保底 50.00 元');
    const rules = await api.ok<{ teacherId: number; tiers: unknown[] }[]>('query/teacher/pay/rule/list', {
      teacherId: f.teacherId,
    });
    expect(rules[0].tiers).toEqual([
      { minHeads: 1, amount: 8000 },
      { minHeads: 6, amount: 12000 },
    ]);
    // A rule for every 私教/小班 the teacher gives as 高级: 150 元 a lesson.
    await page.getByRole('button', { name: '新增规则' }).click();
    const lessonForm = modal(page, '新增课时费规则');
    await pick(page, field(lessonForm, '老师'), f.teacherName, f.teacherName);
    await pick(page, field(lessonForm, '适用课程'), '全部私教/小班');
    await field(lessonForm, '老师级别').getByText('高级').click();
    await field(lessonForm, '每节金额').locator('input').fill('150');
    await shot(page, 'teacher-pay-lesson-rule-form');
    await lessonForm.getByRole('button', { name: '保 存' }).click();
    const lessonRule = page
      .getByTestId('pay-rules')
      .getByRole('row')
      .filter({ hasText: f.teacherName })
      .filter({ hasText: '全部私教/小班（高级）' });
    await lessonRule.waitFor();
    expect(await lessonRule.innerText()).toContain('按节固定 150.00 元');
    const saved = await api.ok<{ lessons: number; level: string | null; courseId: number | null; amount: number }[]>(
      'query/teacher/pay/rule/list',
      { teacherId: f.teacherId },
    );
    expect(saved.find((r) => r.lessons === 1)).toMatchObject({ courseId: null, level: 'senior', amount: 15000 });

    // A card sold this month by the manager at 5 %: 1000 元 -> 50 元.
    await api.ok('insert/member/card', {
      mid: f.memberId,
      cardId: f.productId,
      totalCount: 10,
      expireTime: null,
      payment: { amount: 100000, method: 'wechat', remark: null },
    });
    const me = await api.ok<{ id: number; name: string }>('/api/auth/me');
    // A lead of the manager's becomes a member and buys a first card: one conversion credited to them.
    const leadMobile = `135${String(f.memberId).padStart(8, '0')}`;
    await api.ok('insert/lead', { name: `成交潜客${f.memberId}`, mobile: leadMobile, source: '电话', ownerId: me.id });
    const buyer = await api.ok<{ id: number }>('insert/member', {
      name: `成交潜客${f.memberId}`,
      mobile: leadMobile,
      gender: 2,
    });
    await api.ok('insert/member/card', {
      mid: buyer.id,
      cardId: f.productId,
      totalCount: 10,
      expireTime: null,
      payment: { amount: 50000, method: 'cash', remark: null },
    });
    const thisMonth = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
    await page.goto(`${server.url}/staff/pay?tab=commission&month=${thisMonth}`);
    const rates = page.getByTestId('pay-commission').locator('.ant-card').filter({ hasText: '提成比例' });
    await rates.getByRole('row').filter({ hasText: me.name }).getByText('设置').click();
    const rate = modal(page, `提成比例：${me.name}`);
    await field(rate, '提成比例').locator('input').fill('5');
    await field(rate, '每成交一位潜客').locator('input').fill('30');
    await rate.getByRole('button', { name: '保 存' }).click();
    await expect.poll(() => rates.getByRole('row').filter({ hasText: me.name }).innerText()).toContain('5%');
    expect(await rates.getByRole('row').filter({ hasText: me.name }).innerText()).toContain('30.00 元');
    const sold = await api.ok<{ staffId: number; sales: number; commission: number; conversions: unknown[] }[]>(
      'query/sales/commission',
      {
        month: thisMonth,
      },
    );
    const mine = sold.find((r) => r.staffId === me.id)!;
    // The rate on money received, and 30 元 for each lead of theirs converted this month.
    expect(mine.commission).toBe(Math.round(mine.sales * 0.05) + 3000 * mine.conversions.length);
    expect(mine.conversions).toHaveLength(1);
    await expect
      .poll(() => page.getByTestId('commission-total').innerText())
      .toBe((sold.reduce((n, r) => n + r.commission, 0) / 100).toFixed(2));
    // The manager's row opened: the lead converted, its card and the 30 元 it pays.
    const myRow = page.getByTestId('pay-commission').getByRole('row').filter({ hasText: me.name }).first();
    await myRow.locator('.ant-table-row-expand-icon').click();
    const converted = page
      .getByTestId('commission-conversions')
      .getByRole('row')
      .filter({ hasText: `成交潜客${f.memberId}` });
    await converted.waitFor();
    expect(await converted.innerText()).toContain('30.00');
    await shot(page, 'teacher-pay-commission');

    // 推广链接: made for the manager, shown as the members' page address with its code and a QR.
    await rates.getByRole('row').filter({ hasText: me.name }).getByText('推广链接').click();
    const link = modal(page, `推广链接：${me.name}`);
    await link.getByRole('button', { name: '生成推广链接' }).click();
    const url = link.getByTestId('seller-link-url');
    await expect.poll(() => url.innerText()).toMatch(/\/m\/\?store=\d+&seller=[a-z0-9]{8}$/);
    await link.getByTestId('seller-link-qr').waitFor();
    await shot(page, 'teacher-pay-seller-link');
  });

  it('the desk (前台) sees its own 推广链接 and QR from the header, once the manager made it', async () => {
    const { browser, api, server } = env();
    const deskApi = new Api(server.url);
    await deskApi.login(DESK.account, DESK.password);
    const desk = await deskApi.ok<{ id: number; name: string }>('/api/auth/me');
    const context = await newContext(browser);
    try {
      await loginWithCookie(context, deskApi);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/today`);
      // Not made yet: the desk is told to ask the manager, and has no button to make one.
      await page.getByRole('button', { name: '我的推广链接' }).click();
      let link = modal(page, '我的推广链接');
      await link.getByText('还没有推广链接，请店长在“课时费 → 销售提成”中为你生成。').waitFor();
      expect(await link.getByRole('button', { name: '生成推广链接' }).count()).toBe(0);
      await link.locator('.ant-modal-close').click();
      await link.waitFor({ state: 'hidden' });
      // The manager makes it (销售提成 → 推广链接); the desk then sees that link, its own.
      const made = await api.ok<{ code: string; url: string }>('create/seller/link', { staffId: desk.id });
      await page.reload();
      await page.getByRole('button', { name: '我的推广链接' }).click();
      link = modal(page, '我的推广链接');
      const url = link.getByTestId('seller-link-url');
      await expect.poll(() => url.innerText()).toBe(made.url);
      expect(made.url).toContain(`seller=${made.code}`);
      expect(await link.getByTestId('seller-link-qr').getAttribute('data-text')).toBe(made.url);
      await shot(page, 'desk-own-seller-link');
    } finally {
      await context.close();
    }
  });
});
