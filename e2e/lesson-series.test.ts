import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addDays, makeFixture, mondayOf } from './seed.ts';
import { field, modal, pick, pickIn, toast, typeInto } from './ui.ts';

describeBrowser('固定时段私教 (a fixed weekly lesson, booked as one bulk change)', (env) => {
  it('the desk sets up a weekly lesson, sees each date with why it cannot be booked, books the rest and undoes it from 操作日志', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '固');
    // A 1对1 type the fixture's teacher gives, their hours every day 09:00-21:00, a lesson pack for it.
    const typeName = `普拉提私教固${f.courseId}`;
    const type = await api.ok<{ id: number }>('insert/lesson/type', {
      name: typeName,
      kind: 'one_on_one',
      duration: 60,
      teachers: [{ teacherId: f.teacherId }],
      prices: [{ level: null, price: 30000 }],
      areaIds: [],
      equipment: [],
    });
    await api.ok('update/teacher/hours', {
      teacherId: f.teacherId,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '09:00', endTime: '21:00' })),
    });
    const packName = `私教课包固${f.courseId}`;
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: packName,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 300000,
      courseIds: [type.id],
    });
    await api.ok('insert/member/card', { mid: f.memberId, cardId: pack.id, totalCount: 10, expireTime: null });
    // Tuesdays from two weeks ahead; the second one the teacher is off.
    const first = addDays(mondayOf(2), 1);
    const dates = [first, addDays(first, 7), addDays(first, 14)];
    await api.ok('insert/teacher/hours/exception', {
      teacherId: f.teacherId,
      date: dates[1],
      kind: 'off',
      reason: '休假',
    });

    await page.goto(`${server.url}/course/calendar`);
    await page.getByRole('button', { name: '固定时段私教' }).click();
    const m = modal(page, '固定时段私教');
    await m.waitFor();
    // Nothing chosen yet: the contract's own words, nothing sent.
    await m.getByRole('button', { name: /预\s*览/ }).click();
    await toast(page, '请选择课程');
    await pick(page, field(m, '私教课程'), typeName);
    await pick(page, field(m, '老师'), f.teacherName);
    await pick(page, field(m, '会员').first(), f.memberName, f.memberName);
    await pick(page, field(m, '会员卡'), packName);
    const when = field(m, '第一节').locator('input');
    await typeInto(page, when.nth(0), first);
    await typeInto(page, when.nth(1), '19:00');
    const weeks = field(m, '连续').locator('input');
    await weeks.fill('3');
    await m.getByRole('button', { name: /预\s*览/ }).click();
    const table = m.getByTestId('series-preview');
    await table.locator('.ant-table-row').nth(2).waitFor();
    const rows = await table.locator('.ant-table-row').allInnerTexts();
    expect(rows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      [`${dates[0]}（周二）`, '19:00', '可预约'],
      [`${dates[1]}（周二）`, '19:00', '老师该时间不上班或休息'],
      [`${dates[2]}（周二）`, '19:00', '可预约'],
    ]);
    await expect(m.getByText('可预约 2 节，1 个日期不能预约（预约时跳过）').isVisible()).resolves.toBe(true);
    await shot(page, 'lesson-series-preview');
    // Nothing was booked by the preview.
    const booked = async () =>
      (
        await api.ok<{ list: { fromTime: string; courseName: string }[] }[]>('query/timetable/by/date', {
          fromDate: dates[0],
          toDate: dates[2],
          teacherId: f.teacherId,
        })
      )
        .flatMap((d) => d.list)
        .filter((s) => s.courseName === typeName)
        .map((s) => s.fromTime.slice(0, 16));
    expect(await booked()).toEqual([]);
    await m.getByRole('button', { name: '预约 2 节' }).click();
    await toast(page, '已预约 2 节课');
    await m.waitFor({ state: 'detached' });
    expect(await booked()).toEqual([`${dates[0]} 19:00`, `${dates[2]} 19:00`]);
    const cardOf = async () =>
      (
        await api.ok<{ cards: { cardName: string; usedCount: number }[] }>('query/member/info', { id: f.memberId })
      ).cards.find((c) => c.cardName === packName)!;
    expect((await cardOf()).usedCount).toBe(2);

    // Undone where every bulk change is: 操作日志, its entry, 撤销.
    await page.goto(`${server.url}/audit/log`);
    const log = page.getByTestId('audit-table');
    await log.locator('.ant-table-row').first().waitFor();
    await pickIn(page, page.getByTestId('audit-kind'), '批量操作');
    const entry = log.locator('.ant-table-row', { hasText: '固定时段私教' }).first();
    await entry.getByRole('button', { name: /撤\s*销/ }).click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '撤销这次批量操作' });
    const said = confirm.getByTestId('undo-preview');
    await said.waitFor();
    const undoText = await said.innerText();
    expect(undoText).toContain('删除这次操作新增的 2 节课');
    expect(undoText).toContain('将退回 2 次，涉及 1 位会员');
    await shot(page, 'lesson-series-undo');
    await confirm.getByRole('button', { name: /撤\s*销/ }).click();
    await toast(page, '已撤销');
    expect(await booked()).toEqual([]);
    expect((await cardOf()).usedCount).toBe(0);
  });

  it('a 1对2 series: two members on one shared card, in a room the type needs; a week the room is taken is marked', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '双');
    const u = f.courseId;
    const roomName = `器械室双${u}`;
    const room = await api.ok<{ id: number }>('insert/area', { name: roomName });
    const typeName = `双人私教双${u}`;
    const type = await api.ok<{ id: number }>('insert/lesson/type', {
      name: typeName,
      kind: 'one_on_two',
      duration: 60,
      teachers: [{ teacherId: f.teacherId }],
      prices: [{ level: null, price: 30000 }],
      areaIds: [room.id],
      equipment: [],
    });
    await api.ok('update/teacher/hours', {
      teacherId: f.teacherId,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '09:00', endTime: '21:00' })),
    });
    const packName = `双人课包双${u}`;
    const pack = await api.ok<{ id: number }>('insert/card/product', {
      cardName: packName,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 300000,
      courseIds: [type.id],
      shareMax: 1,
    });
    const card = await api.ok<{ id: number }>('insert/member/card', {
      mid: f.memberId,
      cardId: pack.id,
      totalCount: 10,
      expireTime: null,
    });
    const partnerName = `搭档双${u}`;
    const partner = await api.ok<{ id: number }>('insert/member', {
      name: partnerName,
      mobile: `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      gender: 1,
    });
    await api.ok('add/card/share', { mcId: card.id, mid: partner.id });
    // Wednesdays from three weeks ahead; the second one the room holds a group class of another teacher.
    const first = addDays(mondayOf(3), 2);
    const dates = [first, addDays(first, 7)];
    const other = await api.ok<{ id: number }>('insert/teacher', { name: `别的老师双${u}` });
    await api.ok('insert/timetable', {
      courseId: f.courseId,
      teacherId: other.id,
      areaId: room.id,
      date: dates[1],
      time: '19:00',
      reservableCount: 10,
    });

    await page.goto(`${server.url}/course/calendar`);
    await page.getByRole('button', { name: '固定时段私教' }).click();
    const m = modal(page, '固定时段私教');
    await m.waitFor();
    await pick(page, field(m, '私教课程'), typeName);
    // A 1对2 asks for two members; the type needs a room.
    await field(m, '会员2').waitFor();
    await pick(page, field(m, '场地'), roomName);
    await pick(page, field(m, '老师'), f.teacherName);
    await pick(page, field(m, '会员1'), f.memberName, f.memberName);
    await pick(page, field(m, '会员卡1'), packName);
    await pick(page, field(m, '会员2'), partnerName, partnerName);
    // The partner pays with the shared card (named by its holder).
    await pick(page, field(m, '会员卡2'), `${packName}·${f.memberName}共享`);
    const when = field(m, '第一节').locator('input');
    await typeInto(page, when.nth(0), first);
    await typeInto(page, when.nth(1), '19:00');
    await field(m, '连续').locator('input').fill('2');
    await m.getByRole('button', { name: /预\s*览/ }).click();
    const table = m.getByTestId('series-preview');
    await table.locator('.ant-table-row').nth(1).waitFor();
    const rows = await table.locator('.ant-table-row').allInnerTexts();
    const cells = rows.map((r) => r.split('\t').map((c) => c.trim()));
    expect(cells[0]).toEqual([`${dates[0]}（周三）`, '19:00', '可预约']);
    expect(cells[1][2]).toContain(roomName);
    await shot(page, 'lesson-series-pair-preview');
    await m.getByRole('button', { name: '预约 1 节' }).click();
    await toast(page, '已预约 1 节课');
    const days = await api.ok<{ list: { id: number; courseName: string; areaName: string; realCount: number }[] }[]>(
      'query/timetable/by/date',
      { fromDate: dates[0], toDate: dates[0], teacherId: f.teacherId },
    );
    const lesson = days.flatMap((d) => d.list).find((x) => x.courseName === typeName)!;
    expect([lesson.areaName, lesson.realCount]).toEqual([roomName, 2]);
    const used = await api.ok<{ cards: { cardName: string; usedCount: number }[] }>('query/member/info', {
      id: f.memberId,
    });
    expect(used.cards.find((c) => c.cardName === packName)!.usedCount).toBe(2);
  });
});
