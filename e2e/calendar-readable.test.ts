import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, loginWithCookie, shot, type BrowserEnv } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';

/**
 * What a person must be able to read on every class of the week view: its name (at least two
 * characters wide), time, seats and venue, none cut off by the event's box. Answers the classes
 * where something is not readable, with what.
 */
async function unreadable(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const ev of Array.from(document.querySelectorAll<HTMLElement>('.fc-timegrid .session-event'))) {
      const box = ev.getBoundingClientRect();
      const id = ev.dataset.sessionId;
      const part = (sel: string) => ev.querySelector<HTMLElement>(sel);
      const name = part('.session-name');
      if (!name || name.getBoundingClientRect().width < 24)
        out.push(`${id}: name ${name?.getBoundingClientRect().width}px`);
      // Name and venue may end in … but keep at least two characters; time and seats are never cut.
      for (const [what, sel, whole] of [
        ['name', '.session-name', false],
        ['venue', '.session-venue', false],
        ['time', '.session-time', true],
        ['seats', '.session-count', true],
      ] as const) {
        const el = part(sel);
        const r = el?.getBoundingClientRect();
        if (!el || !r || r.height === 0 || r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5) {
          out.push(`${id}: ${what} cut off`);
        } else if (whole ? el.scrollWidth > el.clientWidth + 1 : r.width < 24) {
          out.push(`${id}: ${what} squeezed (${el.textContent})`);
        }
      }
    }
    return out;
  });
}

async function weekAt(env: BrowserEnv, width: number, height: number, week: number, name: string, focus?: number) {
  const context = await env.browser.newContext({
    viewport: { width, height },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    reducedMotion: 'reduce',
  });
  try {
    await loginWithCookie(context, env.api);
    const page = await context.newPage();
    await page.goto(`${env.server.url}/course/calendar?date=${mondayOf(week)}`);
    await page.locator('.fc-timeGridWeek-view .session-event').first().waitFor();
    const events = await page.locator('.fc-timegrid .session-event').count();
    expect(events).toBeGreaterThan(0);
    const problems = await unreadable(page);
    const target = focus
      ? page.locator(`.session-event[data-session-id="${focus}"]`)
      : page.locator('.fc-timegrid-event').first();
    await target.scrollIntoViewIfNeeded();
    await shot(page, name);
    return problems;
  } finally {
    await context.close();
  }
}

describeBrowser('week view a person can read', (env) => {
  it('every class shows name, time, seats and venue at 1366x768 and 1920x1080, three rooms at once too', async () => {
    const { api } = env();
    // Three classes at the same time in three rooms (late, apart from the demo's), and a 30-minute class, next week.
    const day = addDays(mondayOf(1), 2);
    let late = 0;
    for (const tag of ['甲', '乙', '丙']) {
      const f = await makeFixture(api, `同时${tag}`);
      late = await addSession(api, f, day, '21:30');
    }
    const short = await makeFixture(api, '短课');
    const course = await api.ok<{ id: number }>('insert/store/course', {
      name: `三十分钟核心${short.memberId}`,
      count: 12,
      duration: 30,
      color: '#13c2c2',
      cardIds: [short.productId],
    });
    await api.ok('insert/timetable', {
      courseId: course.id,
      teacherId: short.teacherId,
      reservableCount: 12,
      date: addDays(day, 1),
      time: '07:00',
      isOnline: 0,
      areaId: short.roomId,
      bookId: null,
    });
    for (const [w, h] of [
      [1366, 768],
      [1920, 1080],
    ] as const) {
      expect(await weekAt(env(), w, h, 0, `calendar-week-demo-${w}`), `demo week at ${w}`).toEqual([]);
      expect(await weekAt(env(), w, h, 1, `calendar-week-three-rooms-${w}`, late), `three rooms at ${w}`).toEqual([]);
    }
  });
});
