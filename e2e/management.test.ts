import { expect, it } from 'vitest';
import { putSetting } from '../apps/server/src/features/store-admin/repository.ts';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast, typeInto } from './ui.ts';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describeBrowser('management screens', (env) => {
  it('courses: list, validation, create, edit, disable', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/course/list`);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(1);
    await shot(page, 'manage-course-list');
    await page.getByRole('button', { name: '添加课程' }).click();
    const form = page.locator('form');
    await form.getByLabel('课程名称').waitFor();
    await form.getByLabel('默认上课人数').fill('');
    await page.getByRole('button', { name: '保 存' }).click();
    await form.getByText('请输入课程名称').waitFor();
    await form.getByText('上课人数应在0到10000之间').waitFor();
    await form.getByLabel('课程名称').fill('普拉提入门');
    await form.getByLabel('默认上课人数').fill('8');
    await form.getByText('年龄范围').click();
    await form.getByPlaceholder('起').fill('6');
    await form.getByPlaceholder('止').fill('12');
    await shot(page, 'manage-course-edit');
    await page.getByRole('button', { name: '保 存' }).click();
    await toast(page, '课程信息保存成功');
    await page.getByPlaceholder('课程名称').fill('普拉提入门');
    await page.getByPlaceholder('课程名称').press('Enter');
    const row = page.locator('.ant-table-row', { hasText: '普拉提入门' });
    await row.getByText('6岁0个月 至 12岁0个月').waitFor();
    await row.getByText('编辑').click();
    await page.waitForURL(/\/course\/edit\/\d+$/);
    expect(await page.locator('form').getByLabel('课程名称').inputValue()).toBe('普拉提入门');
    expect(await page.locator('.side-menu-item.active').innerText()).toBe('课程');

    // disabling a course takes it out of the schedule's course picker
    await page.goto(`${server.url}/course/list`);
    await page.locator('.ant-table-row', { hasText: '普拉提入门' }).locator('.ant-switch').click();
    await toast(page, '操作成功');
    const simple = await api.ok<{ name: string }[]>('query/course/simple/list');
    expect(simple.some((c) => c.name === '普拉提入门')).toBe(false);
  });

  it('cards: products with money in yuan, member cards with top-up and ledger', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/card/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'manage-card-products');
    await page.getByRole('button', { name: '添加卡种' }).click();
    const m = modal(page, '添加卡种');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入卡名称').waitFor();
    await m.getByLabel('卡种名称').fill('储值卡测试');
    await m.getByText('储值卡', { exact: true }).click();
    await m.getByText('永久有效').click();
    await m.getByLabel('每人每节课扣除').fill('45.5');
    await m.getByLabel('价格').fill('1000');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const row = page.locator('.ant-table-row', { hasText: '储值卡测试' });
    await row.getByText('45.50 元').waitFor();
    const products = await api.ok<{ cardName: string; perCount: number; price: number }[]>('query/card/product/list');
    expect(products.find((p) => p.cardName === '储值卡测试')).toMatchObject({ perCount: 4550, price: 100000 });

    // member cards of a demo member who has bookings
    const f = await makeFixture(api, '卡');
    const tid = await addSession(api, f, addDays(mondayOf(1), 1), '09:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 2 });
    await page.goto(`${server.url}/card/list?tab=member&member_id=${f.memberId}`);
    const cards = page.getByTestId('member-card-table');
    await cards.locator('.card-balance', { hasText: /^8 次$/ }).waitFor();
    await cards.getByText('充值').click();
    const t = modal(page, '充值');
    await t.getByRole('button', { name: '充 值' }).click();
    await t.getByText('充值数量必须大于0').waitFor();
    await t.getByLabel('充值数量').fill('5');
    await t.getByLabel('收款金额').fill('300');
    await t.getByText('支付宝', { exact: true }).click();
    await t.getByRole('button', { name: '充 值' }).click();
    await toast(page, '充值成功');
    await cards.locator('.card-balance', { hasText: /^13 次$/ }).waitFor();
    await cards.getByText('流水').click();
    const ledger = page.getByTestId('ledger-table');
    await ledger.getByText('充值').waitFor();
    await ledger.getByText('扣费').waitFor();
    await ledger.getByText('-2 次').waitFor();
    await ledger.getByText('支付宝 300.00 元').waitFor();
    await ledger.getByText(f.courseName, { exact: false }).waitFor();
    await shot(page, 'manage-card-ledger');
    await page.locator('.ant-drawer-close').click();
    await cards.getByText('冻结').click();
    await page.getByRole('button', { name: '确 定' }).click();
    await cards.getByText('已冻结').waitFor();
    await shot(page, 'manage-member-cards');
  });

  it('members: search, unique mobile, create, detail', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/member/list`);
    await page.locator('.ant-table-row').first().waitFor();
    expect(await page.locator('.ant-table-row').count()).toBe(10);
    await shot(page, 'manage-member-list');
    const first = await api.ok<{ list: { id: number; name: string; mobile: string }[] }>('query/member/list', {});
    const taken = first.list[0];
    await page.getByPlaceholder('姓名或手机号').fill(taken.mobile.slice(3, 9));
    await page.getByPlaceholder('姓名或手机号').press('Enter');
    await page.locator('.ant-table-row', { hasText: taken.name }).waitFor();

    await page.getByRole('button', { name: '添加会员' }).click();
    const m = modal(page, '添加会员');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入会员姓名').waitFor();
    await m.getByLabel('姓名').fill('新会员甲');
    await m.getByLabel('手机号').fill(taken.mobile);
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '该手机号已被其他会员使用');
    await m.getByLabel('手机号').fill('13600001111');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await m.waitFor({ state: 'hidden' });

    await page.goto(`${server.url}/member/detail?member_id=${taken.id}`);
    await page.getByText(`会员详情：${taken.name}`).waitFor();
    await page.getByTestId('member-card-table').locator('.ant-table-row').first().waitFor();
    await page.getByRole('tab', { name: /已上课/ }).click();
    await page.waitForTimeout(300);
    await shot(page, 'manage-member-detail');
  });

  it('teachers, venues and materials', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/teacher/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'manage-teachers');
    await page.getByRole('button', { name: '添加老师' }).click();
    let m = modal(page, '添加老师');
    await m.getByLabel('入会链接').fill('meet.example.com');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入老师姓名').waitFor();
    await m.getByText('在线教室链接应以 http:// 或 https:// 开头').waitFor();
    await m.getByLabel('姓名').fill('赵老师');
    await m.getByLabel('入会链接').fill('https://meet.example.com/zhao');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: '赵老师' }).waitFor();

    await page.goto(`${server.url}/venue/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'manage-venues');
    // a venue with sessions cannot be deleted: the server says why
    const used = page.locator('.ant-table-row').first();
    await used.getByText('删除').click();
    await page.getByRole('button', { name: '确 定' }).click();
    await toast(page, '场地正在使用中，无法删除');
    await used.getByText('添加下级').click();
    m = modal(page, '添加场地');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入场地名称').waitFor();
    await m.getByLabel('场地名称').fill('瑜伽小间');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    await page.locator('.ant-table-row', { hasText: '瑜伽小间' }).waitFor();
    const tree = await api.ok<{ name: string; children: { name: string }[] }[]>('query/area/tree');
    expect(tree.some((a) => a.children.some((c) => c.name === '瑜伽小间'))).toBe(true);

    await page.goto(`${server.url}/material/list`);
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'manage-materials');
    await page.getByRole('button', { name: '添加教材' }).click();
    m = modal(page, '添加教材');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请输入教材名称').waitFor();
    await m.getByLabel('名称').fill('少儿体能');
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const book = page.locator('.ant-table-row', { hasText: '少儿体能' });
    await book.getByText('添加章节').click();
    m = modal(page, '添加章节');
    await m.getByLabel('名称').fill('第一章 热身');
    await m.getByRole('button', { name: '保 存' }).click();
    await page.locator('.ant-table-row', { hasText: '第一章 热身' }).getByText('添加课时').waitFor();
  });

  it('weekly template: validation and a row with a fixed student', async () => {
    const { page, server, api } = env();
    const f = await makeFixture(api, '周');
    await page.goto(`${server.url}/course/fix_booking_timetable`);
    await page.getByTestId('fix-grid').waitFor();
    await page.getByRole('button', { name: '周三添加课程' }).click();
    const m = modal(page, '添加固定课');
    await m.getByRole('button', { name: '添加固定学员' }).click();
    await toast(page, '先选择课程，再选学员');
    await m.getByRole('button', { name: '保 存' }).click();
    await m.getByText('请选择课程').waitFor();
    await m.getByText('请选择上课老师').waitFor();
    await pick(page, field(m, '课程'), f.courseName, f.courseName);
    await field(m, '上课人数').locator('input').fill('1');
    await m.getByRole('button', { name: '添加固定学员' }).click();
    await m.getByRole('button', { name: '添加固定学员' }).click();
    await toast(page, '请完成选择学生1的会员卡信息');
    const student = m.getByTestId('fix-student-row').first();
    await pick(page, student.locator('.ant-form-item').nth(0), f.memberName, f.memberName);
    await pick(page, student.locator('.ant-form-item').nth(1), '十次卡周');
    await m.getByRole('button', { name: '添加固定学员' }).click();
    await toast(page, '选择的学生数量已达设置的上课人数上限');
    await shot(page, 'manage-template-row');
    await typeInto(page, field(m, '上课时间').locator('input'), '07:30');
    await pick(page, field(m, '上课老师'), f.teacherName, f.teacherName);
    await m.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    // The demo's recurring week is in the template too: this row is the one of the fixture's course.
    const ofCourse = (weekday: number) =>
      page.locator(`.fix-day[data-weekday="${weekday}"]`).getByTestId('fix-row').filter({ hasText: f.courseName });
    const row = ofCourse(3);
    await row.getByText(f.memberName).waitFor();

    // edit: move it to Friday with two seats for the student
    await row.click();
    const e = modal(page, '编辑固定课');
    await pick(page, field(e, '星期'), '周五');
    await field(e, '上课人数').locator('input').fill('3');
    await e.getByTestId('fix-student-row').locator('.ant-form-item').nth(2).locator('input').fill('2');
    await e.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    const moved = ofCourse(5);
    await moved.getByText('固定学员 2/3').waitFor();
    expect(await ofCourse(3).count()).toBe(0);
    await shot(page, 'manage-template');

    await moved.locator('.fix-del').click();
    await page.getByRole('button', { name: '确 定' }).click();
    await toast(page, '删除成功');
    await moved.waitFor({ state: 'detached' });
    // The demo's own rows (its recurring week) stay; this row is gone.
    const left = await api.ok<{ teacherId: number }[]>('query/fix/timetable/list');
    expect(left.filter((r) => r.teacherId === f.teacherId)).toEqual([]);
  });

  it('booking settings: mode switch with waiting pending items asks to confirm', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/course_setting/course_setting`);
    await page.getByText('签到后扣费', { exact: true }).click();
    await page.getByRole('button', { name: '保 存' }).click();
    // Every switch asks first, naming what it leaves as it is.
    const toSignIn = page.locator('.ant-modal-confirm', { hasText: '切换扣费模式' });
    await toSignIn.getByText('今天及以后', { exact: false }).waitFor();
    await toSignIn.getByRole('button', { name: '确认切换' }).click();
    await toast(page, '已切换为签到后扣费');
    expect((await api.ok('query/module/status', { moduleId: 6 })).status).toBe(1);

    const f = await makeFixture(api, '签');
    const tid = await addSession(api, f, addDays(mondayOf(1), 4), '10:00');
    await api.ok('add/member/group/pending', { mid: f.memberId, tid, studentCount: 1 });
    await page.reload();
    await page.getByText('当前有 1 个待签到预约').waitFor();
    await page.getByText('预约即扣费', { exact: true }).click();
    await page.getByRole('button', { name: '保 存' }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '切换扣费模式' });
    const { reservations, pendings } = await api.ok('query/deduction/mode/impact');
    expect(pendings).toBeGreaterThanOrEqual(1);
    await confirm.getByText(`今天及以后 ${reservations} 个已预约、${pendings} 个待签到`).waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'manage-booking-setting-confirm');
    await confirm.getByRole('button', { name: '确认切换' }).click();
    await page.locator('.ant-message-notice', { hasText: '之前的1个待签到预约保持不变' }).waitFor();
    expect((await api.ok('query/module/status', { moduleId: 6 })).status).toBe(0);
  });

  it('booking settings: 新课程默认在线教室 makes new sessions start as online ones', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/course_setting/course_setting`);
    const onlineDefault = page.getByRole('switch', { name: '新课程默认在线教室' });
    await onlineDefault.waitFor();
    expect(await page.getByText('模块', { exact: false }).count()).toBe(0);
    await onlineDefault.click();
    await page.getByRole('button', { name: '保 存' }).click();
    await toast(page, '操作成功');
    try {
      expect((await api.ok('query/module/status', { moduleId: 1 })).status).toBe(1);
      await page.goto(`${server.url}/course/calendar`);
      await page.getByRole('button', { name: '添加课程' }).click();
      const online = field(modal(page, '添加课程'), '在线课程').getByRole('switch');
      await expect.poll(() => online.getAttribute('aria-checked')).toBe('true');
      await shot(page, 'manage-online-default');
    } finally {
      await api.ok('update/module/status', { moduleId: 1, status: 0 });
    }
  });

  it('store settings: logo, messaging setting, function list', async () => {
    const { page, server, api } = env();
    await page.goto(`${server.url}/settings/store`);
    await page.getByTestId('logo-box').waitFor();
    await page.getByText('门店功能').waitFor();
    await shot(page, 'manage-store-settings-before');
    // 门店信息: name and time zone live here, checked before saving
    const info = page.getByTestId('store-info');
    const name = info.getByLabel('门店名称');
    expect(await name.inputValue()).toBe('悦动健身工作室');
    await name.fill('');
    await info.getByRole('button', { name: '保存门店信息' }).click();
    await info.getByText('请输入门店名称').waitFor();
    await name.fill('悦动健身工作室（旗舰店）');
    await info.getByRole('button', { name: '保存门店信息' }).click();
    await toast(page, '操作成功');
    expect((await api.ok('query/store/booking/setting')).storeName).toBe('悦动健身工作室（旗舰店）');
    await name.fill('悦动健身工作室');
    await info.getByRole('button', { name: '保存门店信息' }).click();
    await toast(page, '操作成功');
    // staff words only: no module numbers, no raw JSON, no English keys
    for (const word of ['模块', 'JSON', 'webhookUrl', 'sign-in-deduction', '签到扣费']) {
      expect(await page.getByText(word, { exact: false }).count(), word).toBe(0);
    }
    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Logo 上传成功');
    await page.getByTestId('logo-box').locator('img').waitFor();
    await page.locator('input[type=file]').setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: PNG });
    await toast(page, '仅支持 PNG、JPEG 或 WebP 格式的图片');

    // another key of the messaging setting (set through the API) is kept as it is
    await api.ok('insert/or/update/wechat/setting', { appId: 'wx123' });
    await page.reload();
    const url = page.getByLabel('企业微信群机器人地址');
    await url.fill('ftp://x');
    await page.getByRole('button', { name: '保存消息设置' }).click();
    await page.getByText('机器人地址应为以 http:// 或 https:// 开头的网址').waitFor();
    await url.fill('https://hooks.example.com/studio');
    await page.getByRole('button', { name: '保存消息设置' }).click();
    // The toast of the store-info save may still be showing: wait for this save's result instead.
    await expect
      .poll(() => api.ok('query/wechat/setting'))
      .toEqual({ appId: 'wx123', webhookUrl: 'https://hooks.example.com/studio' });

    const notify = page.locator('.ant-table-row', { hasText: '消息通知' });
    await notify.locator('.ant-switch').click();
    const saveFuncs = page.getByRole('button', { name: '保存功能设置' });
    await saveFuncs.click();
    // Saved and read back: the button is disabled again (an earlier 操作成功 toast proves nothing).
    await expect.poll(() => saveFuncs.isDisabled()).toBe(true);
    const funcs = await api.ok<{ key: string; enabled: number }[]>('load/store/funcs');
    expect(funcs.find((x) => x.key === 'notification')?.enabled).toBe(1);
    await shot(page, 'manage-store-settings');
  });

  it('store settings survive any stored function list', async () => {
    const { page, server, api } = env();
    // Through the API, a shape the screen cannot read is refused with its Chinese message.
    const refused = await api.call('save/store/funcs', { funcs: [{ key: 'a', name: { toString: 1 } }] });
    expect(refused.msg).toBe('功能名称 name 应为文字');
    // A value stored before that check (straight into the database) still leaves the screen working.
    const store = await server.database.db.selectFrom('store').select('id').orderBy('id').executeTakeFirstOrThrow();
    const hostile = [
      { name: { toString: 1 }, enabled: 1 },
      { key: { toString: 1 }, name: '乙功能', enabled: 0 },
      7,
      null,
    ];
    await putSetting(server.database.db, store.id, 'funcs', JSON.stringify(hostile));
    await page.goto(`${server.url}/settings/store`);
    await page.locator('.ant-table-row', { hasText: '乙功能' }).waitFor();
    await page.locator('.ant-table-row', { hasText: '（未命名的功能）' }).waitFor();
    await page.getByTestId('logo-box').waitFor();
    expect(await page.getByText('本页面有数据无法读取').count()).toBe(0);
    await shot(page, 'manage-store-settings-hostile');
  });
});
