import { LessonBookingMsg, LessonMsg } from '@studio/contract';
import { expect, it } from 'vitest';
import { Api, describeBrowser, loginWithCookie, newContext, shot, TEACHER } from './harness.ts';
import { addDays, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, pickIn, pickTree, toast, typeInto } from './ui.ts';

interface LessonTypeRow {
  id: number;
  name: string;
  kind: string;
  maxMembers: number;
  minNoticeMinutes: number;
  cancelCutoffMinutes: number;
  slotStep: number;
  teachers: { teacherId: number; level: string | null }[];
  prices: { level: string | null; price: number }[];
  areas: { id: number }[];
  equipment: { equipmentId: number; perMember: number }[];
}

describeBrowser('私教/小班 set-up screens', (env) => {
  it('the manager adds a machine, a lesson type, a teacher week and a day off, the setting and a lesson pack', async () => {
    const { page, server, api } = env();
    const f = await makeFixture(api, '私教');
    const machine = `核心床${f.teacherId}`;
    const typeName = `普拉提小班${f.teacherId}`;
    const packName = `私教课包${f.teacherId}`;

    // 器械: the form says what is missing before anything is sent.
    await page.goto(`${server.url}/lesson/list?tab=equipment`);
    await page.getByRole('button', { name: '添加器械' }).click();
    const em = modal(page, '添加器械');
    await field(em, '数量').locator('input').fill('0');
    await em.getByRole('button', { name: '保 存' }).click();
    await em.getByText(LessonMsg.equipmentName).waitFor();
    await em.getByText(LessonMsg.equipmentCount).waitFor();
    await field(em, '器械名称').locator('input').fill(machine);
    await field(em, '数量').locator('input').fill('6');
    await pickTree(page, field(em, '所在场地'), '一号教室私教');
    await em.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: machine }).getByText('6 台').waitFor();
    await shot(page, 'lesson-equipment');
    const machines =
      await api.ok<{ id: number; name: string; count: number; areaId: number | null }[]>('query/equipment/list');
    const m = machines.find((e) => e.name === machine)!;
    expect(m).toMatchObject({ count: 6, areaId: f.roomId });

    // 私教/小班课: 小班 of at most 4, a senior teacher with the senior price, the room and one machine each.
    await page.getByRole('tab', { name: '私教/小班课' }).click();
    await page.getByRole('button', { name: '添加私教/小班课' }).click();
    const tm = modal(page, '添加私教/小班课');
    await tm.getByRole('button', { name: '保 存' }).click();
    await tm.getByText(LessonMsg.typeName).first().waitFor();
    await tm.getByText('请选择老师').first().waitFor();
    await field(tm, '课程名称').locator('input').fill(typeName);
    await tm.getByText('小班', { exact: true }).click();
    await field(tm, '每节最多人数').locator('input').fill('8');
    await pickIn(page, tm.locator('.ant-select', { has: page.getByLabel('授课老师1') }), f.teacherName);
    await pickIn(page, tm.locator('.ant-select', { has: page.getByLabel('老师级别1') }), '高级');
    await tm.getByRole('button', { name: '保 存' }).click();
    await tm.getByText(LessonMsg.maxMembers).waitFor();
    await tm.getByText(LessonMsg.priceMissing('高级')).waitFor();
    await field(tm, '每节最多人数').locator('input').fill('4');
    await field(tm, '高级老师').locator('input').fill('300');
    await field(tm, '最少提前预约').locator('input').fill('3');
    await field(tm, '取消截止').locator('input').fill('24');
    await tm.getByText('15分钟').click();
    await pickTree(page, field(tm, '上课场地'), '一号教室私教');
    await tm.getByRole('button', { name: '添加器械' }).click();
    await pickIn(page, tm.locator('.ant-select', { has: page.getByLabel('器械1') }), machine);
    await shot(page, 'lesson-type-form');
    await tm.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const row = page.locator('.ant-table-row', { hasText: typeName });
    await row.getByText('高级 300.00元').waitFor();
    await row.getByText(`${machine} 每人1台`, { exact: false }).waitFor();
    await shot(page, 'lesson-type-list');
    const types = await api.ok<LessonTypeRow[]>('query/lesson/type/list');
    const type = types.find((t) => t.name === typeName)!;
    expect(type).toMatchObject({
      kind: 'small_group',
      maxMembers: 4,
      minNoticeMinutes: 180,
      cancelCutoffMinutes: 1440,
      slotStep: 15,
      teachers: [{ teacherId: f.teacherId, level: 'senior' }],
      prices: [{ level: 'senior', price: 30000 }],
      areas: [{ id: f.roomId }],
      equipment: [{ equipmentId: m.id, perMember: 1 }],
    });

    // Editing opens with what was saved; the price changes and the rest stays as it was.
    await row.getByText('编辑').click();
    const edit = modal(page, '编辑私教/小班课');
    expect(await field(edit, '课程名称').locator('input').inputValue()).toBe(typeName);
    expect(await field(edit, '高级老师').locator('input').inputValue()).toBe('300.00');
    await field(edit, '高级老师').locator('input').fill('350');
    await edit.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await row.getByText('高级 350.00元').waitFor();
    const edited = (await api.ok<LessonTypeRow[]>('query/lesson/type/list')).find((t) => t.id === type.id)!;
    expect(edited).toEqual({ ...type, prices: [{ level: 'senior', price: 35000 }] });
    // Off and on again with its switch.
    await row.getByRole('switch', { name: `启用${typeName}` }).click();
    await toast(page, '操作成功');
    expect(
      (await api.ok<{ id: number; enabled: number }[]>('query/lesson/type/list')).find((t) => t.id === type.id),
    ).toMatchObject({ enabled: 0 });
    await row.getByRole('switch', { name: `启用${typeName}` }).click();
    await toast(page, '操作成功');

    // A machine added by mistake is deleted.
    await page.getByRole('tab', { name: '器械' }).click();
    await page.getByRole('button', { name: '添加器械' }).click();
    const extra = modal(page, '添加器械');
    await field(extra, '器械名称').locator('input').fill(`多余的${machine}`);
    await extra.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page
      .locator('.ant-table-row', { hasText: `多余的${machine}` })
      .getByText('删除')
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await toast(page, '删除成功');
    await page.locator('.ant-table-row', { hasText: `多余的${machine}` }).waitFor({ state: 'detached' });
    const left = await api.ok<{ name: string }[]>('query/equipment/list');
    expect(left.map((e) => e.name)).toEqual([machine]);

    // 工作时间: the teacher's Monday in two spans (an overlap is refused on the page), copied to the weekdays.
    await page.goto(`${server.url}/teacher/list`);
    await page.locator('.ant-table-row', { hasText: f.teacherName }).getByText('工作时间').click();
    await page.waitForURL(/\/teacher\/hours\?teacher_id=\d+$/);
    await page.getByTestId('weekday-1').getByText('休息').waitFor();
    await page.getByRole('button', { name: '星期一添加时段' }).click();
    await typeInto(page, page.getByLabel('星期一第1段结束'), '12:00');
    await page.getByRole('button', { name: '星期一添加时段' }).click();
    await typeInto(page, page.getByLabel('星期一第2段开始'), '11:00');
    await typeInto(page, page.getByLabel('星期一第2段结束'), '20:00');
    await page.getByRole('button', { name: '保存每周工作时间' }).click();
    // Said beside the day by the page itself (not a refusal of the server's, which would be a toast).
    await page.locator('.ant-form-item-explain-error', { hasText: LessonMsg.spanOverlap(1) }).waitFor();
    await typeInto(page, page.getByLabel('星期一第2段开始'), '14:00');
    await page.getByRole('button', { name: '把星期一的时间复制到星期二至星期五' }).click();
    await page.getByRole('button', { name: '保存每周工作时间' }).click();
    await toast(page, '工作时间已保存');

    // A day off (next Tuesday, the whole day) and extra hours on Saturday (a span is required first).
    const tuesday = addDays(mondayOf(1), 1);
    const saturday = addDays(mondayOf(1), 5);
    await page.getByRole('button', { name: '添加休息或加班' }).click();
    let xm = modal(page, '添加休息或加班');
    await typeInto(page, field(xm, '日期').locator('input'), tuesday);
    await field(xm, '原因').locator('input').fill('请假');
    await xm.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.getByRole('button', { name: '添加休息或加班' }).click();
    xm = modal(page, '添加休息或加班');
    await typeInto(page, field(xm, '日期').locator('input'), saturday);
    await xm.getByText('加班（额外可约）').click();
    await xm.getByRole('button', { name: '保 存' }).click();
    await xm.getByText(LessonMsg.extraSpan).first().waitFor();
    await typeInto(page, field(xm, '开始').locator('input'), '19:00');
    await typeInto(page, field(xm, '结束').locator('input'), '18:00');
    await xm.getByRole('button', { name: '保 存' }).click();
    await xm.getByText(LessonMsg.span).waitFor();
    await typeInto(page, field(xm, '结束').locator('input'), '21:00');
    await xm.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: tuesday }).getByText('全天').waitFor();
    await page.locator('.ant-table-row', { hasText: saturday }).getByText('19:00-21:00').waitFor();
    await shot(page, 'lesson-teacher-hours');
    await page.locator('.ant-table-row', { hasText: saturday }).scrollIntoViewIfNeeded();
    await shot(page, 'lesson-teacher-exceptions');
    const hours = await api.ok<{
      weekly: { weekday: number; startTime: string; endTime: string }[];
      exceptions: {
        date: string;
        kind: string;
        startTime: string | null;
        endTime: string | null;
        reason: string | null;
      }[];
    }>('query/teacher/hours/info', { teacherId: f.teacherId });
    expect(hours.weekly).toEqual(
      [1, 2, 3, 4, 5].flatMap((weekday) => [
        { weekday, startTime: '09:00', endTime: '12:00' },
        { weekday, startTime: '14:00', endTime: '20:00' },
      ]),
    );
    expect(hours.exceptions).toEqual([
      expect.objectContaining({ date: tuesday, kind: 'off', startTime: null, endTime: null, reason: '请假' }),
      expect.objectContaining({ date: saturday, kind: 'extra', startTime: '19:00', endTime: '21:00' }),
    ]);

    // 预约设置: teachers confirm within 6 hours (the limit is checked on the page first).
    await page.goto(`${server.url}/lesson/list?tab=setting`);
    await page.getByLabel('需老师确认').click();
    await field(page.locator('form'), '确认时限').locator('input').fill('100');
    await page.getByRole('button', { name: '保 存' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: LessonBookingMsg.confirmHours }).waitFor();
    await field(page.locator('form'), '确认时限').locator('input').fill('6');
    await page.getByRole('button', { name: '保 存' }).click();
    await toast(page, '保存成功');
    await shot(page, 'lesson-setting');
    expect(await api.ok('query/lesson/setting')).toEqual({ teacherConfirms: 1, confirmHours: 6 });

    // 私教课包: a card product bound to the lesson type and to that one teacher.
    await page.goto(`${server.url}/card/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await page.getByRole('button', { name: '添加卡种' }).click();
    const pm = modal(page, '添加卡种');
    await field(pm, '卡种名称').locator('input').fill(packName);
    await field(pm, '价格').first().locator('input').fill('2800');
    await pick(page, field(pm, '可预约的私教/小班课'), typeName);
    await pm.getByText('指定老师').click();
    await pm.getByRole('button', { name: '保 存' }).click();
    await pm.getByText('请选择老师').waitFor();
    await pick(page, field(pm, '老师').last(), f.teacherName);
    await shot(page, 'lesson-pack-form');
    await pm.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: packName }).getByText(`仅限老师：${f.teacherName}`).waitFor();
    const products =
      await api.ok<
        { cardName: string; teacherId: number | null; teacherLevel: string | null; courses: { id: number }[] }[]
      >('query/card/product/list');
    expect(products.find((p) => p.cardName === packName)).toMatchObject({
      teacherId: f.teacherId,
      teacherLevel: null,
      courses: [{ id: type.id }],
    });
  });

  it('a teacher account opens its own working hours, with no teacher to pick', async () => {
    const { browser, server, api } = env();
    const teacherApi = new Api(server.url);
    await teacherApi.login(TEACHER.account, TEACHER.password);
    const me = await teacherApi.ok<{ posts: { teacherId: number | null }[] }>('/api/auth/me');
    const ownId = me.posts[0].teacherId!;
    const own = (await api.ok<{ id: number; name: string }[]>('query/teacher/list')).find((t) => t.id === ownId)!;
    const context = await newContext(browser);
    await loginWithCookie(context, teacherApi);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/teacher/hours?teacher_id=999999`);
    await page.getByText(`我的工作时间（${own.name}）`).waitFor();
    await page.getByText('每周工作时间', { exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: '老师' }).count()).toBe(0);
    await shot(page, 'lesson-teacher-own-hours');
    await context.close();
  });
});
