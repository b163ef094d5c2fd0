import { expect, it } from 'vitest';
import { describeBrowser, loginWithCookie, newContext, shot, type BrowserEnv } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { toast } from './ui.ts';

/** Store-local (Asia/Shanghai) `YYYY-MM-DD HH:mm:ss` of now plus `minutes`. */
const shanghai = (minutes: number) =>
  new Date(Date.now() + minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** The calendar, opened on `date` by a browser in UTC: `tid` is marked ended and the now-line is at the store's now. */
async function expectStoreClockOnCalendar(env: BrowserEnv, tid: number, date: string) {
  const context = await newContext(env.browser, { timezoneId: 'UTC' });
  try {
    await loginWithCookie(context, env.api);
    const page = await context.newPage();
    await page.goto(`${env.server.url}/course/calendar?date=${date}`);
    const event = page.locator(`.session-event[data-session-id="${tid}"]`);
    await event.waitFor();
    expect(await event.getAttribute('class')).toContain('session-ended');
    expect(await event.innerText()).toContain('已结束');
    // The now-line: in the half-hour row of the store's time (shown while today is in view and the
    // store's hour is inside the day's rows, 02:00-22:59 here).
    const now = shanghai(0);
    const hour = Number(now.slice(11, 13));
    if (now.slice(0, 10) === date && hour >= 2 && hour <= 22) {
      const slot = `${now.slice(11, 13)}:${Number(now.slice(14, 16)) < 30 ? '00' : '30'}:00`;
      const row = await page.locator(`td.fc-timegrid-slot-lane[data-time="${slot}"]`).boundingBox();
      const line = await page.locator('.fc-timegrid-now-indicator-line').first().boundingBox();
      expect(row && line).toBeTruthy();
      expect(line!.y).toBeGreaterThanOrEqual(row!.y - 2);
      expect(line!.y).toBeLessThanOrEqual(row!.y + row!.height + 2);
    }
    await shot(page, 'ended-calendar-utc-browser');
  } finally {
    await context.close();
  }
}

describeBrowser('ended sessions', (env) => {
  it('marks an ended class, offers no booking, and cancels or deletes only after a confirm that says so', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '终');
    const tid = await addSession(api, f, addDays(mondayOf(1), 2), '10:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    // the class took place: it ended an hour ago
    await server.database.db
      .updateTable('timetable')
      .set({ startTime: shanghai(-120), endTime: shanghai(-60) })
      .where('id', '=', tid)
      .execute();

    // On a browser whose clock is in UTC (eight hours behind the store), the calendar still marks the
    // class 已结束 and draws its now-line at the store's time.
    await expectStoreClockOnCalendar(env(), tid, shanghai(-120).slice(0, 10));

    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('session-ended').waitFor();
    expect(await drawer.getByRole('button', { name: '预约会员' }).count()).toBe(0);
    expect(await drawer.getByText('创建在线教室').count()).toBe(0);
    await drawer.getByText('已预约').first().click();
    await drawer.getByTestId('booked-table').getByText(f.memberName).waitFor();
    await shot(page, 'ended-drawer');

    // cancelling a booking of an ended class: the confirm says it ended and what is refunded
    await drawer.getByTestId('booked-table').getByRole('button', { name: '取消预约' }).click();
    const cancel = page.locator('.ant-modal', { hasText: '取消预约' });
    const notice = cancel.getByTestId('ended-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toContain('已于');
    expect(await notice.innerText()).toContain('退回 1 次');
    await shot(page, 'ended-cancel-confirm');
    await cancel.getByRole('button', { name: '确认取消预约' }).click();
    await toast(page, '预约取消');
    await drawer.getByTestId('booked-table').getByText('暂无预约').waitFor();

    // deleting it: the confirm names the class as ended
    await drawer
      .locator('.ant-drawer-extra')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    const del = page.locator('.ant-modal', { hasText: '删除课程' });
    await del.getByTestId('ended-notice').waitFor();
    await del.getByRole('button', { name: '确认删除已结束的课程' }).click();
    await toast(page, '删除成功');
    const card = await server.database.db
      .selectFrom('memberCard')
      .select('usedCount')
      .where('id', '=', f.mcId)
      .executeTakeFirstOrThrow();
    expect(Number(card.usedCount)).toBe(0);
  });
});
