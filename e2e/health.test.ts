// 健康声明 (issue 45, item 3) on a phone: the store asks for a declaration before class; a member's
// first booking asks for it first (the booking waits), the member gives the separate consent, answers
// with one yes and a note, allows their teachers to read it, and books; the staff's session drawer
// shows 健康提示 next to the member, and the manager reads the answers from it.
import { HEALTH_DEFAULT_QUESTIONS } from '@studio/contract';
import { expect, it } from 'vitest';
import { DESK, describeBrowser, phoneContext, shot, staffPage } from './harness.ts';
import { addSession, makeFixture, signInMember } from './seed.ts';

/** Store-local (Asia/Shanghai) `YYYY-MM-DD HH:mm` of now plus `minutes`. */
function shanghai(minutes: number): { date: string; time: string } {
  const t = new Date(Date.now() + minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
  return { date: t.slice(0, 10), time: t.slice(11, 16) };
}

describeBrowser('健康声明', (env) => {
  it('asked before the first booking, answered with a yes on the phone; the drawer marks the member 健康提示', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '健');
    const at = shanghai(90);
    const tid = await addSession(api, f, at.date, at.time);
    await api.ok('update/health/setting', {
      questions: [...HEALTH_DEFAULT_QUESTIONS],
      required: true,
      reanswer: false,
    });
    const [context, page] = await phoneContext(env().browser);
    try {
      // sign in with a code from the desk
      await signInMember(page, api, server.url, storeId, {
        memberId: f.memberId,
        mobile: f.memberMobile,
        name: f.memberName,
      });

      // The class's sheet asks for the declaration first; the booking waits for it.
      await page.getByTestId(`day-${at.date}`).tap();
      await page.getByTestId(`session-${tid}`).tap();
      const sheet = page.getByTestId('session-sheet');
      const ask = sheet.getByTestId('health-ask');
      await ask.waitFor();
      expect(await ask.innerText()).toContain('本店上课前须填写健康声明');
      const bookButton = sheet.getByRole('button', { name: '预约', exact: true });
      expect(await bookButton.isDisabled()).toBe(true);
      await shot(page, 'health-ask');

      // The separate consent, then the form.
      await ask.getByRole('button', { name: '填写健康声明' }).tap();
      const consent = page.getByTestId('health-consent');
      await consent.waitFor();
      expect(await consent.innerText()).toContain('敏感个人信息');
      await shot(page, 'health-consent');
      await consent.getByRole('button', { name: '同意并填写' }).tap();
      const form = page.getByTestId('health-form');
      await form.waitFor();
      // Sent unanswered: the form says so and sends nothing.
      await form.getByTestId('health-submit').tap();
      await page.getByText('请回答每一个问题（是或否）').waitFor();
      await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
      for (let i = 0; i < HEALTH_DEFAULT_QUESTIONS.length; i++) {
        const choice = form.getByTestId(`health-${i}-${i === 1 ? 'yes' : 'no'}`);
        expect((await choice.boundingBox())!.height).toBeGreaterThanOrEqual(44);
        await choice.tap();
      }
      await form.locator('#health-note').fill('血压偏高，在吃药');
      await form.getByTestId('health-share').tap();
      await shot(page, 'health-form');
      await form.getByTestId('health-submit').tap();
      await page.getByText('已提交，老师上课时会留意你的情况').waitFor();
      await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });

      // Back in the sheet: no ask any more, the class is booked.
      await sheet.getByTestId(`card-${f.mcId}`).waitFor();
      await ask.waitFor({ state: 'detached' });
      await bookButton.tap();
      await page.getByText('预约成功').waitFor();
      await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });

      // 我的 → 健康声明: filled in today.
      await page.getByText('我的', { exact: true }).tap();
      const mine = page.getByTestId('my-health');
      await mine.getByText('已填写').waitFor();
      await mine.scrollIntoViewIfNeeded();
      await shot(page, 'health-mine');

      // The staff's drawer: 健康提示 next to the member; the manager reads the answers (allowed).
      const desk = env().page;
      await desk.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = desk.locator('.ant-drawer', { hasText: '课程详情' });
      const row = drawer.getByTestId('booked-table').locator('tr', { hasText: f.memberName });
      const mark = row.getByTestId('health-mark');
      await mark.waitFor();
      expect(await mark.innerText()).toBe('健康提示');
      await mark.click();
      const details = desk.getByTestId('member-health');
      await details.getByText('血压偏高，在吃药').waitFor();
      expect(await details.innerText()).toContain(HEALTH_DEFAULT_QUESTIONS[1]);
      await shot(desk, 'health-drawer');

      // The desk sees the same mark, never the answers: why is said instead.
      const { context: deskContext, page: front } = await staffPage(env().browser, server.url, DESK);
      try {
        await front.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
        const frontDrawer = front.locator('.ant-drawer', { hasText: '课程详情' });
        const frontMark = frontDrawer
          .getByTestId('booked-table')
          .locator('tr', { hasText: f.memberName })
          .getByTestId('health-mark');
        await frontMark.click();
        const seen = front.getByTestId('member-health');
        await seen.getByText('具体回答只给店长和会员的上课老师看。', { exact: false }).waitFor();
        expect(await seen.innerText()).not.toContain('血压偏高');
        expect(await seen.innerText()).not.toContain(HEALTH_DEFAULT_QUESTIONS[1]);
        await shot(front, 'health-drawer-desk');
      } finally {
        await deskContext.close();
      }
    } finally {
      await api.ok('update/health/setting', {
        questions: [...HEALTH_DEFAULT_QUESTIONS],
        required: false,
        reanswer: false,
      });
      await context.close();
    }
  });
});
