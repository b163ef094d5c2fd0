import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../test/harness.ts';

const API = '/store/api';
const base = { name: '流瑜伽', count: 12, duration: 60, color: '#FF8800', cardIds: [] as number[] };

describeEachDb('store courses', (env) => {
  it('adds a course with its cards, reads it, lists it, and the simple list has enabled ones only', async () => {
    const { client, factory } = env();
    const p1 = await factory.cardProduct({ cardName: '次卡A' });
    const p2 = await factory.cardProduct({ cardName: '次卡B' });
    const { id } = await client.ok(`${API}/insert/store/course`, {
      ...base,
      cardIds: [p2.id, p1.id, p1.id],
      genderLimit: 0,
      ageLimit: 1,
      syear: 4,
      eyear: 12,
      description: '适合初学者',
    });
    const course = await client.ok(`${API}/query/store/course/by/id`, { id });
    expect(course).toMatchObject({
      id,
      name: '流瑜伽',
      count: 12,
      duration: 60,
      color: '#ff8800',
      genderLimit: 0,
      ageLimit: 1,
      syear: 4,
      smonth: 0,
      sday: null,
      eyear: 12,
      emonth: 0,
      description: '适合初学者',
      enabled: 1,
      cards: [
        { id: p1.id, name: '次卡A' },
        { id: p2.id, name: '次卡B' },
      ],
    });
    expect(await client.ok(`${API}/query/course/simple/list`)).toContainEqual({ id, name: '流瑜伽', count: 12 });
    await client.ok(`${API}/update/store/course/status`, { id, enabled: 0 });
    expect((await client.ok(`${API}/query/course/simple/list`)).some((c: { id: number }) => c.id === id)).toBe(false);
    const page = await client.ok(`${API}/query/store/course/list`, { param: '流瑜伽' });
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ id, enabled: 0, cards: [{ id: p1.id }, { id: p2.id }] });
  });

  it('updates a course and replaces its cards', async () => {
    const { client, factory } = env();
    const p1 = await factory.cardProduct();
    const p2 = await factory.cardProduct();
    const { id } = await client.ok(`${API}/insert/store/course`, { ...base, name: '普拉提', cardIds: [p1.id] });
    await client.ok(`${API}/update/store/course`, {
      id,
      ...base,
      name: '普拉提进阶',
      count: 8,
      duration: 75,
      ageLimit: 2,
      syear: 2015,
      smonth: 1,
      sday: 1,
      eyear: 2020,
      emonth: 12,
      eday: 31,
      cardIds: [p2.id],
    });
    const c = await client.ok(`${API}/query/store/course/by/id`, { id });
    expect(c).toMatchObject({ name: '普拉提进阶', count: 8, duration: 75, ageLimit: 2, syear: 2015, eday: 31 });
    expect(c.cards.map((x: { id: number }) => x.id)).toEqual([p2.id]);
  });

  it('validates colour, count, duration and age range in Chinese', async () => {
    const { client } = env();
    const cases: [object, string][] = [
      [{ color: 'red' }, '颜色格式应为 #rrggbb'],
      [{ count: 10_001 }, '上课人数应在0到10000之间'],
      [{ count: -1 }, '上课人数应在0到10000之间'],
      [{ duration: 4 }, '课程时长应在5到600分钟之间'],
      [{ duration: 601 }, '课程时长应在5到600分钟之间'],
      [{ name: '' }, '请输入课程名称'],
      [{ ageLimit: 1, syear: 12, eyear: 4 }, '年龄限制的起止范围不正确'],
      [{ ageLimit: 1 }, '年龄限制的起止范围不正确'],
      [{ ageLimit: 2, syear: 2020, smonth: 2, sday: 30, eyear: 2021, emonth: 1, eday: 1 }, '年龄限制的起止范围不正确'],
    ];
    for (const [patch, msg] of cases) {
      const a = await client.call(`${API}/insert/store/course`, { ...base, ...patch });
      expect([a.status, a.msg]).toEqual([400, msg]);
    }
  });

  it('accepts an open-ended age bound, as the booking rules read it', async () => {
    const { client } = env();
    const { id } = await client.ok(`${API}/insert/store/course`, { ...base, ageLimit: 1, syear: 60 });
    expect(await client.ok(`${API}/query/store/course/by/id`, { id })).toMatchObject({
      syear: 60,
      smonth: 0,
      eyear: null,
      emonth: null,
    });
    const b = await client.ok(`${API}/insert/store/course`, { ...base, ageLimit: 2, eyear: 2015, emonth: 6 });
    expect(await client.ok(`${API}/query/store/course/by/id`, { id: b.id })).toMatchObject({
      syear: null,
      eyear: 2015,
      emonth: 6,
      eday: null,
    });
    const none = await client.call(`${API}/insert/store/course`, { ...base, ageLimit: 2 });
    expect([none.status, none.msg]).toEqual([400, '年龄限制的起止范围不正确']);
  });

  it('answers 404 for unknown or another store’s course and card ids', async () => {
    const { client, other } = env();
    const theirCourse = await other.factory.course({ name: '别店课程' });
    const theirCard = await other.factory.cardProduct();
    const a = await client.call(`${API}/insert/store/course`, { ...base, cardIds: [theirCard.id] });
    expect([a.status, a.msg]).toEqual([404, '卡种不存在']);
    for (const id of [theirCourse.id, 555_555]) {
      const b = await client.call(`${API}/query/store/course/by/id`, { id });
      expect([b.status, b.msg, b.data]).toEqual([404, '课程不存在', null]);
      expect((await client.call(`${API}/update/store/course`, { id, ...base })).status).toBe(404);
      expect((await client.call(`${API}/update/store/course/status`, { id, enabled: 1 })).status).toBe(404);
    }
    const list = await client.ok(`${API}/query/store/course/list`, {});
    expect(JSON.stringify(list)).not.toContain('别店课程');
    expect(JSON.stringify(await client.ok(`${API}/query/course/simple/list`))).not.toContain('别店课程');
  });

  it('少儿课程: the flag round-trips, an edit without it keeps it, and the session (receipt) reads it', async () => {
    const { client, factory } = env();
    const { id } = await client.ok(`${API}/insert/store/course`, { ...base, name: '少儿体能', forChildren: true });
    expect((await client.ok(`${API}/query/store/course/by/id`, { id })).forChildren).toBe(true);
    // A course saved without the field is not one; 1/0 are taken as well as true/false.
    const adult = await client.ok(`${API}/insert/store/course`, { ...base, name: '成人瑜伽' });
    expect((await client.ok(`${API}/query/store/course/by/id`, { id: adult.id })).forChildren).toBe(false);
    await client.ok(`${API}/update/store/course`, { id: adult.id, ...base, name: '成人瑜伽', forChildren: 1 });
    expect((await client.ok(`${API}/query/store/course/by/id`, { id: adult.id })).forChildren).toBe(true);
    await client.ok(`${API}/update/store/course`, { id: adult.id, ...base, name: '成人瑜伽', forChildren: false });
    expect((await client.ok(`${API}/query/store/course/by/id`, { id: adult.id })).forChildren).toBe(false);
    // An edit that does not name it (an older client) keeps it.
    await client.ok(`${API}/update/store/course`, { id, ...base, name: '少儿体能课' });
    const kept = await client.ok(`${API}/query/store/course/by/id`, { id });
    expect([kept.name, kept.forChildren]).toEqual(['少儿体能课', true]);
    const page = await client.ok(`${API}/query/store/course/list`, { param: '少儿体能' });
    expect(page.list.map((c: { forChildren: boolean }) => c.forChildren)).toEqual([true]);
    const bad = await client.call(`${API}/update/store/course`, { id, ...base, forChildren: 'yes' });
    expect([bad.status, bad.msg]).toEqual([400, '少儿课程取值不正确']);
    // A session of it says so (the receipt prints 家长签字 then), one of another course does not.
    const teacher = await factory.teacher();
    for (const [courseId, expected] of [
      [id, true],
      [adult.id, false],
    ] as const) {
      await client.ok(`${API}/insert/timetable`, {
        courseId,
        teacherId: teacher.id,
        reservableCount: 5,
        date: '2099-03-02',
        time: courseId === id ? '08:00' : '10:00',
        isOnline: 0,
        areaId: null,
        bookId: null,
      });
      const days = await client.ok(`${API}/query/timetable/by/date`, { fromDate: '2099-03-02', toDate: '2099-03-02' });
      const tid = days.flatMap((d: { list: { id: number; courseName: string }[] }) => d.list).at(-1).id;
      expect((await client.ok(`${API}/query/timetable/info`, { id: tid })).forChildren).toBe(expected);
    }
    // Another store cannot read it.
    const theirs = await env().other.client.call(`${API}/query/store/course/by/id`, { id });
    expect(theirs.status).toBe(404);
  });
});
