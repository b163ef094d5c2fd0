// 添加到手机日历 (issue 29 item 10): a member's booked classes as a private calendar address a
// phone subscribes to; a teacher's in the back office. The address is fetched as a calendar app
// does (no cookie) and must hold the booked class at the store's time.
import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addDays, addSession, makeFixture, signInNewMember } from './seed.ts';

/** Store-local (Asia/Shanghai) date of today plus `n` days. */
const shanghaiDate = (n: number) =>
  addDays(new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10), n);

describeBrowser('calendar feeds', (env) => {
  it('a member subscribes from 我的预约 and the address lists the booked class; the desk shows a teacher her address', async () => {
    const { api, server, page: desk } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '历');
    const date = shanghaiDate(2);
    const tid = await addSession(api, f, date, '18:30');
    const [context, page] = await phoneContext(env().browser);
    try {
      const name = `日历会员${f.memberId}`;
      const { memberId } = await signInNewMember(page, api, server.url, storeId, name);
      const card = await api.ok<{ id: number }>('insert/member/card', {
        mid: memberId,
        cardId: f.productId,
        totalCount: 5,
        expireTime: null,
      });
      await api.ok('add/member/reservation', { tid, mcId: card.id, studentCount: 1 });

      await page.getByText('我的预约').tap();
      await page.getByTestId('my-booking').filter({ hasText: f.courseName }).waitFor();
      await page.getByRole('button', { name: '添加到手机日历' }).tap();
      const sheet = page.getByTestId('calendar-feed');
      await sheet.waitFor();
      const url = (await sheet.getByTestId('calendar-feed-url').innerText()).trim();
      expect(url).toMatch(new RegExp(`^${server.url}/calendar/[A-Za-z0-9_-]{32}\\.ics$`));
      expect(await sheet.getByRole('button', { name: '打开手机日历订阅' }).count()).toBe(1);
      await shot(page, 'calendar-feed-member');

      // What the phone's calendar reads: the class at the store's wall-clock time, no cookie needed.
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
      const text = await res.text();
      expect(text).toContain(`SUMMARY:${f.courseName}`);
      expect(text).toContain(`DTSTART;TZID=Asia/Shanghai:${date.replaceAll('-', '')}T183000`);

      // The desk: 老师 → 日历订阅 shows the teacher's own address.
      await desk.goto(`${server.url}/teacher/list`);
      const row = desk.getByRole('row').filter({ hasText: f.teacherName });
      await row.getByText('日历订阅').click();
      const teacherUrl = desk.getByTestId('teacher-feed-url');
      await teacherUrl.waitFor();
      expect(await teacherUrl.innerText()).toMatch(/\/calendar\/[A-Za-z0-9_-]{32}\.ics/);
      await shot(desk, 'calendar-feed-teacher');
      const teacherFeed = await (await fetch((await teacherUrl.innerText()).trim().match(/\S+\.ics/)![0])).text();
      expect(teacherFeed).toContain(`SUMMARY:${f.courseName}（已约1/12）`);
    } finally {
      await context.close();
    }
  });
});
