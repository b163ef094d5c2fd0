import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast, typeInto } from './ui.ts';

const WHITE = 'rgb(255, 255, 255)';
const LIGHT_RED = 'rgb(255, 220, 214)';

describeBrowser('calendar', (env) => {
  it('shows the demo week, white without bookings and light red with', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '色');
    const monday = mondayOf(1);
    const free = await addSession(api, f, addDays(monday, 1), '08:00');
    const booked = await addSession(api, f, addDays(monday, 2), '08:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid: booked, studentCount: 1 });

    await page.goto(`${server.url}/course/calendar`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    // the demo store has sessions this week
    await page.locator('.session-event').first().waitFor();
    await shot(page, 'calendar-week');
    expect(await page.locator('.fc-col-header-cell').first().innerText()).toContain('周一');

    await page.locator('.fc-next-button').click();
    const freeEvent = page.locator(`.session-event[data-session-id="${free}"]`);
    const bookedEvent = page.locator(`.session-event[data-session-id="${booked}"]`);
    await freeEvent.waitFor();
    await bookedEvent.waitFor();
    const bg = (l: typeof freeEvent) =>
      l.evaluate((el) => getComputedStyle(el.closest('.fc-event') as HTMLElement).backgroundColor);
    expect(await bg(freeEvent)).toBe(WHITE);
    expect(await bg(bookedEvent)).toBe(LIGHT_RED);
    expect(await freeEvent.innerText()).toContain('0/12');
    expect(await bookedEvent.innerText()).toContain('1/12');
    expect(await freeEvent.innerText()).toContain(f.teacherName);
    await freeEvent.scrollIntoViewIfNeeded();
    await shot(page, 'calendar-colours');
    expect(await page.locator('.fc-toolbar-title').innerText()).toBe(`${monday} – ${addDays(monday, 6)}`);

    // clicking a session opens its drawer (and the link to it)
    await freeEvent.click();
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('session-seats').getByText('0/12').waitFor();
    expect(page.url()).toContain(`course_calendar_id=${free}`);
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // the venue filter: a parent venue includes its rooms
    // (the browser's own selects: a room is indented under its venue, the empty choice is 全部)
    await page.getByTestId('area-filter').selectOption(String(f.areaId));
    await freeEvent.waitFor();
    await expect.poll(() => page.locator('.session-event').count()).toBe(2);
    await shot(page, 'calendar-filters');

    // the teacher filter
    await page.getByTestId('area-filter').selectOption('');
    await page.getByTestId('teacher-filter').selectOption(String(f.teacherId));
    await freeEvent.waitFor();
    await expect.poll(() => page.locator('.session-event').count()).toBe(2);

    // other views
    await page.locator('.fc-dayGridMonth-button').click();
    await page.locator('.fc-dayGridMonth-view').waitFor();
    await bookedEvent.waitFor();
    expect(await bg(freeEvent)).toBe(WHITE);
    expect(await bg(bookedEvent)).toBe(LIGHT_RED);
    await shot(page, 'calendar-month');
    await page.locator('.fc-listWeek-button').click();
    await page.locator('.fc-listWeek-view').waitFor();
    await shot(page, 'calendar-list');
    await page.locator('.fc-timeGridDay-button').click();
    await page.locator('.fc-timeGridDay-view').waitFor();
  });

  it('shows a class at 05:30 and one at 23:10 in the week and day views (no session invisible)', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '早晚');
    const day = addDays(mondayOf(7), 2);
    const early = await addSession(api, f, day, '05:30');
    const late = await addSession(api, f, day, '23:10');
    await page.goto(`${server.url}/course/calendar?date=${day}`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    for (const id of [early, late]) {
      const ev = page.locator(`.session-event[data-session-id="${id}"]`);
      await ev.scrollIntoViewIfNeeded();
      await ev.waitFor({ state: 'visible' });
    }
    expect(await page.locator('.fc-timegrid-slot-label', { hasText: '05:00' }).count()).toBeGreaterThan(0);
    await page.locator(`.session-event[data-session-id="${late}"]`).scrollIntoViewIfNeeded();
    await shot(page, 'calendar-early-late');
    await page.locator('.fc-timeGridDay-button').click();
    await page.locator('.fc-timeGridDay-view').waitFor();
    await page.locator(`.session-event[data-session-id="${early}"]`).waitFor({ state: 'visible' });
    await page.locator(`.session-event[data-session-id="${late}"]`).waitFor({ state: 'visible' });
  });

  it('adds a session through the modal and shows it', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '加');
    await page.goto(`${server.url}/course/calendar`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    await page.getByRole('button', { name: '添加课程' }).click();
    const m = modal(page, '添加课程');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await m.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await m.locator('.ant-form-item-explain-error', { hasText: '请补全' }).count()).toBeGreaterThanOrEqual(4);
    await shot(page, 'modal-add-session-validation');

    await pick(page, field(m, '课程'), f.courseName, f.courseName);
    expect(await field(m, '上课人数').locator('input').inputValue()).toBe('12');
    await pick(page, field(m, '上课老师'), f.teacherName, f.teacherName);
    const date = addDays(mondayOf(1), 3);
    await typeInto(page, field(m, '上课日期').locator('input'), date);
    await typeInto(page, field(m, '上课时间').locator('input'), '10:30');
    await m.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '课程信息保存成功');
    await page.locator('.fc-next-button').click();
    const ev = page.locator('.session-event', { hasText: f.courseName });
    await ev.waitFor();
    expect(await ev.innerText()).toContain('10:30-11:30');
    await shot(page, 'calendar-added-session');
  });

  it('opens a week at its first class (no scrolling down to find an evening class)', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '晚');
    const monday = mondayOf(9);
    const tid = await addSession(api, f, addDays(monday, 3), '20:30');
    await page.goto(`${server.url}/course/calendar?date=${monday}`);
    const ev = page.locator(`.session-event[data-session-id="${tid}"]`);
    await ev.waitFor();
    // the toolbar stays on screen and the evening class is in view without any scrolling
    await expect
      .poll(async () => {
        const box = await ev.boundingBox();
        return box !== null && box.y > 0 && box.y + box.height <= 768;
      })
      .toBe(true);
    expect(await page.locator('.fc-toolbar-title').isVisible()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await shot(page, 'calendar-opens-at-first-class');
  });
});
