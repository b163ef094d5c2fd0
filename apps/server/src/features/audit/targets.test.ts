// Issue 31 item 3: an entry's targets are what its service says it changed, typed; nothing is read
// off the payload (`tid` is the teacher in batch calls, and no session of that id is named).
import { beforeAll, expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

const STORE = '/store/api';

describeEachDb('audit targets said by the services', (env) => {
  let scene: Awaited<ReturnType<EngineFactory['scene']>>;
  beforeAll(async () => {
    scene = await new EngineFactory(env().factory).scene({ course: { name: '目标课程', count: 10 } });
  });

  /** The newest entry of `call` in this store, with its targets. */
  async function lastEntry(call: string) {
    const db = env().database.db;
    const entry = await db
      .selectFrom('auditLog')
      .select(['id', 'kind', 'target', 'undoJson'])
      .where('storeId', '=', env().storeId)
      .where('call', '=', call)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const targets = await db
      .selectFrom('auditTarget')
      .select(['type', 'refId'])
      .where('auditId', '=', entry.id)
      .execute();
    return { ...entry, targets: targets.map((t) => `${t.type}:${t.refId}`).sort() };
  }

  it('editing a teacher names the teacher, typed, with its name in words', async () => {
    await env().client.ok(`${STORE}/update/teacher`, { id: scene.teacher.id, name: '改名老师' });
    const e = await lastEntry(`${STORE}/update/teacher`);
    expect({ kind: e.kind, target: e.target, targets: e.targets }).toEqual({
      kind: 'reference',
      target: '老师 改名老师',
      targets: [`teacher:${scene.teacher.id}`],
    });
  });

  it("a batch run's entry names the sessions it made, never a session read off its tid (the teacher)", async () => {
    const made = await env().client.ok(`${STORE}/batch/arrange/course`, {
      cid: scene.course.id,
      tid: scene.teacher.id,
      areaId: null,
      students: 5,
      startDate: '2099-03-02',
      courseTimes: [{ weekday: 1, arrangeTime: '09:00' }],
      arrangeTimes: 2,
      mcIds: [],
    });
    const e = await lastEntry(`${STORE}/batch/arrange/course`);
    expect(e.kind).toBe('bulk');
    const created = (JSON.parse(e.undoJson!) as { createdSessions: number[] }).createdSessions;
    expect(created.sort()).toEqual([...made.ids].sort());
    expect(e.targets).toEqual(created.map((id) => `session:${id}`).sort());
  });
});
