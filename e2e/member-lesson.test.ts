// 约私教 on the phone (issue 43): a member picks a lesson type, a teacher, a day, a free start time and
// the card, confirms, sees the lesson in 我的预约 (待确认 while the teacher must confirm) and cancels it
// before the cutoff (given back); a lesson past its cutoff warns that cancelling keeps it.
import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { signInNewMember } from './seed.ts';

/** Store-local (Asia/Shanghai) date `days` from today. */
function shanghaiDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);
}

describeBrowser('a member books a private lesson on the phone', (env) => {
  it('约私教: type → teacher → day → time → card → confirm; 我的预约 shows it 待确认; cancel before the cutoff gives it back', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const u = String(Date.now()).slice(-5);
    const teacherName = `林老师${u}`;
    const teacher = await api.ok<{ id: number }>('insert/teacher', { name: teacherName });
    await api.ok('update/teacher/hours', {
      teacherId: teacher.id,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '08:00', endTime: '20:00' })),
    });
    const lessonBody = (name: string, cancelCutoffMinutes: number) => ({
      name,
      kind: 'one_on_one',
      duration: 60,
      minNoticeMinutes: 0,
      cancelCutoffMinutes,
      slotStep: 30,
      teachers: [{ teacherId: teacher.id, level: 'senior' }],
      prices: [{ level: 'senior', price: 30000 }],
      areaIds: [],
      equipment: [],
    });
    const typeName = `普拉提私教${u}`;
    const type = await api.ok<{ id: number }>('insert/lesson/type', lessonBody(typeName, 720));
    // A type cancelled free only up to 30 days before: any lesson of it is past its cutoff.
    const strictName = `器械私教${u}`;
    const strict = await api.ok<{ id: number }>('insert/lesson/type', lessonBody(strictName, 30 * 24 * 60));
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `私教课包${u}`,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 300000,
      courseIds: [type.id, strict.id],
    });
    // The teacher must confirm lessons: a booked one waits (待确认).
    await api.ok('update/lesson/setting', { teacherConfirms: 1, confirmHours: 12 });

    const [context, page] = await phoneContext(env().browser);
    try {
      const name = `周会员${u}`;
      const { memberId } = await signInNewMember(page, api, server.url, storeId, name);
      const card = await api.ok<{ id: number }>('insert/member/card', {
        mid: memberId,
        cardId: pack.id,
        totalCount: 10,
        expireTime: null,
      });

      // The entry on the timetable, then the lesson types.
      const entry = page.getByTestId('lesson-entry');
      await entry.waitFor();
      expect((await entry.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await shot(page, 'member-lesson-entry');
      await entry.tap();
      const flow = page.getByTestId('lesson-flow');
      await flow.getByTestId(`lesson-type-${type.id}`).waitFor();
      expect(await flow.getByTestId(`lesson-type-${type.id}`).innerText()).toContain('1对1 · 60分钟 · 300.00 元起');
      await shot(page, 'member-lesson-types');
      await flow.getByTestId(`lesson-type-${type.id}`).tap();

      // The teacher (or 任意老师), with their level and price.
      await flow.getByRole('heading', { name: '选择老师' }).waitFor();
      expect(await flow.getByTestId(`teacher-${teacher.id}`).innerText()).toContain('高级 · 300.00 元/节');
      await flow.getByTestId('teacher-any').waitFor();
      await shot(page, 'member-lesson-teachers');
      await flow.getByTestId(`teacher-${teacher.id}`).tap();

      // A day two days ahead, its free start times (the teacher's hours 08:00-20:00, 60 minutes each).
      const date = shanghaiDate(2);
      await flow.getByRole('heading', { name: '选择时间' }).waitFor();
      await flow.getByTestId(`lesson-day-${date}`).tap();
      await flow.getByTestId('slot-10:00').waitFor();
      expect(await flow.getByTestId('slot-08:00').count()).toBe(1);
      expect(await flow.getByTestId('slot-19:00').count()).toBe(1);
      expect(await flow.getByTestId('slot-19:30').count()).toBe(0);
      expect((await flow.getByTestId('slot-10:00').boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await shot(page, 'member-lesson-times');
      await flow.getByTestId('slot-10:00').tap();

      // The card (the first usable one chosen), what it takes and the cancel rule; confirm.
      await flow.getByRole('heading', { name: '确认预约' }).waitFor();
      await flow.getByTestId(`card-${card.id}`).waitFor();
      expect(await flow.getByTestId('lesson-summary').innerText()).toContain(`老师：${teacherName}（高级）`);
      expect(await flow.getByTestId('lesson-cost').innerText()).toBe(
        '预约时扣除 1 次。开课前12小时以前可免费取消，之后取消不退回。',
      );
      expect(await flow.getByRole('button', { name: '确认预约' }).isEnabled()).toBe(true);
      await shot(page, 'member-lesson-confirm');
      await flow.getByRole('button', { name: '确认预约' }).tap();
      await page.getByText('已提交，等待老师确认').waitFor();

      // 我的预约: the lesson, 待确认.
      const booking = page.getByTestId('my-booking').filter({ hasText: typeName });
      await booking.getByText('待确认').waitFor();
      expect(await booking.innerText()).toContain(`10:00-11:00 · ${teacherName}`);
      expect(await booking.innerText()).toContain('扣除 1 次');
      await page.getByText('已提交，等待老师确认').waitFor({ state: 'hidden' });
      await shot(page, 'member-lesson-booked');

      // The time taken is no longer offered.
      const slots = await api.ok<{ date: string; teachers: { slots: { startTime: string }[] }[] }[]>(
        'query/lesson/free/slots',
        { courseId: type.id, teacherIds: [teacher.id], from: date, to: date },
      );
      expect(slots[0].teachers[0].slots.map((s) => s.startTime.slice(11, 16))).not.toContain('10:00');

      // Cancel before the cutoff: the confirm says it is given back; the lesson stays listed as 已取消,
      // as a cancelled class does (its teacher's hour free again).
      await booking.getByRole('button', { name: '取消预约' }).tap();
      const dialog = page.locator('.adm-dialog');
      expect(await dialog.getByTestId('cancel-cost').innerText()).toBe('现在取消，退回 1 次');
      await shot(page, 'member-lesson-cancel');
      await dialog.getByRole('button', { name: '确定' }).tap();
      await page.getByText('已取消，已退回会员卡').waitFor();
      await booking.locator('.adm-tag', { hasText: '已取消' }).waitFor();
      expect(await booking.getByRole('button', { name: '取消预约' }).count()).toBe(0);

      // A lesson past its cutoff (the desk booked it for the member): cancelling warns it is kept.
      await api.ok('add/lesson', {
        courseId: strict.id,
        teacherId: teacher.id,
        date,
        time: '15:00',
        members: [{ mid: memberId, mcId: card.id }],
      });
      // The phone opened again (what the desk did is not pushed to it).
      await page.reload();
      await page.getByText(`${name}，你好`).waitFor();
      await page.getByText('我的预约').tap();
      const late = page.getByTestId('my-booking').filter({ hasText: strictName });
      await late.getByRole('button', { name: '取消预约' }).tap();
      expect(await dialog.getByTestId('cancel-cost').innerText()).toBe(
        '已过免费取消时间（开课前720小时），取消后不退回 1 次',
      );
      await shot(page, 'member-lesson-late-cancel');
      await dialog.getByRole('button', { name: '确定' }).tap();
      await page.getByText('已取消，本节不退回').waitFor();
      await late.getByText('迟到取消，已扣除').waitFor();
    } finally {
      await api.ok('update/lesson/setting', { teacherConfirms: 0, confirmHours: 12 });
      await context.close();
    }
  });
});
