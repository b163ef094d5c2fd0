// 私教体验课 (issue 44, item 3): a lead booked into a new 1对1 lesson of a type with a teacher at a
// start in their free hours, without a card: the lesson opened by the lessons' one rule (free-slot
// finder, clash rule: two sellers booking the same teacher's start for two leads over two instances
// make one lesson), the lead's trial holding its one seat; 到店 marks 已体验 with the teacher; a
// no-show heads 我的待跟进; the cancel frees the seat and releases the lesson nobody is left in.
import {
  cancelLeadTrial,
  insertLead,
  insertLeadTrial,
  insertLeadTrialLesson,
  LeadMsg,
  LessonBookingMsg,
  markLeadTrial,
  Msg,
  queryLeadInfo,
  queryLeadTodoList,
  queryLeadTrialList,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, moreInstances, staffClient, tally, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { lessonType } from '../../../test/lesson-kit.ts';
import { localDateTime } from '../../lib/time.ts';

const DAY = '2099-05-06';

describeEachDb('leads: a private lesson as a trial (私教体验课)', (env) => {
  const instances = moreInstances(env, 1);
  const f = () => env().factory;
  const db = () => env().database.db;
  let seller: Client;
  let sellerId: number;
  let n = 0;
  const mobile = () => `138${String(Date.now() % 100000).padStart(5, '0')}${String(n++).padStart(3, '0')}`;
  const leadRow = (id: number) => db().selectFrom('lead').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sessionRow = (id: number) =>
    db().selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const invariants = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  beforeAll(async () => {
    seller = await staffClient(env(), 'desk');
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
  });

  async function newLead(c: Client = seller) {
    const { id } = await c.ok(insertLead.path, {
      name: '私教潜客',
      mobile: mobile(),
      source: '到店',
      ownerId: c === seller ? sellerId : null,
    });
    return id as number;
  }
  async function scene(kind: 'one_on_one' | 'small_group' = 'one_on_one') {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind,
      maxMembers: kind === 'one_on_one' ? 1 : 4,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    return { teacher, type };
  }

  it('booked in the teacher’s free hours without a card; 到店 marks 已体验 with the teacher', async () => {
    const { teacher, type } = await scene();
    const leadId = await newLead();
    const answer = await seller.ok(insertLeadTrialLesson.path, {
      leadId,
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '10:00',
    });
    const s = await sessionRow(answer.sessionId);
    expect(s).toMatchObject({ courseId: type.id, teacherId: teacher.id, realCount: 1, reservableCount: 1, deleted: 0 });
    expect(s.startTime.slice(0, 16)).toBe(`${DAY} 10:00`);
    expect(await leadRow(leadId)).toMatchObject({ stage: 'trial_booked', trialBookedAt: expect.any(String) });
    expect(await seller.ok(queryLeadTrialList.path, { sessionId: s.id })).toMatchObject([
      { id: answer.id, leadId, status: 1 },
    ]);
    const info = await seller.ok(queryLeadInfo.path, { id: leadId });
    expect(info.trials).toMatchObject([{ sessionId: s.id, courseName: type.name, status: 1 }]);
    // Nothing charged: no booking or history row.
    expect(await db().selectFrom('reservation').select('id').where('timetableId', '=', s.id).execute()).toEqual([]);
    // 操作日志: the call's entry names the lead and the lesson.
    const entry = await db()
      .selectFrom('auditLog')
      .select(['id', 'summary', 'storeId'])
      .where('call', '=', insertLeadTrialLesson.path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ storeId: env().storeId, summary: expect.any(String) });
    const targets = await db()
      .selectFrom('auditTarget')
      .select(['type', 'refId'])
      .where('auditId', '=', entry.id)
      .execute();
    expect(targets.map((t) => [t.type, Number(t.refId)])).toEqual(
      expect.arrayContaining([
        ['lead', leadId],
        ['session', s.id],
      ]),
    );
    // The same teacher's hour again: the clash rule (or the finder) refuses.
    const again = await seller.call(insertLeadTrialLesson.path, {
      leadId: await newLead(),
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '10:30',
    });
    expect(again.status).toBe(409);
    // A lesson of members is not a trial's: the group-class call refuses it as before.
    expect(await seller.call(insertLeadTrial.path, { leadId: await newLead(), sessionId: s.id })).toMatchObject({
      status: 409,
      msg: LeadMsg.trialGroupOnly,
    });

    await seller.ok(markLeadTrial.path, { id: answer.id, sessionId: s.id });
    expect(await leadRow(leadId)).toMatchObject({ stage: 'trial_done', trialTeacherId: teacher.id });
    await invariants();
  });

  it('refused: a 小班 type, a teacher who does not give it, a time outside the free hours', async () => {
    const { teacher, type } = await scene('small_group');
    const leadId = await newLead();
    const ask = (body: Record<string, unknown>) =>
      seller.call(insertLeadTrialLesson.path, {
        leadId,
        courseId: type.id,
        teacherId: teacher.id,
        date: DAY,
        time: '10:00',
        ...body,
      });
    expect(await ask({})).toMatchObject({ status: 409, msg: LeadMsg.trialOneOnOne });
    const one = await scene();
    const other = await f().teacher();
    expect(await ask({ courseId: one.type.id, teacherId: other.id })).toMatchObject({
      status: 409,
      msg: LessonBookingMsg.notTeacher,
    });
    expect(await ask({ courseId: one.type.id, teacherId: one.teacher.id, time: '23:00' })).toMatchObject({
      status: 409,
      msg: LessonBookingMsg.notOffered,
    });
    expect((await leadRow(leadId)).stage).toBe('new');
    await invariants();
  });

  it('cancelled: the seat freed and the lesson nobody is left in released; the lead back at its stage', async () => {
    const { teacher, type } = await scene();
    const leadId = await newLead();
    const { id, sessionId } = await seller.ok(insertLeadTrialLesson.path, {
      leadId,
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '15:00',
    });
    await seller.ok(cancelLeadTrial.path, { id });
    expect(await sessionRow(sessionId)).toMatchObject({ deleted: 1, realCount: 0 });
    expect((await leadRow(leadId)).stage).toBe('new');
    // The teacher's hour is free again: another lead takes it.
    await seller.ok(insertLeadTrialLesson.path, {
      leadId: await newLead(),
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '15:00',
    });
    await invariants();
  });

  it('a no-show heads the owner’s 我的待跟进 the same day', async () => {
    const { teacher, type } = await scene();
    const leadId = await newLead();
    const { sessionId } = await seller.ok(insertLeadTrialLesson.path, {
      leadId,
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '17:00',
    });
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    await db()
      .updateTable('timetable')
      .set({ startTime: `${today} 00:00:00`, endTime: `${today} 00:00:01` })
      .where('id', '=', sessionId)
      .execute();
    expect((await seller.ok(queryLeadTodoList.path))[0]).toMatchObject({ id: leadId, trialMissed: true });
  });

  it('two sellers booking the same teacher’s same start for two leads at once over two instances: one lesson', async () => {
    for (let round = 0; round < 4; round++) {
      const { teacher, type } = await scene();
      const leads = [await newLead(env().client), await newLead(env().client)];
      const answers = await Promise.all(
        leads.map((leadId, i) =>
          instances.clients[i % instances.clients.length].call(insertLeadTrialLesson.path, {
            leadId,
            courseId: type.id,
            teacherId: teacher.id,
            date: DAY,
            time: '11:00',
          }),
        ),
      );
      const { ok, ...refused } = tally(answers);
      expect(ok).toBe(1);
      expect(Object.keys(refused)).toEqual([
        expect.stringMatching(
          new RegExp(`^409 (${Msg.teacherConflict(`${DAY} 11:00-12:00`)}|${LessonBookingMsg.notOffered})$`),
        ),
      ]);
      const lessons = await db()
        .selectFrom('timetable')
        .select('id')
        .where('teacherId', '=', teacher.id)
        .where('deleted', '=', 0)
        .execute();
      expect(lessons).toHaveLength(1);
      const trials = await db()
        .selectFrom('leadTrial')
        .select('leadId')
        .where('timetableId', '=', lessons[0].id)
        .execute();
      expect(trials).toHaveLength(1);
      const loser = leads.find((l) => l !== trials[0].leadId)!;
      expect((await leadRow(loser)).stage).toBe('new');
    }
    await invariants();
  });
});
