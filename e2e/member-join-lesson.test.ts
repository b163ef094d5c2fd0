// 加入小班 on the phone (issue 43): a member picking a 小班 type and a teacher sees, above the free
// times, the 小班 already booked that day with room (time, teacher, 已约 n/most), joins one with a
// usable card and finds it in 我的预约; the lesson counts them.
import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { signInNewMember } from './seed.ts';

/** Store-local (Asia/Shanghai) date `days` from today. */
function shanghaiDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);
}

describeBrowser('a member joins a 小班 on the phone', (env) => {
  it('小班 → teacher → day: 可加入的小班 listed with 已约 1/4; 加入 with a card → 已加入小班, in 我的预约, the lesson 2/4', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const u = String(Date.now()).slice(-5);
    const teacherName = `苏老师${u}`;
    const teacher = await api.ok<{ id: number }>('insert/teacher', { name: teacherName });
    await api.ok('update/teacher/hours', {
      teacherId: teacher.id,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '08:00', endTime: '20:00' })),
    });
    const typeName = `普拉提小班${u}`;
    const type = await api.ok<{ id: number }>('insert/lesson/type', {
      name: typeName,
      kind: 'small_group',
      maxMembers: 4,
      duration: 60,
      minNoticeMinutes: 0,
      cancelCutoffMinutes: 720,
      slotStep: 30,
      teachers: [{ teacherId: teacher.id, level: null }],
      prices: [],
      areaIds: [],
      equipment: [],
    });
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `小班课包${u}`,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 100000,
      courseIds: [type.id],
    });
    // The desk booked a 小班 at 10:00 two days ahead for another member.
    const date = shanghaiDate(2);
    const first = await api.ok<{ id: number }>('insert/member', {
      name: `先约会员${u}`,
      mobile: `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      gender: 1,
    });
    const firstCard = await api.ok<{ id: number }>('insert/member/card', {
      mid: first.id,
      cardId: pack.id,
      totalCount: 10,
      expireTime: null,
    });
    const lesson = await api.ok<{ id: number }>('add/lesson', {
      courseId: type.id,
      teacherId: teacher.id,
      date,
      time: '10:00',
      members: [{ mid: first.id, mcId: firstCard.id }],
    });

    const [context, page] = await phoneContext(env().browser);
    try {
      const name = `吴会员${u}`;
      const { memberId } = await signInNewMember(page, api, server.url, storeId, name);
      const card = await api.ok<{ id: number }>('insert/member/card', {
        mid: memberId,
        cardId: pack.id,
        totalCount: 10,
        expireTime: null,
      });

      await page.getByTestId('lesson-entry').tap();
      const flow = page.getByTestId('lesson-flow');
      await flow.getByTestId(`lesson-type-${type.id}`).tap();
      await flow.getByTestId(`teacher-${teacher.id}`).tap();
      await flow.getByRole('heading', { name: '选择时间' }).waitFor();
      await flow.getByTestId(`lesson-day-${date}`).tap();

      // The 小班 with room above the free times; its hour is not offered as a new lesson.
      const open = flow.getByTestId(`open-lesson-${lesson.id}`);
      await open.waitFor();
      expect(await open.innerText()).toContain('10:00-11:00');
      expect(await open.innerText()).toContain(`老师：${teacherName} · 已约 1/4`);
      expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await flow.getByTestId('slot-11:00').waitFor();
      expect(await flow.getByTestId('slot-10:00').count()).toBe(0);
      await flow.getByText('或约新的时间').waitFor();
      await shot(page, 'member-lesson-join-list');
      await open.tap();

      // Confirm: the lesson, its count, the card (the first usable one), what it takes and the cancel rule.
      await flow.getByRole('heading', { name: '加入小班' }).waitFor();
      await flow.getByTestId(`card-${card.id}`).waitFor();
      expect(await flow.getByTestId('lesson-join-count').innerText()).toBe('加入已开的小班 · 已约 1/4');
      expect(await flow.getByTestId('lesson-cost').innerText()).toBe(
        '预约时扣除 1 次。开课前12小时以前可免费取消，之后取消不退回。',
      );
      await shot(page, 'member-lesson-join-confirm');
      await flow.getByRole('button', { name: '确认加入' }).tap();
      await page.getByText('已加入小班').waitFor();

      // 我的预约: the 小班 at 10:00 with its teacher, one lesson taken from the card.
      const booking = page.getByTestId('my-booking').filter({ hasText: typeName });
      await booking.waitFor();
      expect(await booking.innerText()).toContain(`10:00-11:00 · ${teacherName}`);
      expect(await booking.innerText()).toContain('扣除 1 次');
      await page.getByText('已加入小班').waitFor({ state: 'hidden' });
      await shot(page, 'member-lesson-joined');

      // The lesson now counts two members.
      const info = await api.ok<{ realCount: number; reservableCount: number }>('query/timetable/info', {
        id: lesson.id,
      });
      expect(info.realCount).toBe(2);
    } finally {
      await context.close();
    }
  });
});
