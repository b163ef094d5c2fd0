import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { toast } from './ui.ts';

describeBrowser('online classroom', (env) => {
  it('creates an on-demand room, waits for a booking, and cancels it', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '线');
    const tid = await addSession(api, f, addDays(mondayOf(1), 3), '20:00');
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('online-create').getByRole('button', { name: '创建在线教室' }).waitFor();
    // an in-person class carries no notice about a room it does not need
    expect(await drawer.getByText('本节课还没有在线教室').count()).toBe(0);
    expect(await drawer.getByTestId('online-create').locator('.ant-alert').count()).toBe(0);
    // without a meeting provider the server's message is shown
    await drawer.getByRole('button', { name: '创建在线教室' }).click();
    await toast(page, 'Jitsi Meet未配置');
    await api.ok('update/store/online/setting', { jitsiBaseUrl: 'https://meet.example.org' });
    await drawer.getByRole('button', { name: '创建在线教室' }).click();
    await toast(page, '创建在线教室成功');
    await drawer.getByText('等待会员预约后自动创建在线教室').waitFor();
    await shot(page, 'drawer-online-waiting');
    expect((await api.ok('query/timetable/info', { id: tid })).isOnline).toBe(1);

    await drawer.getByRole('button', { name: '取消在线教室' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await toast(page, '取消在线教室成功');
    await drawer.getByTestId('online-create').getByRole('button', { name: '创建在线教室' }).waitFor();
    expect((await api.ok('query/timetable/info', { id: tid })).isOnline).toBe(0);
  });

  it('creates a room at once for a session with bookings and shows its link', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '线二');
    await api.ok('update/store/online/setting', { jitsiBaseUrl: 'https://meet.example.org' });
    const tid = await addSession(api, f, addDays(mondayOf(1), 4), '20:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByRole('button', { name: '创建在线教室' }).click();
    await toast(page, '创建在线教室成功');
    const panel = drawer.getByTestId('online-panel');
    await panel.getByText('加入链接').waitFor();
    const link = panel.locator('a[href^="http"]').first();
    await link.waitFor();
    const room = (await api.ok('query/timetable/info', { id: tid })).meetingInfo;
    expect(room.meetingCode).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await panel.getByTestId('meeting-code').innerText()).toBe(room.meetingCode);
    expect(await link.getAttribute('href')).toBe(`https://meet.example.org/${room.meetingCode}`);
    await panel.getByText('暂未上传').waitFor();
    await shot(page, 'drawer-online-room');
    // the calendar marks the session as online
    await page.goto(`${server.url}/course/calendar?date=${addDays(mondayOf(1), 4)}`);
    await page.locator(`.session-event[data-session-id="${tid}"] .session-online`).waitFor();

    // and the room is cancelled from the drawer
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    await drawer.getByTestId('meeting-code').getByText(room.meetingCode).waitFor();
    await drawer.getByRole('button', { name: '取消在线教室' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await toast(page, '取消在线教室成功');
    await drawer.getByTestId('online-create').getByRole('button', { name: '创建在线教室' }).waitFor();
    expect(await api.ok('query/timetable/online', { id: tid })).toMatchObject({ isOnline: 0, meetingInfo: null });
  });

  it('a room that could not be made says why; 在线教室 in 门店设置 is the way out, then 立即重试 makes it', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '线三');
    const tid = await addSession(api, f, addDays(mondayOf(1), 5), '20:00');
    await api.ok('update/store/online/setting', { jitsiBaseUrl: 'https://meet.example.org' });
    await api.ok('create/timetable/meeting', { id: tid, type: 1 });
    // the meeting service is taken away, then a member books: the room cannot be made
    await api.ok('update/store/online/setting', { jitsiBaseUrl: null });
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    const creating = drawer.getByTestId('online-creating');
    await creating.getByRole('button', { name: '立即创建' }).click();
    await toast(page, 'Jitsi Meet未配置');
    await creating.getByText('在线教室创建失败：Jitsi Meet未配置').waitFor();
    await creating.getByRole('button', { name: '立即重试' }).waitFor();
    await shot(page, 'drawer-online-failed');

    await page.goto(`${server.url}/settings/store`);
    const card = page.getByTestId('online-setting');
    const address = card.getByLabel('Jitsi Meet 服务器地址');
    await address.fill('ftp://x');
    await card.getByRole('button', { name: '保存在线教室设置' }).click();
    await card.getByText('Jitsi 地址应为以 http:// 或 https:// 开头的网址').waitFor();
    await address.fill('https://meet.example.org');
    await card.getByRole('button', { name: '保存在线教室设置' }).click();
    await toast(page, '操作成功');
    expect((await api.ok('query/store/online/setting')).jitsiBaseUrl).toBe('https://meet.example.org');
    await shot(page, 'settings-online');

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    await creating.getByRole('button', { name: '立即重试' }).click();
    await toast(page, '创建在线教室成功');
    await drawer.getByTestId('meeting-link').waitFor();
    expect(await drawer.getByTestId('meeting-link').innerText()).toContain('https://meet.example.org/');
  });
});
