import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot, type BrowserEnv } from './harness.ts';
import { addMemberWithCard, addSession, makeFixture, signInMember } from './seed.ts';
import { modal } from './ui.ts';

/** Store-local (Asia/Shanghai) `YYYY-MM-DD HH:mm` of now plus `minutes`. */
function shanghai(minutes: number): { date: string; time: string } {
  const t = new Date(Date.now() + minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
  return { date: t.slice(0, 10), time: t.slice(11, 16) };
}

/** The members' page on a phone. */
const phone = (env: BrowserEnv) => phoneContext(env.browser);

describeBrowser('members page on a phone', (env) => {
  it('from the landing page through sign-in with a desk code: book, see it, cancel, book again and check in', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '机');
    const at = shanghai(20);
    const tid = await addSession(api, f, at.date, at.time);
    const [context, page] = await phone(env());
    try {
      await page.goto(`${server.url}/m/?store=${storeId}`);
      await page.getByTestId('store-name').waitFor();
      await page.getByTestId(`day-${at.date}`).tap();
      const card = page.getByTestId(`session-${tid}`);
      await card.waitFor();
      expect(await card.innerText()).toContain(f.courseName);
      expect(await card.innerText()).toContain('余12位');
      // touch targets of one hand: at least 44 px high
      for (const target of [card, page.getByTestId(`day-${at.date}`), page.getByRole('button', { name: '登录预约' })]) {
        expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      await shot(page, 'member-landing');

      // sign-in: the form's own checks, then no SMS provider, then the desk's code
      await page.getByRole('button', { name: '登录预约' }).tap();
      await page.getByRole('button', { name: '登录', exact: true }).tap();
      await page.getByText('请输入正确的11位手机号').waitFor();
      await page.getByTestId('mobile').locator('input').fill(f.memberMobile);
      await page.getByRole('button', { name: '获取验证码' }).tap();
      await page.getByText('本店暂未开通短信验证码，请到前台领取登录验证码').waitFor();
      // the desk gives the member a code from the member's page
      const desk = env().page;
      await desk.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
      await desk.getByTestId('give-login-code').click();
      const code = (await desk.getByTestId('member-login-code').innerText()).trim().slice(0, 6);
      expect(code).toMatch(/^\d{6}$/);
      await shot(desk, 'member-desk-login-code');
      await desk.getByRole('button', { name: '知道了' }).click();
      await page.getByTestId('code').locator('input').fill(code);
      await shot(page, 'member-login');
      await page.getByRole('button', { name: '登录', exact: true }).tap();
      await page.getByText(`${f.memberName}，你好`).waitFor();

      // book the class with the card
      await page.getByTestId(`day-${at.date}`).tap();
      await card.tap();
      const sheet = page.getByTestId('session-sheet');
      await sheet.getByTestId(`card-${f.mcId}`).waitFor();
      expect(await sheet.innerText()).toContain('预约时扣除 1 次');
      await shot(page, 'member-session-sheet');
      await sheet.getByRole('button', { name: '预约', exact: true }).tap();
      await page.getByText('预约成功').waitFor();
      await card.getByText('已预约').waitFor();

      // 我的预约: the booking, then cancel it
      await page.getByText('我的预约').tap();
      const booking = page.getByTestId('my-booking').filter({ hasText: f.courseName });
      await booking.getByText('已预约').waitFor();
      expect(await booking.innerText()).toContain('扣除 1 次');
      await shot(page, 'member-my-bookings');
      await booking.getByRole('button', { name: '取消预约' }).tap();
      // In time: the confirm says it is given back.
      expect(await page.locator('.adm-dialog').getByTestId('cancel-cost').innerText()).toBe('现在取消，退回 1 次');
      await page.locator('.adm-dialog').getByRole('button', { name: '确定' }).tap();
      // The class is still to come: the cancel stays under 待上课, with nothing left to cancel.
      await booking.getByText('已取消').waitFor();
      expect(await booking.getByRole('button', { name: '取消预约' }).count()).toBe(0);

      // book again, and check in by the desk's code (the QR's link)
      await page.getByText('课表').tap();
      await page.getByTestId(`day-${at.date}`).tap();
      await card.tap();
      await sheet.getByRole('button', { name: '预约', exact: true }).tap();
      await card.getByText('已预约').waitFor();
      // the check-in QR of 今日, as the desk shows it
      await desk.goto(`${server.url}/today`);
      await desk.getByTestId('checkin-qr-button').click();
      const qr = desk.getByTestId('checkin-qr');
      await qr.waitFor();
      const url = (await qr.getAttribute('data-text'))!;
      await shot(desk, 'member-desk-checkin-qr');
      expect(url).toContain(`/m/?store=${storeId}&checkin=`);
      await page.goto(url);
      await page.locator('.adm-dialog').getByText('签到成功').waitFor();
      expect(await page.locator('.adm-dialog').innerText()).toContain(f.courseName);
      await shot(page, 'member-checked-in');
      await page.locator('.adm-dialog').getByRole('button', { name: '好的' }).tap();
      await page.getByText('我的预约').tap();
      await booking.getByText('已到店').waitFor();

      // the desk sees the self check-in in the session drawer
      await desk.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      await desk.getByTestId('booked-table').getByTestId('attended').waitFor();

      // 我的会员卡: 10 - 1 (the first booking was refunded)
      await page.getByText('会员卡', { exact: true }).tap();
      const myCard = page.getByTestId('my-card').first();
      await myCard.getByText('余 9 次').waitFor();
      expect(await myCard.innerText()).toContain('取消退回');
      await shot(page, 'member-cards');

      // the members' page QR in store settings
      await desk.goto(`${server.url}/settings/store`);
      await desk.getByTestId('member-page-qr').waitFor();
      expect(await desk.getByTestId('member-page-url').innerText()).toContain(`/m/?store=${storeId}`);
      await shot(desk, 'member-desk-page-qr');
      // 短信验证码: choosing a provider asks for its fields before anything is sent
      const sms = desk.getByTestId('sms-form');
      await sms.locator('.ant-select').first().click();
      await desk.locator('.ant-select-item-option', { hasText: '腾讯云短信' }).click();
      await sms.getByRole('button', { name: /保\s*存/ }).click();
      await sms.getByText('请填写密钥 ID').waitFor();
      await sms.getByText('请填写短信应用 ID（SdkAppId）').waitFor();
      await shot(desk, 'member-desk-sms');

      // the desk sees the member's own booking as the member's (history type 1)
      const history = await api.ok<{ list: { operateType: number }[] }>('query/timetable/history', {
        tid,
        page: 1,
      });
      expect(history.list.map((h) => h.operateType)).toContain(1);
    } finally {
      await context.close();
    }
  });

  it('queues for a full class on the phone and gets the seat a desk cancel frees; a late cancel the desk waives', async () => {
    const { api, server } = env();
    const desk = env().page;
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '递');
    const at = shanghai(60 * 5);
    const tid = await addSession(api, f, at.date, at.time, { count: 1 });
    // Another member holds the only seat.
    const other = await addMemberWithCard(api, f, `占位${f.memberId}`);
    await api.ok('add/member/reservation', { mcId: other.cardId, tid, studentCount: 1, remark: '' });
    await api.ok('update/booking/policy', { waitlist: 1, waitlistCutoffMinutes: 30 });
    const [context, page] = await phone(env());
    try {
      // sign in with a code from the desk
      await signInMember(page, api, server.url, storeId, {
        memberId: f.memberId,
        mobile: f.memberMobile,
        name: f.memberName,
      });

      // the class is full: queue for it
      await page.getByTestId(`day-${at.date}`).tap();
      const card = page.getByTestId(`session-${tid}`);
      await card.tap();
      const sheet = page.getByTestId('session-sheet');
      await sheet.getByRole('button', { name: '课程已满，排队候补' }).tap();
      await page.getByText('已加入候补，第1位').waitFor();
      await page.getByText('我的预约').tap();
      const mine = page.getByTestId('my-booking').filter({ hasText: f.courseName });
      await mine.getByText('候补第1位').waitFor();
      await shot(page, 'member-waiting');

      // the desk cancels the other member's booking: the queue's first gets the seat, charged
      await desk.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = desk.locator('.ant-drawer', { hasText: '课程详情' });
      const held = drawer.getByTestId('booked-table').locator('tr', { hasText: `占位${f.memberId}` });
      await held.getByRole('button', { name: '取消预约' }).click();
      await modal(desk, '取消预约').getByRole('button', { name: '确认取消预约' }).click();
      await drawer.getByTestId('booked-table').locator('tr', { hasText: f.memberName }).waitFor();
      await drawer.getByTestId('session-seats').getByText('1/1').waitFor();
      await shot(desk, 'member-promoted-desk');
      // 预约记录 names the promotion as the system's, not as the member's own booking.
      await drawer.getByRole('tab', { name: '预约记录' }).click();
      const promoted = drawer
        .getByTestId('history-table')
        .locator('tr', { hasText: f.memberName })
        .filter({ hasText: '候补递补' });
      expect(await promoted.innerText()).toContain('系统');
      expect(await promoted.innerText()).not.toContain('会员本人');
      // the member sees it in 我的预约 (reloaded, as on opening the page again)
      await page.reload();
      await page.getByText('我的预约').tap();
      await mine.getByText('已预约').waitFor();
      expect(await mine.innerText()).toContain('扣除 1 次');
      await shot(page, 'member-promoted');

      // a late cancel under the "keep the deduction" rule, then the desk waives it
      await api.ok('update/booking/policy', { cancelMinutesBefore: 60 * 24, lateCancel: 'forfeit' });
      await page.reload();
      await page.getByText('我的预约').tap();
      await mine.getByRole('button', { name: '取消预约' }).tap();
      // The confirm says what this cancel costs, not only the rule.
      const cost = page.locator('.adm-dialog').getByTestId('cancel-cost');
      expect(await cost.innerText()).toBe('已过免费取消时间（开课前24小时），取消后不退回 1 次');
      await shot(page, 'member-late-cancel-confirm');
      await page.locator('.adm-dialog').getByRole('button', { name: '确定' }).tap();
      // The class is still to come: the late cancel stays under 待上课, saying what it kept.
      const late = page.getByTestId('my-booking').filter({ hasText: '迟到取消' });
      await late.getByText('迟到取消，已扣除').waitFor();
      expect(await late.innerText()).toContain('扣除 1 次');
      expect(await late.getByRole('button', { name: '取消预约' }).count()).toBe(0);
      await shot(page, 'member-late-cancel');
      // The card's ledger has its line: 迟到取消, not given back.
      await page.locator('.adm-tab-bar-item', { hasText: '会员卡' }).tap();
      const ledger = page.locator('.ledger');
      await ledger.getByText('迟到取消').waitFor();
      expect(await ledger.innerText()).toContain('不退回 1 次');
      await shot(page, 'member-late-cancel-ledger');

      await desk.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
      await desk.getByRole('tab', { name: '爽约与迟到取消' }).click();
      const kept = desk.getByTestId('member-no-shows').locator('tr', { hasText: '迟到取消' });
      await kept.getByRole('button', { name: '免除扣费' }).click();
      const confirm = desk.locator('.ant-modal-confirm', { hasText: '免除迟到取消扣费' });
      await confirm.getByPlaceholder('免除原因（必填）').fill('临时加班，店长同意');
      await confirm.getByRole('button', { name: '免 除' }).click();
      await kept.getByText('已免除').waitFor();
      await shot(desk, 'member-late-cancel-waived');
      await page.reload();
      await page.getByText('我的预约').tap();
      await late.getByText('迟到取消，已退回').waitFor();
    } finally {
      await api.ok('update/booking/policy', {
        waitlist: 0,
        waitlistCutoffMinutes: 0,
        cancelMinutesBefore: 0,
        lateCancel: 'refuse',
      });
      await context.close();
    }
  });

  it('fits a 360x740 phone: nothing wider than the screen', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const context = await env().browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
    });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/m/?store=${storeId}`);
      await page.locator('.class-card').first().waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      await shot(page, 'member-landing-360');
    } finally {
      await context.close();
    }
  });
});
