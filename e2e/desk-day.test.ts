import type { Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { ADMIN, Api, DESK, describeBrowser, loginWithCookie, newContext, shot, TEACHER } from './harness.ts';
import { addDays, addMemberWithCard, addSession, addSessionTonight, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, toast } from './ui.ts';

/** Today's date in the store's time zone (Asia/Shanghai). */
const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

interface Impact {
  fromDate: string;
  reservations: number;
  pendings: number;
}

/** 今日's card of a class, opening the fold of the finished ones when it is there. */
async function todayCard(page: Page, tid: number) {
  const card = page.getByTestId(`today-session-${tid}`);
  await page.getByTestId('today-summary').waitFor();
  if (!(await card.isVisible())) {
    const toggle = page.getByTestId('today-ended-toggle');
    if ((await toggle.count()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }
  await card.waitFor();
  return card;
}

/** Switches the deduction mode on 预约设置: the confirm names what the switch leaves as it is. */
async function switchMode(page: Page, base: string, api: Api, to: '签到后扣费' | '预约即扣费') {
  await page.goto(`${base}/course_setting/course_setting`);
  await page.getByTestId('policy-card').waitFor();
  await page.getByText(to, { exact: true }).click();
  // The page says it before saving too, with the server's figures.
  await page.getByTestId('mode-switch-alert').getByText('今天及以后', { exact: false }).waitFor();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: '切换扣费模式' });
  const impact = await api.ok<Impact>('query/deduction/mode/impact');
  const text = confirm.getByTestId('mode-switch-impact');
  await text.getByText(`今天及以后 ${impact.reservations} 个已预约、${impact.pendings} 个待签到`).waitFor();
  // Each number says what happens to its bookings.
  const said = await text.innerText();
  expect(said).toContain(`${impact.reservations} 个已预约：已扣过费`);
  expect(said).toContain('点“到店”');
  expect(said).toContain(`${impact.pendings} 个待签到：保持不变`);
  expect(said).toContain('签到时扣费');
  return { confirm, impact };
}

describeBrowser('the desk’s day without dead ends (issue 33: 4, 5, 10)', (env) => {
  it('a mode switch warns with its numbers; bookings made before it keep 到店, pendings keep 签到', async () => {
    const { page, api, server } = env();
    const base = server.url;
    const f = await makeFixture(api, '切换');
    const today = todayInStore();
    const tid = await addSessionTonight(api, f, server.database.db, today);
    const later = await addSession(api, f, addDays(mondayOf(1), 2), '10:00', { count: 6 });
    const before = await api.ok<Impact>('query/deduction/mode/impact');
    expect(before.fromDate).toBe(today);

    // Booked and paid in 预约即扣费: one today, one next week.
    const paid = await addMemberWithCard(api, f, `先付会员${tid}`);
    await api.ok('add/member/reservation', { mcId: paid.cardId, tid, studentCount: 1, remark: '' });
    const next = await addMemberWithCard(api, f, `下周会员${tid}`);
    await api.ok('add/member/reservation', { mcId: next.cardId, tid: later, studentCount: 1, remark: '' });
    try {
      const { confirm, impact } = await switchMode(page, base, api, '签到后扣费');
      expect(impact.reservations).toBe(before.reservations + 2);
      expect(impact.pendings).toBe(before.pendings);
      await shot(page, 'desk-day-switch-confirm');
      await confirm.getByRole('button', { name: '确认切换' }).click();
      await toast(page, '已切换为签到后扣费');
      expect((await api.ok('query/module/status', { moduleId: 6 })).status).toBe(1);

      // 今日 in 签到后扣费: the booking made before the switch is marked at the door.
      await page.goto(`${base}/today`);
      const card = await todayCard(page, tid);
      const row = (name: string) => card.locator('tr', { hasText: name });
      expect(await row(`先付会员${tid}`).innerText()).toContain('已预约');
      await row(`先付会员${tid}`).getByRole('button', { name: '到店' }).click();
      await toast(page, `先付会员${tid} 已到店`);
      await row(`先付会员${tid}`).getByText('已到店').waitFor();
      await row(`先付会员${tid}`).getByRole('button', { name: '撤销到店' }).waitFor();
      await shot(page, 'desk-day-today-after-switch');
      const paidCard = (await api.ok('query/member/info', { id: paid.id })).cards[0];
      expect(paidCard.usedCount).toBe(1);

      // The drawer names the tab holding it, and offers 撤销到店 there.
      await page.goto(`${base}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByRole('tab', { name: '已签到 · 已预约' }).click();
      const booked = drawer.getByTestId('booked-table').locator('tr', { hasText: `先付会员${tid}` });
      await booked.getByTestId('attended').waitFor();
      await booked.getByRole('button', { name: '撤销到店' }).waitFor();

      // A pending of 签到后扣费, then back to 预约即扣费: the pending is still signed in.
      await api.ok('add/member/group/pending', { mid: f.memberId, tid, studentCount: 1, mcId: f.mcId, remark: '' });
      const back = await switchMode(page, base, api, '预约即扣费');
      expect(back.impact.pendings).toBe(before.pendings + 1);
      await back.confirm.getByRole('button', { name: '确认切换' }).click();
      await page.locator('.ant-message-notice', { hasText: '已切换为预约即扣费' }).first().waitFor();
      expect((await api.ok('query/module/status', { moduleId: 6 })).status).toBe(0);

      await page.goto(`${base}/today`);
      const again = await todayCard(page, tid);
      const pending = again.locator('tr', { hasText: f.memberName });
      expect(await pending.innerText()).toContain('待签到');
      await pending.getByRole('button', { name: '签到' }).click();
      await toast(page, `${f.memberName} 签到成功`);
      await pending.getByText('已签到').waitFor();
      expect((await api.ok('query/member/info', { id: f.memberId })).cards[0].usedCount).toBe(1);
      await shot(page, 'desk-day-today-switched-back');
    } finally {
      await api.ok('update/module/status', { moduleId: 6, status: 0 });
    }
  });

  it('a full class says 已满 before any form and offers 加入候补, which queues the member', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '满');
    const tid = await addSession(api, f, addDays(mondayOf(2), 1), '18:00', { count: 2 });
    const first = await addMemberWithCard(api, f, `甲会员${tid}`);
    const second = await addMemberWithCard(api, f, `乙会员${tid}`);
    await api.ok('add/member/reservation', { mcId: first.cardId, tid, studentCount: 1, remark: '' });
    await api.ok('add/member/reservation', { mcId: second.cardId, tid, studentCount: 1, remark: '' });
    await api.ok('update/booking/policy', { waitlist: 1, waitlistCutoffMinutes: 0 });
    try {
      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByTestId('session-seats').getByText('2/2').waitFor();
      const full = drawer.getByTestId('book-full');
      expect(await full.innerText()).toContain('已满 2/2');
      expect(await full.isDisabled()).toBe(true);
      expect(await drawer.getByRole('button', { name: '预约会员' }).count()).toBe(0);
      await shot(page, 'desk-day-full');

      await drawer.getByTestId('queue-full').click();
      const m = modal(page, '加入候补');
      await pick(page, field(m, '会员'), f.memberName, f.memberName);
      await pick(page, field(m, '会员卡'), '十次卡满');
      await m.getByRole('button', { name: '加入候补' }).click();
      await toast(page, '已加入候补');
      // The drawer turns to the queue: the member is first in it.
      const row = drawer.getByTestId('waitlist-table').locator('.ant-table-row', { hasText: f.memberName });
      await row.waitFor();
      expect(await row.locator('td').first().innerText()).toBe('1');
      await drawer.getByRole('tab', { name: '候补（1）' }).waitFor();
      await shot(page, 'desk-day-queued');
      const queue = await api.ok<{ list: { member: { id: number } }[]; open: boolean }>('query/waitlist/list', { tid });
      expect(queue.list.map((w) => w.member.id)).toEqual([f.memberId]);

      // Waiting turned off: the 候补 tab says one thing, how to turn it on (店长) or whom to ask (前台).
      await api.ok('update/booking/policy', { waitlist: 0 });
      // While the store's rule and the queue are still on their way, 已满 shows and nothing else:
      // no 加入候补 nor 已过候补截止时间 that the answers would take back a moment later.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      const hold = async (route: Route) => {
        await held;
        await route.continue();
      };
      await page.route('**/query/booking/policy', hold);
      await page.route('**/query/waitlist/list', hold);
      await page.reload();
      await drawer.getByTestId('book-full').waitFor();
      expect(await drawer.getByTestId('queue-full').count()).toBe(0);
      expect(await drawer.getByText('已过候补截止时间').count()).toBe(0);
      release();
      await page.unrouteAll({ behavior: 'wait' });
      // Once the drawer knows the queue is off it says so beside 已满, and offers no 加入候补.
      await drawer.getByTestId('waitlist-off').first().waitFor();
      expect(await drawer.getByTestId('queue-full').count()).toBe(0);
      await drawer.getByRole('tab', { name: /候补/ }).click();
      const pane = drawer.getByRole('tabpanel');
      const off = pane.getByTestId('waitlist-off');
      await off.waitFor();
      expect(await pane.locator('.ant-alert').count()).toBe(1);
      expect(await off.innerText()).toContain('本店未开启候补');
      await off.getByRole('link', { name: '预约设置 → 预约规则' }).waitFor();
      expect(await pane.getByText('自动递补', { exact: false }).count()).toBe(0);
      expect(await pane.getByTestId('add-wait').count()).toBe(0);
      await shot(page, 'desk-day-waitlist-off');

      const deskApi = new Api(server.url);
      await deskApi.login(DESK.account, DESK.password);
      const deskContext = await newContext(env().browser);
      try {
        await loginWithCookie(deskContext, deskApi);
        const desk = await deskContext.newPage();
        desk.setDefaultTimeout(15_000);
        await desk.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
        const d = desk.locator('.ant-drawer', { hasText: '课程详情' });
        await d.getByRole('tab', { name: /候补/ }).click();
        const deskPane = d.getByRole('tabpanel');
        const deskOff = deskPane.getByTestId('waitlist-off');
        await deskOff.waitFor();
        expect(await deskPane.locator('.ant-alert').count()).toBe(1);
        expect(await deskOff.innerText()).toContain('请联系店长');
        expect(await deskOff.getByRole('link').count()).toBe(0);
        await shot(desk, 'desk-day-waitlist-off-desk');
      } finally {
        await deskContext.close();
      }
    } finally {
      await api.ok('update/booking/policy', { waitlist: 0, waitlistCutoffMinutes: 0 });
    }
  });

  it('past the waitlist cutoff a full class says 已过候补截止时间 and offers no 加入候补', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '截止');
    const today = todayInStore();
    // Booked full a week ahead, then moved to tonight: a cutoff of a week before the start has passed.
    const tid = await addSession(api, f, addDays(today, 7), '09:00', { count: 1 });
    const only = await addMemberWithCard(api, f, `丙会员${tid}`);
    await api.ok('add/member/reservation', { mcId: only.cardId, tid, studentCount: 1, remark: '' });
    await server.database.db
      .updateTable('timetable')
      .set({ startTime: `${today} 23:59:00`, endTime: `${today} 23:59:59` })
      .where('id', '=', tid)
      .execute();
    await api.ok('update/booking/policy', { waitlist: 1, waitlistCutoffMinutes: 7 * 24 * 60 });
    try {
      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      await drawer.getByTestId('book-full').waitFor();
      await drawer.getByText('已过候补截止时间，不能再候补').waitFor();
      expect(await drawer.getByTestId('queue-full').count()).toBe(0);
      await shot(page, 'desk-day-waitlist-closed');
    } finally {
      await api.ok('update/booking/policy', { waitlist: 0, waitlistCutoffMinutes: 0 });
    }
  });

  it('今日 names its counts by what they are, matching the bookings, and folds the finished classes', async () => {
    const { page, api, server } = env();
    const db = server.database.db;
    const f = await makeFixture(api, '今日数');
    const today = todayInStore();
    // A class of this morning, over, and one at the day's last minute with three bookings, one of
    // them marked 到店. Both are booked a week ahead and then moved to today (the engine refuses to
    // book a class that has started), so the test holds at any hour.
    const ahead = addDays(today, 7);
    const done = await addSession(api, f, ahead, '08:00', { count: 4 });
    const tonight = await addSession(api, f, ahead, '10:00', { count: 6 });
    const m1 = await addMemberWithCard(api, f, `早课会员${done}`);
    await api.ok('add/member/reservation', { mcId: m1.cardId, tid: done, studentCount: 1, remark: '' });
    const moveTo = (id: number, start: string, end: string) =>
      db.updateTable('timetable').set({ startTime: start, endTime: end }).where('id', '=', id).execute();
    await moveTo(done, `${today} 00:00:00`, `${today} 00:00:01`);
    const names: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const m = await addMemberWithCard(api, f, `晚课会员${i}号${tonight}`);
      await api.ok('add/member/reservation', {
        mcId: m.cardId,
        tid: tonight,
        studentCount: i === 3 ? 2 : 1,
        remark: '',
      });
      names.push(`晚课会员${i}号${tonight}`);
    }
    await moveTo(tonight, `${today} 23:59:00`, `${today} 23:59:59`);
    const marked = await db
      .selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', tonight)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await api.ok('mark/attendance', { reservationId: marked.id, attended: 1 });

    // The day's bookings as the database holds them: people booked and who came, of today's live classes.
    const live = await db
      .selectFrom('reservation as r')
      .innerJoin('timetable as t', 't.id', 'r.timetableId')
      .select(['r.studentCount', 'r.status', 'r.attendedTime'])
      .where('t.deleted', '=', 0)
      .where('t.startTime', '>=', `${today} 00:00:00`)
      .where('t.startTime', '<', `${addDays(today, 1)} 00:00:00`)
      .where('r.status', 'in', [1, 2])
      .execute();
    const waiting = await db
      .selectFrom('pending as p')
      .innerJoin('timetable as t', 't.id', 'p.timetableId')
      .select(['p.studentCount'])
      .where('t.deleted', '=', 0)
      .where('t.startTime', '>=', `${today} 00:00:00`)
      .where('t.startTime', '<', `${addDays(today, 1)} 00:00:00`)
      .where('p.status', '=', 1)
      .execute();
    const sum = (rows: { studentCount: number }[]) => rows.reduce((n, r) => n + r.studentCount, 0);
    const all = sum(live) + sum(waiting);
    const came = sum(live.filter((r) => r.status === 2 || r.attendedTime !== null));
    expect(came).toBeGreaterThanOrEqual(1);

    await page.goto(`${server.url}/today`);
    await expect
      .poll(() => page.getByTestId('today-summary').innerText())
      .toBe(`已预约 ${all} · 已到店 ${came} · 未到 ${all - came}`);

    // Finished classes fold away: the page starts at the class on now or the next one.
    const day = await api.ok<{ sessions: { id: number; phase: string }[] }>('query/today', {});
    const ended = day.sessions.filter((s) => s.phase === 'ended');
    expect(ended.map((s) => s.id)).toContain(done);
    const toggle = page.getByTestId('today-ended-toggle');
    expect(await toggle.innerText()).toContain(`已结束 ${ended.length} 节`);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId(`today-session-${done}`).count()).toBe(0);
    const open = day.sessions.filter((s) => s.phase !== 'ended');
    if (open.length) {
      expect(await page.locator('.today-session').first().getAttribute('data-testid')).toBe(
        `today-session-${open[0].id}`,
      );
    }
    await shot(page, 'desk-day-today-folded');
    await toggle.click();
    const doneCard = page.getByTestId(`today-session-${done}`);
    await doneCard.waitFor();
    expect(await doneCard.innerText()).toContain(`早课会员${done}`);
    await shot(page, 'desk-day-today-unfolded');
    await toggle.click();
    await doneCard.waitFor({ state: 'detached' });
  });

  it('the desk and the teacher land on 今日 after login; a manager where they last were', async () => {
    const { browser, server } = env();
    const loginFresh = async (account: string, password: string) => {
      const context = await newContext(browser);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/login`);
      await page.getByPlaceholder('账号 / 手机号').fill(account);
      await page.getByPlaceholder('密码').fill(password);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      return { context, page };
    };
    const desk = await loginFresh(DESK.account, DESK.password);
    await desk.page.waitForURL('**/today');
    await desk.page.getByTestId('today-summary').waitFor();
    await shot(desk.page, 'desk-day-desk-landing');
    await desk.context.close();

    const teacher = await loginFresh(TEACHER.account, TEACHER.password);
    await teacher.page.waitForURL('**/today');
    await teacher.page.getByTestId('today-summary').waitFor();
    await teacher.context.close();

    // A manager: the calendar the first time; after working on 数据报表, back there at the next login.
    const manager = await loginFresh(ADMIN.account, ADMIN.password);
    await manager.page.waitForURL('**/course/calendar');
    await manager.page.getByRole('menuitem', { name: '数据报表' }).click();
    await manager.page.waitForURL('**/report/overview');
    await manager.page.getByRole('button', { name: /退出登录/ }).click();
    await manager.page.waitForURL(/\/login/);
    await manager.page.getByPlaceholder('账号 / 手机号').fill(ADMIN.account);
    await manager.page.getByPlaceholder('密码').fill(ADMIN.password);
    await manager.page.getByRole('button', { name: /登\s*录/ }).click();
    await manager.page.waitForURL('**/report/overview');
    // The bare address lands the same way.
    await manager.page.goto(`${server.url}/`);
    await manager.page.waitForURL('**/report/overview');
    await manager.context.close();
  });
});
