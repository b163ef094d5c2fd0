import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addSessionTonight, makeFixture } from './seed.ts';
import { modal, toast, typeRange } from './ui.ts';

/** Today's date in the store's time zone (Asia/Shanghai). */
const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

describeBrowser('到店 in 预约即扣费 (the desk at the door)', (env) => {
  it('marks a class one by one and with 全部到店; 今日, the drawer and the reports agree', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '到店');
    const today = todayInStore();
    // Four members booked (charged at booking) into a class of today.
    const tid = await addSessionTonight(api, f, server.database.db, today);
    const names: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const name = `到店会员${i}号${tid}`;
      const m = await api.ok<{ id: number }>('insert/member', {
        name,
        mobile: `135${String(tid * 10 + i).padStart(8, '0')}`,
      });
      const mc = await api.ok<{ id: number }>('insert/member/card', {
        mid: m.id,
        cardId: f.productId,
        totalCount: 10,
        expireTime: null,
      });
      await api.ok('add/member/reservation', { mcId: mc.id, tid, studentCount: 1, remark: '' });
      names.push(name);
    }
    // The class was this morning and is over (booked before): who did not come is a no-show once
    // its attendance is taken.
    await server.database.db
      .updateTable('timetable')
      .set({ startTime: `${today} 00:00:00`, endTime: `${today} 00:00:01` })
      .where('id', '=', tid)
      .execute();
    const overview = () =>
      api.ok<{ signedIn: number; noShows: number }>('query/report/overview', { fromDate: today, toDate: today });
    const before = await overview();

    await page.goto(`${server.url}/today`);
    // Finished today: folded under 已结束 N 节 until opened.
    const card = page.getByTestId(`today-session-${tid}`);
    await page.getByTestId('today-ended-toggle').click();
    await card.waitFor();
    const row = (name: string) => card.locator('tr', { hasText: name });
    for (const n of names) expect(await row(n).innerText()).toContain('已预约');

    // One tap: 到店, and 撤销到店 takes it back.
    await row(names[0]).getByRole('button', { name: '到店' }).click();
    await toast(page, `${names[0]} 已到店`);
    await row(names[0]).getByText('已到店').waitFor();
    await row(names[0]).getByRole('button', { name: '撤销到店' }).click();
    await toast(page, `已撤销 ${names[0]} 的到店`);
    await row(names[0]).getByRole('button', { name: '到店' }).waitFor();
    await row(names[0]).getByRole('button', { name: '到店' }).click();
    await toast(page, `${names[0]} 已到店`);
    await expect.poll(() => card.getByTestId('came-count').innerText()).toBe('到店 1/4');

    // 全部到店: the other three ticked; the one who did not come is unticked.
    await card.getByRole('button', { name: '全部到店（3）' }).click();
    const m = modal(page, '全部到店');
    await m.getByTestId('attend-all-list').waitFor();
    await m.getByRole('checkbox', { name: names[3] }).uncheck();
    await shot(page, 'attendance-all');
    await m.getByRole('button', { name: '确认到店（2）' }).click();
    await toast(page, '已到店 2 人');
    await expect.poll(() => card.getByTestId('came-count').innerText()).toBe('到店 3/4');
    for (const n of names.slice(0, 3)) expect(await row(n).innerText()).toContain('已到店');
    expect(await row(names[3]).innerText()).toContain('已预约');
    expect(await card.getByRole('button', { name: /全部到店/ }).count()).toBe(1);
    await shot(page, 'attendance-today');

    // 今日's totals read the same facts as the day's call.
    const day = await api.ok<{ sessions: { roster: { state: string; studentCount: number }[] }[] }>('query/today', {});
    const people = (states: string[]) =>
      day.sessions
        .flatMap((s) => s.roster)
        .filter((r) => states.includes(r.state))
        .reduce((n, r) => n + r.studentCount, 0);
    const came = people(['attended', 'signed']);
    const notYet = people(['booked', 'waiting']);
    expect(came).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => page.getByTestId('today-summary').innerText())
      .toBe(`已预约 ${came + notYet} · 已到店 ${came} · 未到 ${notYet}`);

    // The drawer: 状态 says 已到店 for the three, 已预约 for the fourth; the history has the marks.
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    await page.getByRole('tab', { name: '已预约' }).click();
    const booked = page.getByTestId('booked-table');
    await booked.locator('tr', { hasText: names[3] }).waitFor();
    for (const n of names.slice(0, 3)) {
      expect(await booked.locator('tr', { hasText: n }).getByTestId('attended').innerText()).toBe('已到店');
    }
    const fourth = booked.locator('tr', { hasText: names[3] });
    expect(await fourth.innerText()).toContain('已预约');
    await shot(page, 'attendance-drawer');
    // The desk corrects it from the drawer too: the fourth came after all, then not.
    await fourth.getByRole('button', { name: '到店' }).click();
    await fourth.getByTestId('attended').waitFor();
    await fourth.getByRole('button', { name: '撤销到店' }).click();
    await expect.poll(() => fourth.getByTestId('attended').count()).toBe(0);
    await page.getByRole('tab', { name: '预约记录' }).click();
    const trail = page.getByTestId('history-table');
    await trail.waitFor();
    await shot(page, 'attendance-history');
    await trail.getByText('撤销到店').first().waitFor();
    expect(await trail.getByText('到店', { exact: true }).count()).toBeGreaterThanOrEqual(4);

    // The reports: three came, one did not (the class's attendance was taken).
    const after = await overview();
    expect(after.signedIn - before.signedIn).toBe(3);
    expect(after.noShows - before.noShows).toBe(1);
    await page.goto(`${server.url}/report/overview`);
    await page.getByText('数据报表').first().waitFor();
    await typeRange(page, page.getByTestId('report-range'), today, today);
    await expect.poll(() => page.getByTestId('stat-signed').innerText()).toContain(String(after.signedIn));
    expect(await page.getByTestId('stat-noshow').innerText()).toContain(String(after.noShows));
    expect(await page.getByTestId('stat-attend').innerText()).toContain('%');
    await shot(page, 'attendance-reports');
  });
});
