import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { confirmBulk, field, modal, pick, pickIn, pickTree, toast, typeInto, typeRange } from './ui.ts';

describeBrowser('schedule modals', (env) => {
  const openCalendar = async () => {
    const { page, server } = env();
    await page.goto(`${server.url}/course/calendar`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
  };

  it('edit session: validation, then saves', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '编');
    const tid = await addSession(api, f, addDays(mondayOf(1), 1), '20:00');
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '编辑' }).click();
    const m = modal(page, '编辑课程');
    await field(m, '上课人数').locator('input').fill('-1');
    await field(m, '上课日期').locator('.ant-picker').hover();
    await field(m, '上课日期').locator('.ant-picker-clear').click();
    await field(m, '上课时间').locator('.ant-picker').hover();
    await field(m, '上课时间').locator('.ant-picker-clear').click();
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await m.getByText('上课人数不能小于0').waitFor();
    await m.getByText('请选择上课日期').waitFor();
    await m.getByText('请选择上课时间').waitFor();
    await toast(page, '提交失败，请检查是否填写正确');
    await shot(page, 'modal-edit-session-validation');
    await field(m, '上课人数').locator('input').fill('20');
    await typeInto(page, field(m, '上课日期').locator('input'), addDays(mondayOf(1), 1));
    await typeInto(page, field(m, '上课时间').locator('input'), '20:30');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '修改课时信息成功');
    await drawer.getByTestId('session-seats').getByText('0/20').waitFor();
    await drawer.getByText('20:30 - 21:30').waitFor();
  });

  it('delete session: warns, deletes and closes the drawer', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '删');
    const tid = await addSession(api, f, addDays(mondayOf(1), 5), '20:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '删除' }).click();
    const m = modal(page, '删除课程');
    await m.getByText('删除课程后，该课程的所有预约将被取消，已扣除的次数或金额将退回会员卡。').waitFor();
    await m.getByText('当前已有 1 人预约。').waitFor();
    await shot(page, 'modal-delete-session');
    await m.getByRole('button', { name: '确认删除' }).click();
    await toast(page, '删除成功');
    await page.waitForURL(/\/course\/calendar$/);
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(0);
  });

  it('batch scheduling: every validation message in order, student rows, then schedules', async () => {
    const { page, api } = env();
    const f = await makeFixture(api, '批');
    await openCalendar();
    await page.getByRole('button', { name: '批量排课' }).click();
    const m = modal(page, '批量排课');
    const submit = () => m.getByRole('button', { name: '开始排课' }).click();
    await m.getByText('先选择课程，再选学员').first().waitFor();
    await field(m, '固定学员').locator('.ant-select').first().click();
    await toast(page, '请先选择课程');
    await submit();
    await toast(page, '请选择课程');
    await pick(page, field(m, '课程'), f.courseName, f.courseName);
    await field(m, '上课人数').locator('input').fill('0');
    await submit();
    await toast(page, '上课人数不能为0');
    await field(m, '上课人数').locator('input').fill('1');
    await submit();
    await toast(page, '请选择上课老师');
    await pick(page, field(m, '上课老师'), f.teacherName, f.teacherName);
    await submit();
    await toast(page, '请选择开课日期');
    await typeInto(page, field(m, '开课日期').locator('input'), addDays(mondayOf(2), 0));
    await submit();
    await toast(page, '请选择每周规律以及对应的上课时间');
    await m.getByRole('checkbox', { name: '周二' }).check();
    await submit();
    await toast(page, '请设置排课次数');
    await field(m, '排课次数').locator('input').fill('2');
    await submit();
    await toast(page, '请选择周二的开课时间');
    await m.getByRole('button', { name: '添加学生' }).click();
    await toast(page, '请完成选择学生1的会员卡信息');
    await pick(page, field(m, '固定学员'), f.memberName, f.memberName);
    await pickIn(page, field(m, '固定学员').getByTestId('card-picker'), '十次卡批');
    await m.getByRole('button', { name: '添加学生' }).click();
    await toast(page, '选择的学生数量已达设置的上课人数上限');
    await shot(page, 'modal-batch-arrange-validation');
    const tue = m.locator('.ant-space', { has: page.getByRole('checkbox', { name: '周二' }) }).last();
    await typeInto(page, tue.locator('.ant-picker input'), '21:00');
    await submit();
    // The preview names the dates it makes: date, time, course, teacher (no venue chosen).
    const sessions = page.getByTestId('bulk-sessions');
    await sessions.waitFor();
    const lines = (await sessions.innerText())
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines).toEqual([
      '新增的课程：',
      `${addDays(mondayOf(2), 1)}（周二）21:00-22:00 ${f.courseName} · ${f.teacherName}`,
      `${addDays(mondayOf(3), 1)}（周二）21:00-22:00 ${f.courseName} · ${f.teacherName}`,
    ]);
    await shot(page, 'modal-batch-arrange-preview');
    expect(await confirmBulk(page, '排课')).toContain('将新增 2 节课');
    await toast(page, '批量排课成功');
    const days = await api.ok('query/timetable/by/date', {
      fromDate: mondayOf(2),
      toDate: addDays(mondayOf(3), 6),
      teacherId: f.teacherId,
    });
    const made = days.flatMap((d: { list: { realCount: number }[] }) => d.list);
    expect(made.length).toBe(2);
    expect(made.every((s: { realCount: number }) => s.realCount === 1)).toBe(true);
  });

  it('drop-in students: validation, teachers and remaining count, then books', async () => {
    const { page, api } = env();
    const f = await makeFixture(api, '插');
    const start = addDays(mondayOf(1), 0);
    await addSession(api, f, addDays(start, 2), '06:30');
    await addSession(api, f, addDays(start, 4), '06:30');
    await openCalendar();
    await page.getByRole('button', { name: '安插固定上课学员' }).click();
    const m = modal(page, '安插固定上课学员');
    const submit = () => m.getByRole('button', { name: /确\s*定/ }).click();
    await submit();
    await toast(page, '请选择课程');
    await pick(page, field(m, '课程'), f.courseName, f.courseName);
    await submit();
    await toast(page, '请选择开课日期');
    await typeInto(page, field(m, '开始日期').locator('input'), start);
    await submit();
    await toast(page, '请选择会员');
    await pick(page, field(m, '会员'), f.memberName, f.memberName);
    await submit();
    await toast(page, '请补全');
    await pick(page, field(m, '会员卡'), '十次卡插');
    await field(m, '上课次数').locator('input').fill('0');
    await submit();
    await toast(page, '上课次数不能为0');
    await field(m, '上课次数').locator('input').fill('2');
    await submit();
    await toast(page, '请选择任课教师');
    await m.getByRole('checkbox', { name: f.teacherName }).check();
    await m.getByTestId('drop-in-remaining').getByText('2 节').waitFor();
    await shot(page, 'modal-drop-in');
    await submit();
    expect(await confirmBulk(page, '安插')).toContain('将为该会员预约接下来的 2 节课');
    await toast(page, '安插固定上课学员成功');
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(2);
  });

  it('copy schedule: 8 days refused, unequal lengths refused, then copies', async () => {
    const { page, api } = env();
    const f = await makeFixture(api, '复');
    const src = addDays(mondayOf(2), 6);
    const dst = addDays(mondayOf(3), 6);
    await addSession(api, f, src, '22:00');
    await openCalendar();
    await page.getByRole('button', { name: '复制课表' }).click();
    const m = modal(page, '复制课表');
    await m.getByRole('button', { name: /复\s*制/ }).click();
    expect(await m.getByText('请选择日期').count()).toBe(2);
    await typeRange(page, m.getByTestId('copy-former'), mondayOf(2), addDays(mondayOf(2), 7));
    await m.getByText('最多可选择7天').waitFor();
    await shot(page, 'modal-copy-8-days');
    await typeRange(page, m.getByTestId('copy-former'), mondayOf(2), addDays(mondayOf(2), 6));
    await typeRange(page, m.getByTestId('copy-after'), mondayOf(3), addDays(mondayOf(3), 5));
    await m.getByRole('button', { name: /复\s*制/ }).click();
    await m.getByText('两个时间周期的天数不同！').waitFor();
    await typeRange(page, m.getByTestId('copy-former'), src, src);
    await typeRange(page, m.getByTestId('copy-after'), dst, dst);
    await pickTree(page, m.locator('.ant-form-item', { hasText: '场地' }), '测试馆复');
    await m.getByRole('button', { name: /复\s*制/ }).click();
    expect(await confirmBulk(page, '复制')).toContain('将新增 1 节课');
    await toast(page, '复制成功！');
    const days = await api.ok('query/timetable/by/date', { fromDate: dst, toDate: dst, teacherId: f.teacherId });
    expect(days.flatMap((d: { list: unknown[] }) => d.list).length).toBe(1);
  });

  it('copy schedule: presets cover the week before last to the week after next, and this week to four ahead', async () => {
    const { page } = env();
    await openCalendar();
    await page.getByRole('button', { name: '复制课表' }).click();
    const m = modal(page, '复制课表');
    await m.getByTestId('copy-former').click();
    await page.locator('.ant-picker-presets li').first().waitFor();
    const presets = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-presets li');
    expect(await presets.allInnerTexts()).toEqual(['上上周', '上周', '本周', '下周', '下下周']);
    await page.keyboard.press('Escape');
    await presets.first().waitFor({ state: 'detached' });
    await m.getByTestId('copy-after').click();
    await presets.first().waitFor();
    expect(await presets.allInnerTexts()).toEqual(['本周', '下周', '下下周', '三周后', '四周后']);
    await page.keyboard.press('Escape');
    await m.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('batch delete: dates required, then deletes the range of a venue', async () => {
    const { page, api } = env();
    const f = await makeFixture(api, '批删');
    const day = addDays(mondayOf(4), 2);
    const tid = await addSession(api, f, day, '22:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1, remark: '' });
    await openCalendar();
    await page.getByRole('button', { name: '批量删除' }).click();
    const m = modal(page, '批量删除课程');
    await m.getByRole('button', { name: '确认删除' }).click();
    await toast(page, '请选择日期');
    await m.locator('.ant-form-item-explain-error', { hasText: '请选择日期' }).waitFor();
    await shot(page, 'modal-batch-delete-validation');
    await typeRange(page, m.locator('.ant-picker-range'), day, day);
    // blank means every venue: said so, and the preview says what it would take
    await m.getByText('不选表示全部场地（含各场地下的教室）').waitFor();
    await pickTree(page, m.locator('.ant-form-item', { hasText: '场地' }), '测试馆批删');
    await m.getByRole('button', { name: '确认删除' }).click();
    const preview = page.getByTestId('bulk-preview');
    await preview.waitFor();
    expect((await preview.innerText()).split('\n')).toEqual([
      '将删除 1 节课',
      '将取消 1 个预约',
      '将退回 1 次，涉及 1 位会员',
    ]);
    await page.waitForTimeout(400); // the confirm's opening animation, for the screenshot only
    await shot(page, 'modal-batch-delete-preview');
    // declined: nothing deleted, the form stays
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '再想想' }).click();
    await m.getByRole('button', { name: '确认删除' }).waitFor();
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(1);
    await m.getByRole('button', { name: '确认删除' }).click();
    await confirmBulk(page, '删除');
    await toast(page, '批量删除课程成功');
    expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(0);
    const days = await api.ok('query/timetable/by/date', { fromDate: day, toDate: day, teacherId: f.teacherId });
    expect(days.flatMap((d: { list: unknown[] }) => d.list).length).toBe(0);
  });

  it('export: both dates required', async () => {
    const { page } = env();
    await openCalendar();
    await page.getByRole('button', { name: '导出预约' }).click();
    const m = modal(page, '导出预约');
    // It starts from the week in view; cleared, it asks for dates.
    await m.locator('.ant-picker-range').hover();
    await m.locator('.ant-picker-clear').click();
    await m.getByRole('button', { name: /导\s*出/ }).click();
    await toast(page, '提交失败，请选择日期');
    await m.locator('.ant-form-item-explain-error', { hasText: '提交失败，请选择日期' }).waitFor();
    await m.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('weekly template scheduling: Monday and 1-200 weeks, then runs the template once', async () => {
    const { page, api } = env();
    const f = await makeFixture(api, '周');
    // The demo's template (its recurring week) out of the way: this run makes the one row below.
    for (const r of await api.ok<{ id: number }[]>('query/fix/timetable/list')) {
      await api.ok('delete/fix/timetable', { id: r.id });
    }
    await api.ok('insert/fix/timetable', {
      weekday: 3,
      time: '06:05',
      courseId: f.courseId,
      teacherId: f.teacherId,
      areaId: f.roomId,
      reservableCount: 10,
      bookId: null,
      students: [{ mcId: f.mcId, studentCount: 1 }],
    });
    await openCalendar();
    await page.getByRole('button', { name: '周课表排课' }).click();
    const m = modal(page, '周课表排课');
    expect(await field(m, '循环周数').locator('input').inputValue()).toBe('1');
    await field(m, '循环周数').locator('input').fill('0');
    await m.getByRole('button', { name: '开始排课' }).click();
    await m.getByText('请选择周课表固定预约开课日期').waitFor();
    await m.getByText('周课表固定预约循环周数不能小于1').waitFor();
    await field(m, '循环周数').locator('input').fill('201');
    await m.getByText('周课表固定预约循环周数不能大于200').waitFor();
    await shot(page, 'modal-week-arrange-validation');
    // a Tuesday typed in is not taken: only Mondays can be chosen
    await typeInto(page, field(m, '开课日期').locator('input'), addDays(mondayOf(5), 1));
    await m.getByRole('button', { name: '开始排课' }).click();
    await m.getByText('请选择周课表固定预约开课日期').waitFor();
    await field(m, '循环周数').locator('input').fill('1');
    await typeInto(page, field(m, '开课日期').locator('input'), mondayOf(5));
    // a double click makes one run
    await m.getByRole('button', { name: '开始排课' }).dblclick();
    expect(await confirmBulk(page, '排课')).toContain('将新增 1 节课');
    await toast(page, '周固定课表排课成功');
    const days = await api.ok('query/timetable/by/date', {
      fromDate: mondayOf(5),
      toDate: addDays(mondayOf(5), 6),
      teacherId: f.teacherId,
    });
    const made = days.flatMap((d: { list: { realCount: number }[] }) => d.list);
    expect(made.length).toBe(1);
    expect(made[0].realCount).toBe(1);
    await api.ok('delete/fix/timetable', { id: (await api.ok('query/fix/timetable/list'))[0].id });
  });
});
