import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb, staffClient } from '../../../../test/harness.ts';
import { insertSession } from '../../../../test/session-row.ts';

const API = '/store/api';
const room = { meetingType: 1, meetingCode: '123 456 789', joinUrl: 'https://meeting.example.com/j/123456789' };

describeEachDb('teachers', (env) => {
  it('adds, lists, edits and soft-deletes a teacher', async () => {
    const { client } = env();
    const { id } = await client.ok(`${API}/insert/teacher`, { name: '林老师', mobile: '13711112222', ...room });
    let list = await client.ok(`${API}/query/teacher/list`);
    expect(list.find((t: { id: number }) => t.id === id)).toEqual({
      id,
      name: '林老师',
      mobile: '13711112222',
      ...room,
    });
    await client.ok(`${API}/update/teacher`, { id, name: '林老师2', mobile: '', meetingType: 0 });
    list = await client.ok(`${API}/query/teacher/list`);
    expect(list.find((t: { id: number }) => t.id === id)).toEqual({
      id,
      name: '林老师2',
      mobile: null,
      meetingType: null,
      meetingCode: null,
      joinUrl: null,
    });
    await client.ok(`${API}/delete/teacher`, { id });
    list = await client.ok(`${API}/query/teacher/list`);
    expect(list.some((t: { id: number }) => t.id === id)).toBe(false);
    const again = await client.call(`${API}/update/teacher`, { id, name: '复活' });
    expect([again.status, again.msg]).toEqual([404, '老师不存在']);
  });

  it('validates in Chinese', async () => {
    const { client } = env();
    const a = await client.call(`${API}/insert/teacher`, { name: ' ' });
    expect([a.status, a.msg]).toEqual([400, '请输入老师姓名']);
    const b = await client.call(`${API}/insert/teacher`, { name: '王', joinUrl: 'javascript:alert(1)' });
    expect([b.status, b.msg]).toEqual([400, '在线教室链接应以 http:// 或 https:// 开头']);
    const c = await client.call(`${API}/insert/teacher`, { name: '王', mobile: '999' });
    expect(c.msg).toBe('请输入正确的11位手机号');
  });

  it('refuses deleting a teacher with sessions to come, allows it with only past ones', async () => {
    const { client, factory, database } = env();
    const busy = await factory.teacher();
    await insertSession(database.db, factory, { teacherId: busy.id, startTime: '2199-01-01 09:00:00' });
    const a = await client.call(`${API}/delete/teacher`, { id: busy.id });
    expect([a.status, a.msg]).toEqual([409, '该老师还有未上的课程，无法删除']);
    const done = await factory.teacher();
    await insertSession(database.db, factory, { teacherId: done.id, startTime: '2020-01-01 09:00:00' });
    await client.ok(`${API}/delete/teacher`, { id: done.id });
  });

  it('answers 404 for unknown ids and another store’s teacher, and lists only its own', async () => {
    const { client, other } = env();
    const theirs = await other.factory.teacher({ name: '别店老师' });
    for (const id of [theirs.id, 888_888]) {
      const u = await client.call(`${API}/update/teacher`, { id, name: '改名' });
      expect([u.status, u.msg, u.data]).toEqual([404, '老师不存在', null]);
      const d = await client.call(`${API}/delete/teacher`, { id });
      expect(d.status).toBe(404);
    }
    const list = await client.ok(`${API}/query/teacher/list`);
    expect(list.some((t: { name: string }) => t.name === '别店老师')).toBe(false);
    const theirsList = await other.client.ok(`${API}/query/teacher/list`);
    expect(theirsList.find((t: { id: number }) => t.id === theirs.id).name).toBe('别店老师');
    expect(Msg.notFound('老师')).toBe('老师不存在');
  });

  it('shows a teacher account every teacher by name but only their own mobile', async () => {
    const { client } = env();
    const me = await client.ok(`${API}/insert/teacher`, { name: '自己老师', mobile: '13722220001', ...room });
    const colleague = await client.ok(`${API}/insert/teacher`, { name: '同事老师', mobile: '13722220002', ...room });
    const byId = (list: { id: number; name: string; mobile: string | null }[]) => new Map(list.map((t) => [t.id, t]));

    const teacher = await staffClient(env(), 'teacher', me.id);
    const seen = byId(await teacher.ok(`${API}/query/teacher/list`));
    expect(seen.get(me.id)).toMatchObject({ name: '自己老师', mobile: '13722220001' });
    expect(seen.get(colleague.id)).toMatchObject({ name: '同事老师', mobile: null });
    // no mobile of anyone else, whoever they are
    expect([...seen.values()].filter((t) => t.mobile !== null).map((t) => t.id)).toEqual([me.id]);

    // managers and the desk still see every mobile
    for (const c of [client, await staffClient(env(), 'desk')]) {
      const all = byId(await c.ok(`${API}/query/teacher/list`));
      expect(all.get(me.id)?.mobile).toBe('13722220001');
      expect(all.get(colleague.id)?.mobile).toBe('13722220002');
    }
  });
});
