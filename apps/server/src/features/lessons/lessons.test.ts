import { LessonMsg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb, staffClient } from '../../../test/harness.ts';

const API = '/store/api';

describeEachDb('lesson types, machines and teachers’ hours (私教/小班)', (env) => {
  async function twoTeachers() {
    const a = await env().factory.teacher({ name: `王老师${Date.now() % 10000}` });
    const b = await env().factory.teacher({ name: `李老师${Date.now() % 10000}` });
    return { a, b };
  }
  const base = (teachers: { teacherId: number; level: string | null }[]) => ({
    name: '普拉提私教',
    kind: 'one_on_one',
    duration: 60,
    minNoticeMinutes: 120,
    cancelCutoffMinutes: 720,
    slotStep: 30,
    teachers,
  });

  it('the manager adds a 1对1 type with two teachers at levels and a price per level; group course lists leave it out', async () => {
    const { client } = env();
    const { a, b } = await twoTeachers();
    const room = await env().factory.area({ name: '私教室' });
    const { id: eq } = await client.ok(`${API}/insert/equipment`, { name: '核心床', count: 6, areaId: room.id });
    const { id } = await client.ok(`${API}/insert/lesson/type`, {
      ...base([
        { teacherId: a.id, level: 'senior' },
        { teacherId: b.id, level: 'master' },
      ]),
      maxMembers: 5, // 1对1 takes one whatever is sent
      prices: [
        { level: 'senior', price: 30000 },
        { level: 'master', price: 50000 },
        { level: 'junior', price: 1 }, // no junior teacher: not kept
      ],
      areaIds: [room.id],
      equipment: [{ equipmentId: eq, perMember: 1 }],
    });
    const list = await client.ok(`${API}/query/lesson/type/list`);
    const t = list.find((x: { id: number }) => x.id === id);
    expect(t).toMatchObject({
      name: '普拉提私教',
      kind: 'one_on_one',
      maxMembers: 1,
      duration: 60,
      minNoticeMinutes: 120,
      cancelCutoffMinutes: 720,
      slotStep: 30,
      enabled: 1,
      teachers: [
        { teacherId: a.id, name: a.name, level: 'senior' },
        { teacherId: b.id, name: b.name, level: 'master' },
      ],
      areas: [{ id: room.id, name: '私教室' }],
      equipment: [{ equipmentId: eq, name: '核心床', perMember: 1 }],
    });
    expect(t.prices).toEqual([
      { level: 'master', price: 50000 },
      { level: 'senior', price: 30000 },
    ]);
    // the group-course pickers and management list do not show it, and its id is not a group course's
    expect(JSON.stringify(await client.ok(`${API}/query/course/simple/list`))).not.toContain('普拉提私教');
    expect(JSON.stringify(await client.ok(`${API}/query/store/course/list`, {}))).not.toContain('普拉提私教');
    expect((await client.call(`${API}/query/store/course/by/id`, { id })).status).toBe(404);
    const entries = await env()
      .database.db.selectFrom('auditLog')
      .select(['summary', 'target'])
      .where('storeId', '=', env().storeId)
      .where('summary', '=', '新增私教课程')
      .execute();
    expect(entries.map((e) => e.target)).toContain('课程 1对1 普拉提私教');
  });

  it('validates in Chinese: length, 小班 size, levels, a level without its price; 404 for another store’s teacher', async () => {
    const { client, other } = env();
    const { a } = await twoTeachers();
    const t = [{ teacherId: a.id, level: null }];
    const cases: [object, string][] = [
      [{ duration: 20 }, LessonMsg.duration],
      [{ duration: 181 }, LessonMsg.duration],
      [{ kind: 'big' }, LessonMsg.kind],
      [{ kind: 'small_group', maxMembers: 7 }, LessonMsg.maxMembers],
      [{ kind: 'small_group', maxMembers: 1 }, LessonMsg.maxMembers],
      [{ slotStep: 20 }, LessonMsg.slotStep],
      [{ teachers: [] }, LessonMsg.teachers],
      [{ teachers: [{ teacherId: a.id, level: 'expert' }] }, LessonMsg.level],
      [{ teachers: [{ teacherId: a.id, level: 'junior' }] }, LessonMsg.priceMissing('初级')],
      [{ name: '' }, LessonMsg.typeName],
    ];
    for (const [patch, msg] of cases) {
      const r = await client.call(`${API}/insert/lesson/type`, { ...base(t), ...patch });
      expect([r.status, r.msg]).toEqual([400, msg]);
    }
    const theirs = await other.factory.teacher();
    const r = await client.call(`${API}/insert/lesson/type`, base([{ teacherId: theirs.id, level: null }]));
    expect([r.status, r.msg]).toEqual([404, '老师不存在']);
    const before = await client.ok(`${API}/query/lesson/type/list`);
    expect(before.some((x: { teachers: unknown[] }) => x.teachers.length === 0)).toBe(false);
  });

  it('a 小班 of 4, edited and disabled; only managers change types', async () => {
    const { client } = env();
    const { a, b } = await twoTeachers();
    const { id } = await client.ok(`${API}/insert/lesson/type`, {
      ...base([{ teacherId: a.id, level: null }]),
      name: '小班普拉提',
      kind: 'small_group',
      maxMembers: 4,
      prices: [{ level: null, price: 12000 }],
    });
    await client.ok(`${API}/update/lesson/type`, {
      id,
      ...base([{ teacherId: b.id, level: null }]),
      name: '小班普拉提进阶',
      kind: 'small_group',
      maxMembers: 6,
      duration: 90,
      prices: [{ level: null, price: 15000 }],
    });
    const desk = await staffClient(env(), 'desk');
    expect((await desk.call(`${API}/update/lesson/type/status`, { id, enabled: 0 })).status).toBe(403);
    await client.ok(`${API}/update/lesson/type/status`, { id, enabled: 0 });
    const t = (await client.ok(`${API}/query/lesson/type/list`)).find((x: { id: number }) => x.id === id);
    expect(t).toMatchObject({
      name: '小班普拉提进阶',
      maxMembers: 6,
      duration: 90,
      enabled: 0,
      teachers: [{ teacherId: b.id }],
      prices: [{ level: null, price: 15000 }],
    });
    // a disabled type offers no times
    const slots = await client.call(`${API}/query/lesson/free/slots`, {
      courseId: id,
      from: '2099-03-02',
      to: '2099-03-02',
    });
    expect([slots.status, slots.msg]).toEqual([404, '课程不存在']);
    // a group course is not a lesson type
    const group = await env().factory.course();
    expect((await client.call(`${API}/update/lesson/type/status`, { id: group.id, enabled: 0 })).status).toBe(404);
  });

  it('machines: added, edited, deleted (types stop using a deleted one)', async () => {
    const { client, other } = env();
    const { id } = await client.ok(`${API}/insert/equipment`, { name: '普拉提椅', count: 3 });
    await client.ok(`${API}/update/equipment`, { id, name: '普拉提椅', count: 4, areaId: null });
    expect((await client.ok(`${API}/query/equipment/list`)).find((e: { id: number }) => e.id === id)).toEqual({
      id,
      name: '普拉提椅',
      count: 4,
      areaId: null,
      areaName: null,
    });
    const bad = await client.call(`${API}/insert/equipment`, { name: '椅', count: 0 });
    expect([bad.status, bad.msg]).toEqual([400, LessonMsg.equipmentCount]);
    const theirRoom = await other.factory.area();
    expect((await client.call(`${API}/insert/equipment`, { name: '椅', count: 1, areaId: theirRoom.id })).msg).toBe(
      '场地不存在',
    );
    const { a } = await twoTeachers();
    const { id: typeId } = await client.ok(`${API}/insert/lesson/type`, {
      ...base([{ teacherId: a.id, level: null }]),
      equipment: [{ equipmentId: id, perMember: 1 }],
    });
    await client.ok(`${API}/delete/equipment`, { id });
    expect((await client.ok(`${API}/query/equipment/list`)).some((e: { id: number }) => e.id === id)).toBe(false);
    const t = (await client.ok(`${API}/query/lesson/type/list`)).find((x: { id: number }) => x.id === typeId);
    expect(t.equipment).toEqual([]);
  });

  it('teachers’ hours: the manager sets anyone’s, a teacher account only its own; exceptions; free slots by day', async () => {
    const { client } = env();
    const { a, b } = await twoTeachers();
    const weekly = [
      { weekday: 1, startTime: '14:00', endTime: '16:00' },
      { weekday: 1, startTime: '09:00', endTime: '10:00' },
    ];
    await client.ok(`${API}/update/teacher/hours`, { teacherId: a.id, weekly });
    const overlap = await client.call(`${API}/update/teacher/hours`, {
      teacherId: a.id,
      weekly: [...weekly, { weekday: 1, startTime: '15:00', endTime: '17:00' }],
    });
    expect([overlap.status, overlap.msg]).toEqual([400, LessonMsg.spanOverlap(1)]);
    const backwards = await client.call(`${API}/update/teacher/hours`, {
      teacherId: a.id,
      weekly: [{ weekday: 2, startTime: '10:00', endTime: '09:00' }],
    });
    expect([backwards.status, backwards.msg]).toEqual([400, LessonMsg.span]);
    const badTime = await client.call(`${API}/update/teacher/hours`, {
      teacherId: a.id,
      weekly: [{ weekday: 2, startTime: '9:00', endTime: '10:00' }],
    });
    expect([badTime.status, badTime.msg]).toEqual([400, LessonMsg.time]);

    const own = await staffClient(env(), 'teacher', b.id);
    expect((await own.call(`${API}/update/teacher/hours`, { teacherId: a.id, weekly: [] })).status).toBe(403);
    expect((await own.call(`${API}/query/teacher/hours/info`, { teacherId: a.id })).status).toBe(403);
    await own.ok(`${API}/update/teacher/hours`, {
      teacherId: b.id,
      weekly: [{ weekday: 1, startTime: '09:00', endTime: '11:00' }],
    });
    const { id: off } = await own.ok(`${API}/insert/teacher/hours/exception`, {
      teacherId: b.id,
      date: '2099-03-02',
      kind: 'off',
      startTime: '09:00',
      endTime: '10:00',
      reason: '看牙',
    });
    const extra = await client.call(`${API}/insert/teacher/hours/exception`, {
      teacherId: a.id,
      date: '2099-03-02',
      kind: 'extra',
    });
    expect([extra.status, extra.msg]).toEqual([400, LessonMsg.extraSpan]);
    await client.ok(`${API}/insert/teacher/hours/exception`, {
      teacherId: a.id,
      date: '2099-03-02',
      kind: 'extra',
      startTime: '19:00',
      endTime: '20:00',
    });
    const info = await client.ok(`${API}/query/teacher/hours/info`, {
      teacherId: a.id,
      from: '2099-03-01',
      to: '2099-03-31',
    });
    expect(info.weekly).toEqual([
      { weekday: 1, startTime: '09:00', endTime: '10:00' },
      { weekday: 1, startTime: '14:00', endTime: '16:00' },
    ]);
    expect(info.exceptions).toMatchObject([
      { date: '2099-03-02', kind: 'extra', startTime: '19:00', endTime: '20:00' },
    ]);

    const { id: typeId } = await client.ok(`${API}/insert/lesson/type`, {
      ...base([
        { teacherId: a.id, level: null },
        { teacherId: b.id, level: null },
      ]),
      minNoticeMinutes: 0,
      slotStep: 30,
    });
    const days = await client.ok(`${API}/query/lesson/free/slots`, {
      courseId: typeId,
      from: '2099-03-02',
      to: '2099-03-03',
    });
    const starts = (teacherId: number) =>
      days[0].teachers
        .find((t: { teacherId: number }) => t.teacherId === teacherId)
        .slots.map((s: { startTime: string }) => s.startTime.slice(11, 16));
    expect(days.map((d: { date: string }) => d.date)).toEqual(['2099-03-02']);
    expect(starts(a.id)).toEqual(['09:00', '14:00', '14:30', '15:00', '19:00']);
    expect(starts(b.id)).toEqual(['10:00']);
    expect(days[0].teachers.map((t: { name: string }) => t.name)).toEqual([a.name, b.name]);
    // the teacher removes the time off: 09:00 and 09:30 come back
    await own.ok(`${API}/delete/teacher/hours/exception`, { id: off });
    const again = await own.ok(`${API}/query/lesson/free/slots`, {
      courseId: typeId,
      teacherIds: [b.id],
      from: '2099-03-02',
      to: '2099-03-02',
    });
    expect(again[0].teachers[0].slots.map((s: { startTime: string }) => s.startTime.slice(11, 16))).toEqual([
      '09:00',
      '09:30',
      '10:00',
    ]);
    const far = await client.call(`${API}/query/lesson/free/slots`, {
      courseId: typeId,
      from: '2099-03-02',
      to: '2099-05-02',
    });
    expect([far.status, far.msg]).toEqual([400, LessonMsg.range]);
    const many = await client.call(`${API}/query/lesson/free/slots`, {
      courseId: typeId,
      from: '2099-03-02',
      to: '2099-03-02',
      members: 2,
    });
    expect([many.status, many.msg]).toEqual([400, LessonMsg.membersMax(1)]);
  });
});
