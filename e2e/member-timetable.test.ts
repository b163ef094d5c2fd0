import { PhaseMsg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addSession, makeFixture } from './seed.ts';

/** The Monday of the week of `date` (YYYY-MM-DD). */
function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** Store-local (Asia/Shanghai) `YYYY-MM-DD HH:mm` of now plus `minutes`. */
function shanghai(minutes: number): { date: string; time: string } {
  const t = new Date(Date.now() + minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
  return { date: t.slice(0, 10), time: t.slice(11, 16) };
}

describeBrowser('members timetable on a phone: closed classes look closed', (env) => {
  it('says 已结束, 进行中, 已截止预约 and the moment booking opens, instead of seats left', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '态');
    // booking opens 2 days before a class and closes 120 minutes before it
    await api.ok('update/booking/policy', { openDaysBefore: 2, closeMinutesBefore: 120 });
    const ended = shanghai(-130);
    const running = shanghai(-30);
    const closed = shanghai(60);
    const later = shanghai(5 * 24 * 60);
    const open = shanghai(2 * 24 * 60 - 180);
    const ids = {
      ended: await addSession(api, f, ended.date, ended.time),
      running: await addSession(api, f, running.date, running.time),
      closed: await addSession(api, f, closed.date, closed.time),
      later: await addSession(api, f, later.date, later.time),
      open: await addSession(api, f, open.date, open.time),
    };
    // 2 whole days before the start, as the member reads it: 12月3日 10:00 开放预约
    const opens = shanghai(5 * 24 * 60 - 2 * 24 * 60);
    const opensText = `${Number(opens.date.slice(5, 7))}月${Number(opens.date.slice(8, 10))}日 ${later.time} 开放预约`;

    const [context, page] = await phoneContext(env().browser);
    try {
      await page.goto(`${server.url}/m/?store=${storeId}`);
      await page.getByTestId('store-name').waitFor();
      const side = async (id: number, date: string) => {
        await page.getByTestId(`day-${date}`).tap();
        const card = page.getByTestId(`session-${id}`);
        await card.waitFor();
        return card;
      };

      // The page shows this week and next from Monday: early on a Monday (before 02:10) the ended and
      // running classes fall on last Sunday, off the page; then their states are read from the
      // members' timetable call the page uses, and the page's own look is checked on the others.
      const thisMonday = mondayOf(shanghai(0).date);
      const sheet = page.getByTestId('session-sheet');
      if (ended.date >= thisMonday && running.date >= thisMonday) {
        const endedCard = await side(ids.ended, ended.date);
        expect(await endedCard.getByTestId('phase').innerText()).toBe('已结束');
        expect(await endedCard.innerText()).not.toContain('余');
        const runningCard = await side(ids.running, running.date);
        expect(await runningCard.getByTestId('phase').innerText()).toBe('进行中');
        expect(await runningCard.innerText()).not.toContain('余');
        // a running class's sheet says so (not 开课前0分钟停止预约) and offers no login to book
        await runningCard.tap();
        expect(await sheet.getByTestId('not-bookable').innerText()).toBe('课程正在进行，不能再预约');
        expect(await sheet.getByRole('button', { name: '登录后预约' }).count()).toBe(0);
        await page.waitForTimeout(400); // the sheet slides up
        await shot(page, 'member-sheet-running');
        await page
          .locator('.adm-mask')
          .last()
          .tap({ position: { x: 20, y: 20 } });
        await sheet.waitFor({ state: 'hidden' });
      } else {
        const res = await fetch(`${server.url}/member/api/query/public/timetable`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ storeId, fromDate: ended.date, toDate: running.date }),
        });
        const days = ((await res.json()) as { data: { sessions: { id: number; reason: string | null }[] }[] }).data;
        const reasonOf = (id: number) => days.flatMap((d) => d.sessions).find((x) => x.id === id)?.reason;
        expect(reasonOf(ids.ended)).toBe(PhaseMsg.endedReason);
        expect(reasonOf(ids.running)).toBe(PhaseMsg.runningReason);
      }
      const closedCard = await side(ids.closed, closed.date);
      expect(await closedCard.getByTestId('phase').innerText()).toBe('已截止预约');
      await shot(page, 'member-timetable-closed-states');

      const laterCard = await side(ids.later, later.date);
      expect(await laterCard.getByTestId('phase').innerText()).toBe(opensText);
      expect(await laterCard.innerText()).not.toContain('余');
      await shot(page, 'member-timetable-not-open');
      await laterCard.tap();
      expect(await sheet.getByTestId('not-bookable').innerText()).toBe(opensText);
      expect(await sheet.innerText()).not.toContain('请稍后再来');
      await page.waitForTimeout(400);
      await shot(page, 'member-sheet-not-open');
      await page
        .locator('.adm-mask')
        .last()
        .tap({ position: { x: 20, y: 20 } });
      await sheet.waitFor({ state: 'hidden' });

      // inside the window: seats left, and booking after login
      const openCard = await side(ids.open, open.date);
      await openCard.getByText('余12位').waitFor();
      expect(await openCard.getByTestId('phase').count()).toBe(0);
      await openCard.tap();
      await sheet.getByRole('button', { name: '登录后预约' }).waitFor();
    } finally {
      await context.close();
      await api.ok('update/booking/policy', { openDaysBefore: 0, closeMinutesBefore: 0 });
    }
  });

  it("reads the store's clock, not the phone's: a phone set to another day still sees the store's today", async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '钟');
    const now = shanghai(0);
    // A zone whose date is not the store's now: 18 hours behind Shanghai before 18:00 there, 6 ahead after.
    const timezoneId = Number(now.time.slice(0, 2)) < 18 ? 'Pacific/Honolulu' : 'Pacific/Kiritimati';
    const soon = shanghai(30);
    const id = await addSession(api, f, soon.date, soon.time);

    const [context, page] = await phoneContext(env().browser, { timezoneId });
    try {
      const phoneDate = await page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      expect(phoneDate).not.toBe(now.date);
      await page.goto(`${server.url}/m/?store=${storeId}`);
      await page.getByTestId('store-name').waitFor();
      // 今天 is the store's day, chosen at start; the week begins on the store's Monday.
      const today = page.getByTestId(`day-${now.date}`);
      expect(await today.innerText()).toContain('今天');
      expect(await today.getAttribute('aria-selected')).toBe('true');
      expect(await page.getByRole('tab').first().getAttribute('data-testid')).toBe(`day-${mondayOf(now.date)}`);
      // A class half an hour from now on the store's clock is open, not 已结束.
      await page.getByTestId(`day-${soon.date}`).tap();
      const card = page.getByTestId(`session-${id}`);
      await card.waitFor();
      expect(await card.getByTestId('phase').count()).toBe(0);
      await shot(page, 'member-timetable-phone-other-zone');
    } finally {
      await context.close();
    }
  });
});
